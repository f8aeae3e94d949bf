"""A bundle's ``SHA256SUMS`` (GNU ``sha256sum`` format, as :func:`benchproof.receipts.bundle.sha256sums`
writes it) and ``PROVENANCE.json``, read as input: every line that is not ``<64 hex>  <path>``
is a problem at its line, and so is a path listed twice or one that could not be written."""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchproof.errors import printable
from benchproof.published.archive import Unpacked, unsafe_name
from benchproof.published.reader import Refused, parse_json
from benchproof.published.shown import Bounded

SUMS = "SHA256SUMS"
PROVENANCE = "PROVENANCE.json"
OUTPUTS = ("records.csv", "records.jsonl", "results.json", PROVENANCE, SUMS)  # what the build adds to the inputs
_LINE = re.compile(r"([0-9a-f]{64})  (.+)")
SHOWN = 8  # names listed in one message before "and N more"


def listed(names: list[str], limit: int = SHOWN) -> str:
    shown = ", ".join(printable(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def read_sums(data: bytes) -> tuple[dict[str, str], list[str]]:
    """path → sha256, and a message per line that is not a checksum line (the first few, then
    how many more)."""
    entries: dict[str, str] = {}
    problems = Bounded()
    try:
        text = data.decode("utf-8")  # pragma: no mutate ("UTF-8" names the same codec)
    except UnicodeDecodeError as exc:
        return {}, [f"{SUMS}: not UTF-8 text (byte {exc.start})"]
    if text and not text.endswith("\n"):
        problems.add(f"{SUMS}: the last line has no line end")
    for number, line in enumerate(text.splitlines(), 1):
        found = _LINE.fullmatch(line)
        if not found:
            problems.add(f"{SUMS}:{number}: not a line '<sha256>  <path>': {printable(line[:80])}")
            continue
        digest, path = found.groups()
        why = unsafe_name(path)
        if why:
            problems.add(f"{SUMS}:{number}: {printable(path[:200])}: {why}")
        elif path in entries:
            problems.add(f"{SUMS}:{number}: {printable(path[:200])} is listed twice")
        else:
            entries[path] = digest
    return entries, problems.items()


def check_files(bundle: Unpacked) -> tuple[bool, str]:
    """Every file of the bundle against its SHA256SUMS: (ok, what was found, in words)."""
    refused = Bounded()
    for message in bundle.refused:
        refused.add(message)
    try:
        data = bundle.read(SUMS)
    except Refused as exc:
        return False, "; ".join(refused.items() + [str(exc)])
    if data is None:
        return False, "; ".join(refused.items() + [f"the bundle has no {SUMS}: nothing says what it should hold"])
    entries, bad = read_sums(data)
    problems = refused.items() + bad
    present = {p for p in bundle.digests if p != SUMS}
    missing = sorted(set(entries) - present)
    extra = sorted(present - set(entries))
    changed = sorted(p for p in set(entries) & present if entries[p] != bundle.digests[p])
    problems += _found(changed, "file differs", "files differ", f"from {SUMS}")
    problems += _found(missing, "listed", "listed", f"in {SUMS} but missing")
    problems += _found(extra, "not listed", "not listed", f"in {SUMS}")
    if problems:
        return False, "; ".join(problems)
    return True, f"all {len(entries):,} files match {SUMS}"


def _found(names: list[str], one: str, many: str, where: str) -> list[str]:
    """``["2 files differ from SHA256SUMS: a, b"]``, or nothing when ``names`` is empty."""
    return [f"{len(names)} {one if len(names) == 1 else many} {where}: {listed(names)}"] if names else []


@dataclass(frozen=True)
class Provenance:
    generator: str
    epoch: int
    source: str
    inputs: dict[str, tuple[int, str]]  # path → (bytes, sha256)


def read_provenance(data: bytes | None, latest: int) -> tuple[Provenance | None, str]:
    """The PROVENANCE.json of a bundle, or None and why it cannot be used."""
    if data is None:
        return None, f"the bundle has no {PROVENANCE}"
    try:
        doc = parse_json(data, PROVENANCE)
    except Refused as exc:  # not UTF-8, not JSON, too deep, too many digits
        return None, str(exc)
    if not isinstance(doc, dict):
        return None, f"{PROVENANCE} is not a JSON object"
    epoch, generator, source = doc.get("build_time_epoch"), doc.get("generator"), doc.get("build_time_source")
    if type(epoch) is not int or not 0 <= epoch <= latest:
        return (
            None,
            f"{PROVENANCE}: 'build_time_epoch' must be whole seconds from 1970 to 9999, got {printable(repr(epoch)[:40])}",
        )
    if not isinstance(generator, str) or not isinstance(source, str):
        return None, f"{PROVENANCE}: 'generator' and 'build_time_source' must be texts"
    inputs: dict[str, tuple[int, str]] = {}
    for item in found if isinstance(found := doc.get("inputs"), list) else []:
        if (
            isinstance(item, dict)
            and isinstance(item.get("path"), str)
            and type(item.get("bytes")) is int
            and isinstance(item.get("sha256"), str)
        ):
            inputs[item["path"]] = (item["bytes"], item["sha256"])
        else:
            return None, f"{PROVENANCE}: an entry of 'inputs' is not {{path, bytes, sha256}}"
    return Provenance(generator, epoch, source, inputs), ""


def check_provenance(bundle: Unpacked, provenance: Provenance) -> tuple[bool, str]:
    """Each input PROVENANCE.json lists is in the bundle with its size and sha256, and every
    other file of the bundle is one the build writes."""
    problems: list[str] = []
    absent = sorted(p for p in provenance.inputs if p not in bundle.digests)
    changed = sorted(
        p
        for p, (size, digest) in provenance.inputs.items()
        if p in bundle.digests and (bundle.digests[p] != digest or bundle.path(p).stat().st_size != size)
    )
    unlisted = sorted(p for p in bundle.digests if p not in provenance.inputs and p not in OUTPUTS)
    problems += _found(changed, "input differs", "inputs differ", f"from {PROVENANCE}")
    problems += _found(absent, "input", "inputs", f"of {PROVENANCE} missing")
    problems += _found(unlisted, "file", "files", "neither an input nor an output")
    if problems:
        return False, "; ".join(problems)
    return True, f"the {len(provenance.inputs):,} inputs match {PROVENANCE}"
