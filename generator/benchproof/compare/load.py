"""One side of a comparison: a site, a bundle (zip or folder), a results.json or a project,
read as a :class:`Snapshot` — the published results.json, every successful repetition behind
each figure (records.jsonl; a project's records as the build would write them), and the noise
threshold of the report's own ``audit.noise_threshold``.

Everything read is input: a results.json that is not one, a records.jsonl line that is not
JSON, or records whose medians are not the ones results.json states, is a :class:`Unreadable`
with the file (and line), and compare leaves with exit 2.
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from benchproof.addresses import DOWNLOADS, download_path
from benchproof.errors import InputError, errors_text, printable
from benchproof.model.config import AuditSettings
from benchproof.model.percentiles import median as median_of
from benchproof.published import reader
from benchproof.published.locate import (
    BUNDLE,
    MULTI,
    PROJECT,
    RESULTS,
    SITE,
    ZIP,
    NotPublished,
    locate,
)
from benchproof.published.reader import MAX_LINE, Refused
from benchproof.published.results import ResultsProblem, parse_results
from benchproof.text import point_ids, setting

DEFAULT_NOISE = AuditSettings().noise_threshold
Key = tuple  # (section, arm, point: ((dimension, value), ...), metric)


class Unreadable(Exception):
    """A side cannot be compared (message: ``file[:line]: why``)."""


@dataclass(frozen=True)
class Snapshot:
    label: str  # what was read, in words
    results: dict
    values: dict[Key, np.ndarray] | None  # None: only the figures (a results.json alone)
    noise: float
    noise_from: str

    @property
    def generator(self) -> str:
        return str(self.results.get("generator", "?"))


def point_key(point: dict, dimensions: list) -> tuple:
    """A workload point in the report's dimension order (the dimensions it names)."""
    order = [d for d in dimensions if d in point] + [d for d in point if d not in dimensions]
    return tuple((d, point[d]) for d in order)


def figure_keys(doc: dict) -> dict[Key, dict]:
    """section × arm × point × metric → the figure (n_ok, median, min, max, status…)."""
    dims = list(doc.get("dimensions") or [])
    return {
        (row["section"], row["arm"], point_key(row.get("point") or {}, dims), metric): stat
        for row in doc.get("rows") or []
        for metric, stat in row["metrics"].items()
    }


def _lines(source: IO[bytes], where: str) -> Iterator[tuple[int, bytes]]:
    """The lines of ``source`` with their numbers, none longer than :data:`MAX_LINE`."""
    number = 0
    while line := source.readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE:
            raise Unreadable(f"{where}:{number}: a line longer than {MAX_LINE:,} bytes")
        yield number, line


def _scalar(value) -> bool:
    return value is None or isinstance(value, (str, int, float))


def read_values(source: IO[bytes], doc: dict, where: str) -> dict[Key, np.ndarray]:
    """The successful repetitions of each figure, from records.jsonl (read line by line);
    checked against the figures results.json states (their count and median)."""
    dims = list(doc.get("dimensions") or [])
    metrics = [m["id"] for m in doc.get("metrics") or []]
    found: dict[Key, list[float]] = {}
    for number, line in _lines(source, where):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # not JSON, not UTF-8, too deep, too many digits
            raise Unreadable(f"{where}:{number}: not a JSON line ({printable(str(exc))[:120]})") from None
        if not isinstance(record, dict):
            raise Unreadable(f"{where}:{number}: not a JSON object")
        if record.get("status") != "ok":
            continue
        if not (
            isinstance(record.get("section"), str)
            and isinstance(record.get("arm"), str)
            and all(_scalar(record.get(d)) for d in dims)
        ):
            raise Unreadable(
                f"{where}:{number}: not a record: its section and arm must be texts, its dimensions texts or numbers"
            )
        point = point_key({d: record.get(d) for d in dims}, dims)
        for metric in metrics:
            value = record.get(metric)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                found.setdefault((record.get("section"), record.get("arm"), point, metric), []).append(float(value))
    # no mutate: floats already: float64 either way
    values = {key: np.asarray(v, float) for key, v in found.items()}  # pragma: no mutate
    for key, stat in figure_keys(doc).items():
        mine = values.get(key, np.zeros(0))
        median = stat.get("median")
        if len(mine) != (stat.get("n_ok") or 0) or (
            median is not None and len(mine) and not math.isclose(median_of(mine), median)
        ):  # within 1e-9 of it
            section, arm, point, metric = key
            raise Unreadable(
                f"{where}: the records of {section} · {arm} · {metric} at "
                f"{point_ids(point)} do not give the "
                f"median and count results.json states (check the report with benchproof verify)"
            )
    return values


