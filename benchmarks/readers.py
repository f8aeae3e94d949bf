"""pandas or pyarrow for reading run files as columns?  Times the two on the same files, each
step in a fresh process so that memory is each one's own.  Printed, never asserted.

    python benchmarks/readers.py [--records 1000000]

Each reader takes the CSV files of a generated project (make_big_project.py --wide) to text
columns, empty cells as missing, as benchproof needs them (a number is checked against
read/numbers.py's pattern before it is converted, so every cell is read as text first), then
checks and converts one number column and dictionary-encodes one column of few values.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from speed import make_project  # noqa: E402  (the project made in a process of its own)

PATTERN = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"

PANDAS = """
import glob, sys, time
import pandas as pd
start = time.perf_counter()
frame = pd.concat([pd.read_csv(f, dtype=str, keep_default_na=False, na_values=[""]) for f in
                   sorted(glob.glob(sys.argv[1] + "/runs/*.csv"))], ignore_index=True)
read = time.perf_counter()
column = frame["decode_ms"]
ok = column.str.fullmatch(sys.argv[2]).fillna(False)
values = pd.to_numeric(column.where(ok), errors="coerce")
arms = pd.factorize(frame["arm"])
print(read - start, time.perf_counter() - read)
"""

PYARROW = """
import glob, sys, time
import pyarrow as pa, pyarrow.compute as pc, pyarrow.csv as pacsv
start = time.perf_counter()
tables = []
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.csv")):
    names = open(f).readline().rstrip("\\n").split(",")
    tables.append(pacsv.read_csv(f, convert_options=pacsv.ConvertOptions(
        column_types=dict.fromkeys(names, pa.string()), strings_can_be_null=True, null_values=[""])))
table = pa.concat_tables(tables)
read = time.perf_counter()
column = table["decode_ms"].combine_chunks()
ok = pc.match_substring_regex(column, "^(?:" + sys.argv[2] + ")$")
values = pc.cast(pc.if_else(ok, column, None), pa.float64())
arms = table["arm"].combine_chunks().dictionary_encode()
print(read - start, time.perf_counter() - read)
"""


def measure(code: str, project: Path) -> tuple[float, float, float]:
    """(seconds reading, seconds checking, peak GiB) of one fresh process."""
    process = subprocess.Popen([sys.executable, "-c", code, str(project), PATTERN], stdout=subprocess.PIPE, text=True)
    _, _, usage = os.wait4(process.pid, 0)
    assert process.stdout is not None
    read, check = map(float, process.stdout.read().split())
    process.stdout.close()
    return read, check, usage.ru_maxrss / 2**20


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="benchproof-readers-") as work:
        project = Path(work) / "project"
        make_project(project, args.records, jsonl=False)  # the CSV files, as pyarrow.csv and pandas read them
        print(f"{args.records:,} records, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
        print("| reader | read as text columns | check and convert a number column, encode a column | peak memory |")
        print("|---|---|---|---|")
        for name, code in (("pandas", PANDAS), ("pyarrow", PYARROW)) * 2:
            read, check, peak = measure(code, project)
            print(f"| {name} | {read:.2f} s | {check:.2f} s | {peak:.2f} GiB |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
