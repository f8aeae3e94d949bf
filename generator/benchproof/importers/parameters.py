"""A tool's parameters after the importer has read them: which become dimensions, under which
ids, and the hint for a scan imported without a choice.

* ``--dimension-from FIELD[,FIELD]`` makes fields of the records dimensions too (a llama-bench
  ``n_threads`` that differs between the tests, a GuideLLM ``strategy_rate``, a vLLM
  ``--metadata`` key, a parameter the importer kept as a column); a field is named as the tool
  names it (a hyperfine ``-L`` parameter, a pytest parametrize argument) or by its column.  A
  dimension the importer added only to keep records apart (hyperfine's ``command``,
  llama-bench's ``config``, pytest-benchmark's ``benchmark``) is dropped when the chosen ones
  already keep them apart.
* ``--dimension FIELD=ID`` does the same for one field and names the dimension ``ID`` (to
  match a report's own dimension, or to keep clear of one).
* :func:`hint`: a file whose commands or benchmarks vary in two or more parameters (or in one
  numeric parameter) and was imported with each command or benchmark an arm is a scan the
  user probably wants drawn as lines: one hint names the parameters and the command that does.
  A scan of several command templates (hyperfine) is imported with each template an arm and
  the parameters as dimensions, which draws it already: its hint names the templates and the
  lines, and needs no command.

Every problem is an :class:`~benchproof.errors.ImportFormatError` naming the file.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchproof.errors import fail
from benchproof.importers import arms
from benchproof.importers.base import DimensionDef, Imported
from benchproof.importers.common import RESERVED_COLUMNS, number_repeats, plain_value
from benchproof.model.magnitude import magnitude
from benchproof.read.config.report import id_problem  # the one rule of what an id may be

# dimensions an importer adds only so that records of different things are not pooled
FALLBACK = ("command", "config", "benchmark")
# the field that tells the variants of a scan apart when the importer made them the arms
# (hyperfine's command template, when a file has several)
VARIANTS = "template"
_ID_CHARS = "letters, digits, '-', '_' and '.'"


def renames(texts: Iterable[str]) -> dict[str, str]:
    """``--dimension FIELD=ID`` options → {field: id}; ``FIELD`` alone keeps its name."""
    found: dict[str, str] = {}
    for text in texts:
        field, _, new = text.partition("=")
        found[field.strip()] = (new or field).strip()
    return found


def _column(imported: Imported, field: str, rel: str, option: str) -> str:
    """The record column of ``field`` (a parameter's name, a dimension id or a column)."""
    column = imported.parameters.get(field, field)
    present = dict.fromkeys(k for r in imported.records for k in r)
    if column in present and not column.startswith("_"):
        return column
    metrics = {m.id for m in imported.metrics}
    offered = [
        *imported.parameters,
        *(
            k
            for k in present
            if k not in imported.parameters.values()
            and k not in {*RESERVED_COLUMNS, *metrics, arms.ARM, "imported_from"}
        ),
    ]
    fail(
        rel,
        None,
        f"{option} {field}: these {imported.format} records have no field '{field}' "
        f"(fields: {', '.join(dict.fromkeys(offered))})",
    )


def choose(imported: Imported, rel: str, wanted: tuple[str, ...], named: dict[str, str]) -> None:
    """Apply ``--dimension-from`` (``wanted``) and ``--dimension`` (``named``: field → id) to
    what the importer read, in place."""
    if not wanted and not named:
        return
    dims = list(imported.dimensions)
    chosen: list[str] = []
    for field in [*wanted, *named]:
        option = "--dimension-from" if field in wanted else "--dimension"
        column = _column(imported, field, rel, option)
        if column in imported.arm_from:
            fail(
                rel,
                None,
                f"{option} {field}: the arms come from '{field}' (--arm-from): a field is "
                "either the arms or a dimension",
            )
        lacking = [r for r in imported.records if r.get(column) in (None, "")]
        if lacking:
            fail(
                rel,
                None,
                f"{option} {field}: {len(lacking)} of {len(imported.records)} records have no "
                f"value for '{field}' (the first from {lacking[0].get('imported_from')}), and "
                "every record needs a value of each dimension",
            )
        for record in imported.records:
            value = record[column]
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                record[column] = plain_value(value)
        if column not in [d.id for d in dims]:
            name = next((n for n, c in imported.parameters.items() if c == column), None)
            dims.append(DimensionDef(column, f"Parameter {name}" if name else column))
        chosen.append(column)
    dims = [d for d in dims if d.id in chosen or d.id not in FALLBACK or _needed(imported.records, dims, d.id)]
    for field, new in named.items():
        column = _column(imported, field, rel, "--dimension")
        dims = _renamed(imported, dims, column, new, field, rel)
    imported.dimensions = dims
    number_repeats(imported.records, [d.id for d in dims] + [arms.ARM])


def _needed(records: list[dict], dims: list[DimensionDef], dim: str) -> bool:
    """Whether ``dim`` tells records apart that the arm and the other dimensions do not."""
    others = [d.id for d in dims if d.id != dim]
    seen: dict[tuple, object] = {}
    for r in records:
        key = (r.get(arms.ARM), *(plain_value(r.get(d)) for d in others))
        if seen.setdefault(key, r.get(dim)) != r.get(dim):
            return True
    return False


def _renamed(
    imported: Imported, dims: list[DimensionDef], column: str, new: str, field: str, rel: str
) -> list[DimensionDef]:
    if new == column:
        return dims
    why = id_problem(new)
    if why is None and (new in RESERVED_COLUMNS or new == arms.ARM):
        why = "is a reserved column"
    if why is None and any(new in r for r in imported.records):
        why = "is a field of these records already"
    if why:
        fail(rel, None, f"--dimension {field}={new}: '{new}' {why} (an id uses {_ID_CHARS})")
    for record in imported.records:
        record[new] = record.pop(column)
    imported.parameters = {n: new if c == column else c for n, c in imported.parameters.items()}
    return [DimensionDef(new, d.label) if d.id == column else d for d in dims]


def hint(imported: Imported, single: str) -> tuple[str, str, str | None] | None:
    """For a file imported with its commands or benchmarks as the arms: ``(what the scan is,
    what --arm-from draws instead, that --arm-from)`` when its parameters make a scan, else ``None``.
    ``single``: the ``--arm-from`` value that draws a scan of one numeric parameter as one line
    per what remains (``none`` for hyperfine, ``func`` for pytest-benchmark).  Arms made of the
    scan's variants (:data:`VARIANTS`) draw it already: ``(what the scan is, how it is drawn,
    None)``."""
    values = {
        name: list(dict.fromkeys(plain_value(r.get(column)) for r in imported.records))
        for name, column in imported.parameters.items()
    }
    varying = {name: v for name, v in values.items() if len(v) > 1}
    numeric = [name for name, v in varying.items() if all(magnitude(x) is not None for x in v)]
    said = " and ".join(f"{name} ({len(v)} values)" for name, v in varying.items())
    if imported.arm_from == (VARIANTS,) and VARIANTS not in imported.parameters.values():
        if not varying:
            return None
        kinds = len({r.get(VARIANTS) for r in imported.records})
        drawn = (
            f"one line per template across {numeric[0]}"
            if numeric
            else f"the templates side by side at each {' and '.join(varying)}"
        )
        return f"a scan of {kinds} command templates over {said}", drawn, None
    if len(varying) >= 2:
        arm = next((n for n in varying if n not in numeric), min(varying, key=lambda n: len(varying[n])))
        rest = [n for n in varying if n != arm]
        across = next((n for n in rest if n in numeric), rest[0])
        return f"a scan over {said}", f"for one line per {arm} across {across}", arm
    if numeric and len(varying[numeric[0]]) >= 3:
        return f"a scan over {said}", f"for lines across {numeric[0]}", single
    return None
