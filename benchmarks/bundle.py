"""Which deflate level for the evidence bundle?  Deflates the files of a built site's bundle
(records.csv, records.jsonl, the run files) at levels 1, 3, 6 and 9 and prints, for each, the
CPU time and the size.  Printed, never asserted.

    python benchmarks/bundle.py SITE PROJECT      (a site built from PROJECT, e.g. by speed.py --keep)

benchproof deflates at receipts.bundle.LEVEL, in blocks side by side on every core.
"""

from __future__ import annotations

import sys
import time
import zlib
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    site, project = Path(argv[0]), Path(argv[1])
    files = [site / "downloads/records.csv", site / "downloads/records.jsonl", *sorted((project / "runs").glob("*"))]
    data = [f.read_bytes() for f in files]
    total = sum(map(len, data))
    print(f"{len(files)} files, {total / 1e6:.0f} MB")
    print("| level | CPU time | MB/s | deflated size |")
    print("|---|---|---|---|")
    for level in (1, 3, 6, 9):
        start = time.process_time()
        size = 0
        for content in data:
            compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
            size += len(compressor.compress(content)) + len(compressor.flush())
        seconds = time.process_time() - start
        print(
            f"| {level} | {seconds:.1f} s | {total / seconds / 1e6:.0f} | {size / 1e6:.1f} MB ({size / total:.1%}) |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