def _noise_of(report_yaml: bytes | None, label: str) -> tuple[float, str]:
    """``audit.noise_threshold`` of a report.yaml (the default when it has none)."""
    if report_yaml is None:
        return DEFAULT_NOISE, f"the default, {setting(DEFAULT_NOISE)}: {label} ships no report.yaml"
    from benchproof.read.yamlio import load_yaml_text

    try:
        # no mutate: a codec's name in any case; the name is only in problems, unused
        doc, _problems = load_yaml_text(report_yaml.decode("utf-8-sig"), "report.yaml")  # pragma: no mutate
    except UnicodeDecodeError:
        doc = None
    if doc is None:
        return DEFAULT_NOISE, f"the default, {setting(DEFAULT_NOISE)}: the report.yaml of {label} cannot be read"
    audit = doc.get("audit") if isinstance(doc, dict) else None
    noise = audit.get("noise_threshold") if isinstance(audit, dict) else None
    if isinstance(noise, (int, float)) and not isinstance(noise, bool) and 0 <= noise < math.inf:
        return float(noise), f"audit.noise_threshold of {label}"
    return DEFAULT_NOISE, f"the default audit.noise_threshold of {label}"


Opener = Callable[[], AbstractContextManager[IO[bytes] | None]]


def _opened(path: Path, what: str, shown: str) -> Opener:
    """A file's stream, or None when nothing is there (Unreadable when something else is)."""

    @contextmanager
    def stream() -> Iterator[IO[bytes] | None]:
        if not os.path.lexists(path):
            yield None
            return
        try:
            source, _size = reader.open_regular(path, what, shown)
        except Refused as exc:
            raise Unreadable(str(exc)) from None
        with source:
            yield source

    return stream


def _file(path: Path, what: str) -> bytes | None:
    try:
        return reader.read_if_file(path, what)
    except Refused as exc:
        raise Unreadable(str(exc)) from None


@contextmanager
def _zip(path: Path) -> Iterator[Callable[[str], object]]:
    """The bundle zip at ``path``: ``entry(name)`` gives the ZipInfo of ``<top>/<name>`` or None."""
    try:
        archive = reader.open_zip(path)
    except Refused as exc:
        raise Unreadable(str(exc)) from None
    try:
        tops = {n.split("/", 1)[0] for n in archive.namelist()}
        if len(tops) != 1:
            raise Unreadable(f"{printable(str(path))}: not an evidence bundle (its entries are not in one folder)")
        top = tops.pop()
        names = {info.filename: info for info in archive.infolist()}

        def entry(name: str):
            info = names.get(f"{top}/{name}")
            return None if info is None else (archive, info, printable(f"{path.name}: {top}/{name}"))

        yield entry
    finally:
        reader.close_zip(archive)


def _zip_bytes(found, what: str) -> bytes | None:
    if found is None:
        return None
    archive, info, shown = found
    try:
        return reader.read_entry(archive, info, what, shown)
    except Refused as exc:
        raise Unreadable(str(exc)) from None


