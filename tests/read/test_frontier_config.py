"""The frontier's keys: an arm's gpus, price_per_gpu_hour and power_w, report.yaml's frontier:
block and slo:'s interactivity_min — read, and each bad value an error at its file:line."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.frontier import sweep_project

GOOD = """\
gpus: {count: 8, model: H100 SXM}
price_per_gpu_hour: {value: 2.5, currency: USD, source: "list price, cloud X", date: 2026-11-01}
power_w: {value: 5600, source: "nvidia-smi, mean over the sweep"}
"""


def problems(tmp_path, **kwargs) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_project(sweep_project(tmp_path / "p", **kwargs))
    return [str(p) for p in caught.value.problems]


def test_declared_normalisation_is_read(tmp_path):
    project = load_project(sweep_project(tmp_path / "p", arm_extra={"fast": GOOD}))
    fast = project.arms["fast"]
    assert (fast.gpus.count, fast.gpus.model) == (8, "H100 SXM")
    price = fast.price_per_gpu_hour
    assert (price.value, price.currency, price.source, price.date) == (2.5, "USD", "list price, cloud X", "2026-11-01")
    assert (fast.power_w.value, fast.power_w.source) == (5600.0, "nvidia-smi, mean over the sweep")
    assert project.arms["lean"].gpus is None


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("gpus: {count: 0, model: H100}\n", "arms/fast.yaml:2: gpus: count must be 1 or more, got 0"),
        ("gpus: {count: 8}\n", "arms/fast.yaml:2: gpus is missing the required key 'model'"),
        ("gpus: 8\n", "arms/fast.yaml:2: 'gpus' in an arm must be a mapping"),
        (
            "price_per_gpu_hour: {value: -1, currency: USD, source: x, date: 2026-01-01}\n",
            "arms/fast.yaml:2: price_per_gpu_hour: value must be above 0, got -1",
        ),
        ("power_w: {value: 700}\n", "arms/fast.yaml:2: power_w is missing the required key 'source'"),
        ("power_w: {value: many, source: x}\n", "arms/fast.yaml:2: 'value' in power_w must be a number"),
    ],
)
def test_bad_normalisation_is_an_error_at_its_line(tmp_path, extra, expected):
    found = problems(tmp_path, arm_extra={"fast": extra})
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("frontier: {load: users}\n", "report.yaml:12: frontier: load 'users' is not a dimension of the report"),
        (
            "frontier: {throughput: output_thruput}\n",
            "report.yaml:12: frontier: throughput 'output_thruput' is not a run metric of the report "
            "(did you mean 'output_throughput'?)",
        ),
        ("frontier: {axis: both}\n", "report.yaml:12: frontier: axis 'both' is not one of per_user, latency"),
        ("slo:\n  - {interactivity_min: 0}\n", "report.yaml:13: slo: interactivity_min must be a number above 0"),
        ("slo:\n  - {max: 3}\n", "report.yaml:13: an slo entry needs metric and max (or is interactivity_min alone)"),
        (
            "slo:\n  - {interactivity_min: 5}\n  - {interactivity_min: 6}\n",
            "report.yaml:14: slo: interactivity_min is named twice",
        ),
    ],
)
def test_bad_frontier_keys_are_errors_at_their_line(tmp_path, extra, expected):
    found = problems(tmp_path, report_extra=extra)
    assert any(p.startswith(expected) for p in found), found


def test_check_exits_non_zero_without_a_traceback(tmp_path):
    project = sweep_project(tmp_path / "p", arm_extra={"lean": "gpus: {count: -2, model: X}\n"})
    result = CliRunner().invoke(main, ["check", str(project)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "arms/lean.yaml:2: gpus: count must be 1 or more" in result.output
