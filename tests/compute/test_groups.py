"""The one grouping of the successful records (compute/groups.py): every median, minimum and
maximum equals Python's statistics on the group's values, whichever way it is computed (a
selection per large group, one sort for many small ones), and the audit, the references and
the charts read the same groups."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

from benchproof.compute import groups as grouping
from benchproof.compute.groups import Groups
from benchproof.compute.run import compute
from benchproof.model.percentiles import median, middle_of_two
from benchproof.read.project import load_project
from support.common import SMALL_ARMS, SMALL_REPORT, write_project


def _project(tmp_path, sizes):
    """Arms a and b at sizes 1..len(sizes), ``sizes[k]`` repetitions each, some failed, some
    without a tok_s value; returns the project and the ok values of each group."""
    rng = random.Random(7)
    rows, expected = ["arm,status,repeat,size,tok_s,wall_s"], {}
    for size, count in enumerate(sizes, 1):
        for arm in "ab":
            for r in range(1, count + 1):
                status = "failed,x" if rng.random() < 0.1 else "ok,"
                value = "" if rng.random() < 0.1 else repr(rng.choice([rng.uniform(0, 100), float(rng.randrange(5))]))
                rows.append(f"{arm},{status.split(',')[0]},{r},{size},{value},1,{status.split(',')[1]}")
                if status.startswith("ok") and value:
                    expected.setdefault((arm, size), []).append(float(value))
    rows[0] += ",reason"
    root = write_project(tmp_path / "p", SMALL_REPORT, SMALL_ARMS, {"r.csv": "\n".join(rows) + "\n"})
    return load_project(root), expected


@pytest.mark.parametrize("sizes", [[3, 4, 1, 2] * 10, [300, 41, 2, 7]], ids=["many small groups", "large groups"])
@pytest.mark.parametrize("loop_from", [1, 10**9], ids=["selection per group", "one sort"])
def test_every_median_min_and_max_is_statistics_on_the_group(tmp_path, monkeypatch, sizes, loop_from):
    monkeypatch.setattr(grouping, "LOOP_FROM", loop_from)
    project, expected = _project(tmp_path, sizes)
    stats = Groups(project.records).stats("tok_s")
    found = {(arm, dict(point)["size"]): value for (_, arm, point), value in stats.items()}
    assert found == {k: (len(v), statistics.median(v), min(v), max(v)) for k, v in expected.items()}
    assert Groups(project.records).stats("wall_s") != {}


def test_two_middle_values_whose_sum_overflows_have_their_halves_added():
    assert median(np.array([1.5e308, 1.7e308])) == 1.6e308
    assert middle_of_two(-1.7e308, -1.5e308) == -1.6e308


def test_the_audit_the_references_and_the_charts_read_the_one_grouping(tmp_path):
    project, _ = _project(tmp_path, [3, 5])
    computed = compute(project)
    from benchproof.audit.finding import Facts
    from benchproof.charts.dots import Dots

    facts = Facts(project, computed)
    assert facts.ok.__self__ is computed.groups
    assert Dots(project, computed.groups).groups is computed.groups.rows
    group = next(iter(computed.groups.rows))
    rows, values = facts.values(*group, "tok_s")
    assert values.tolist() == project.records.metrics["tok_s"][rows].tolist() and list(rows) == sorted(rows)
