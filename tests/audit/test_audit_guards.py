"""audit.guards: a successful record that breaks a guard is `excluded` with the reason, keeps
every value in the raw table and the downloads, and never enters a median; a guard whose field
a record lacks does not fire, and the page says how many records each guard could check."""

from __future__ import annotations

import csv
import io
import json

import pytest

from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.audit import audit_of, interleaved, invoke, write
from support.common import page, summary_rows, text

GUARD = """\
guards:
  - {check: "nice == 0", reason: process ran niced}
"""


def niced(*, nice_on_b3: int = 5, b3_has_nice: bool = True):
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 90.0]}, nice=0)
    if b3_has_nice:
        rows[5]["nice"] = nice_on_b3
    else:
        rows[5]["nice"] = ""
    return rows


@pytest.fixture(scope="module")
def guarded_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("guarded")
    project = write(root / "p", niced(), audit=GUARD)
    result = invoke("build", project, "-o", root / "site")
    assert result.exit_code == 0, result.output
    return project, root / "site", result.output


def test_a_broken_guard_excludes_the_record_with_the_reason(guarded_site):
    project, _, _ = guarded_site
    loaded = load_project(project)
    record = next(r for r in loaded.records if r.run_id == "runs/r.csv:7")
    assert record.status == "excluded"
    assert record.reason == "guard: process ran niced (nice = 5)"
    assert record.metrics["tok_s"] == 90.0 and record.raw["nice"] == "5"  # every value kept
    outcome = loaded.guards[0]
    assert (outcome.checked, outcome.considered, outcome.excluded) == (6, 6, ("runs/r.csv:7",))


def test_the_excluded_record_is_in_no_median_but_in_every_table(guarded_site):
    _, site, _ = guarded_site
    soup = page(site / "index.html")
    b = [r for r in summary_rows(soup, flags=False) if r[0] == "Arm B"][0]
    assert b[2] == "2 ok · 1 excluded"
    assert b[3].startswith("150.5 (150–151) n=2")  # 90 is not in it (whole numbers: no decimals)
    raw = [[text(td) for td in tr.find_all("td")] for tr in soup.select("table.raw-table tbody tr")]
    excluded = next(r for r in raw if r[0] == "runs/r.csv:7")
    assert "excluded" in excluded and "90" in excluded and "guard: process ran niced (nice = 5)" in excluded
    rows = list(csv.DictReader(io.StringIO((site / "downloads/records.csv").read_text(encoding="utf-8"))))
    row = next(r for r in rows if r["run_id"] == "runs/r.csv:7")
    assert (row["status"], row["tok_s"], row["nice"]) == ("excluded", "90.0", "5")
    assert row["reason"] == "guard: process ran niced (nice = 5)"


def test_records_in_equal_records_out_with_guards(guarded_site):
    project, site, _ = guarded_site
    n_in = len((project / "runs/r.csv").read_text(encoding="utf-8").splitlines()) - 1
    soup = page(site / "index.html")
    assert int(soup.select_one(".n-records").get_text()) == n_in == 6
    assert len(soup.select("table.raw-table tbody tr")) == n_in
    csv_rows = (site / "downloads/records.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert len(csv_rows) == n_in
    data = json.loads((site / "downloads/results.json").read_text(encoding="utf-8"))
    assert data["records"] == n_in
    assert data["guards"] == [
        {
            "check": "nice == 0",
            "reason": "process ran niced",
            "checked": 6,
            "successful": 6,
            "excluded": ["runs/r.csv:7"],
        }
    ]


def test_the_guard_finding_names_the_arm_the_count_and_the_value(guarded_site):
    _, site, output = guarded_site
    assert (
        "runs/r.csv:7: warning: [guard] Arm B: 1 record at Size 512 excluded by the guard 'nice == 0' "
        "(process ran niced): nice = 5" in output
    )
    data = json.loads((site / "downloads/results.json").read_text(encoding="utf-8"))
    guard = [f for f in data["findings"] if f["rule"] == "guard"]
    assert guard == [
        {
            "rule": "guard",
            "section": "main",
            "arm": "b",
            "point": None,
            "metric": None,
            "message": "Arm B: 1 record at Size 512 excluded by the guard 'nice == 0' (process ran niced): nice = 5",
            "records": ["runs/r.csv:7"],
            "accepted": None,
        }
    ]
    block = page(site / "index.html").select_one("#before-you-quote")
    assert "checked 6 of 6 successful records; excluded 1." in text(block)


def test_a_clean_twin_excludes_nothing(tmp_path):
    project = write(tmp_path, niced(nice_on_b3=0), audit=GUARD)
    assert [r.status for r in load_project(project).records] == ["ok"] * 6
    # 90 is in b's median now: one of three apart, no stray among three (seed 004): b's figures are noisy
    assert [f.rule for f in audit_of(project).findings] == ["noisy", "noisy"]


def test_a_guard_does_not_fire_on_a_record_without_its_field(tmp_path):
    project = write(tmp_path / "p", niced(b3_has_nice=False), audit=GUARD)
    loaded = load_project(project)
    assert [r.status for r in loaded.records] == ["ok"] * 6
    assert (loaded.guards[0].checked, loaded.guards[0].excluded) == (5, ())
    out = tmp_path / "site"
    assert invoke("build", project, "-o", out).exit_code == 0
    assert (
        "checked 5 of 6 successful records (the other 1 lack a field it reads, so it could not fire on them); "
        "excluded 0." in text(page(out / "index.html").select_one("#before-you-quote"))
    )


def test_a_guard_can_join_comparisons(tmp_path):
    audit = 'guards:\n  - {check: "nice == 0 and cached_n == 0", reason: cold and not niced}\n'
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0]}, nice=0, cached_n=0)
    rows[2]["cached_n"] = 200
    loaded = load_project(write(tmp_path, rows, audit=audit))
    assert loaded.records[2].reason == "guard: cold and not niced (nice = 0, cached_n = 200)"


def test_a_value_a_guard_cannot_compare_is_an_error_at_its_line(tmp_path):
    rows = niced()
    rows[3]["nice"] = "high"
    project = write(tmp_path, rows, audit=GUARD)
    with pytest.raises(InputError) as info:
        load_project(project)
    assert [str(p) for p in info.value.problems] == [
        "runs/r.csv:5: audit guard 'nice == 0' (report.yaml:10): field 'nice' is not a number: 'high'"
    ]


def test_a_forbidden_guard_is_an_error_at_its_line(tmp_path):
    project = write(
        tmp_path,
        niced(),
        audit='guards:\n  - {check: "nice", reason: niced}\n  - {check: "__import__(\'os\') == 0", reason: x}\n',
    )
    with pytest.raises(InputError) as info:
        load_project(project)
    assert [str(p) for p in info.value.problems] == [
        "report.yaml:10: audit guard: check: a guard must be a comparison, e.g. 'nice == 0' (got 'nice')",
        "report.yaml:11: audit guard: check: function calls are not allowed (\"__import__('os')\")",
    ]