def _zip_stream(found) -> Opener:
    @contextmanager
    def stream() -> Iterator[IO[bytes] | None]:
        if found is None:
            yield None
            return
        archive, info, shown = found
        try:
            source = reader.open_entry(archive, info, shown)
        except Refused as exc:
            raise Unreadable(str(exc)) from None
        try:
            with source:
                yield source
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:  # a bad CRC, a truncated entry
            raise Unreadable(f"{shown}: cannot be unpacked ({printable(str(exc))})") from None

    return stream


def _published(
    label: str,
    results: bytes | None,
    results_where: str,
    records: Opener,
    records_where: str,
    report_yaml: bytes | None,
) -> Snapshot:
    if results is None:
        raise Unreadable(f"{results_where}: missing")
    try:
        doc = parse_results(results, results_where)
    except ResultsProblem as exc:
        raise Unreadable(str(exc)) from None
    with records() as stream:
        values = None if stream is None else read_values(stream, doc, records_where)
    noise, noise_from = _noise_of(report_yaml, label)
    return Snapshot(label, doc, values, noise, noise_from)


def _project(path: Path) -> Snapshot:
    from benchproof.build import SeveralReports, check_report, results_document
    from benchproof.receipts.downloads import records_jsonl

    try:
        project, audited = check_report(path)
    except InputError as exc:
        raise Unreadable(f"{printable(str(path))}: the project does not build: {errors_text(exc.problems)}") from None
    except SeveralReports:
        raise Unreadable(f"{printable(str(path))} holds several reports: compare one report folder at a time") from None
    doc = json.loads(results_document(project, audited))
    values = read_values(io.BytesIO(bytes(records_jsonl(project))), doc, "records")
    label = f"project {printable(str(path))}"
    return Snapshot(label, doc, values, project.audit.noise_threshold, f"audit.noise_threshold of {label}")


def load(path: Path) -> Snapshot:
    try:
        found = locate(path)
    except NotPublished as exc:
        raise Unreadable(str(exc)) from None
    shown = printable(str(path))
    if found.kind == PROJECT:
        return _project(path)
    if found.kind == SITE:
        downloads = path / DOWNLOADS
        assert found.zip is not None
        with _zip(found.zip) as entry:
            yaml_text = _zip_bytes(entry("report.yaml"), "report.yaml")
        records = downloads / "records.jsonl"
        return _published(
            f"site {shown}",
            _file(downloads / "results.json", "results.json"),
            f"{shown}/{download_path('results.json')}",
            _opened(records, "records.jsonl", f"{shown}/{download_path('records.jsonl')}"),
            f"{shown}/{download_path('records.jsonl')}",
            yaml_text,
        )
    if found.kind == ZIP:
        with _zip(path) as entry:
            return _published(
                f"bundle {shown}",
                _zip_bytes(entry("results.json"), "results.json"),
                f"{shown}: results.json",
                _zip_stream(entry("records.jsonl")),
                f"{shown}: records.jsonl",
                _zip_bytes(entry("report.yaml"), "report.yaml"),
            )
    if found.kind == BUNDLE:
        return _published(
            f"bundle {shown}",
            _file(path / "results.json", "results.json"),
            f"{shown}/results.json",
            _opened(path / "records.jsonl", "records.jsonl", f"{shown}/records.jsonl"),
            f"{shown}/records.jsonl",
            _file(path / "report.yaml", "report.yaml"),
        )
    if found.kind == RESULTS:
        folder = path.parent
        beside = sorted(folder.glob("*-evidence.zip"))
        yaml_text = _file(folder / "report.yaml", "report.yaml")
        if yaml_text is None and len(beside) == 1:
            with _zip(beside[0]) as entry:
                yaml_text = _zip_bytes(entry("report.yaml"), "report.yaml")
        records_where = printable(str(folder / "records.jsonl"))
        return _published(
            f"results {shown}",
            _file(path, "results.json"),
            shown,
            _opened(folder / "records.jsonl", "records.jsonl", records_where),
            records_where,
            yaml_text,
        )
    assert found.kind == MULTI
    raise Unreadable(f"{shown} is a site of several reports: compare one report's folder at a time")
