"""example_site/arms/<id>.html: one page per arm, with all of its records and its evidence."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from support.common import EXAMPLE, SMALL_REPORT, build, page, text, write_project

ARM_IDS = sorted(p.stem for p in (EXAMPLE / "arms").glob("*.yaml"))


def csv_records() -> list[dict[str, str]]:
    with (EXAMPLE / "runs" / "nov3-tuning.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def arm(example_site: Path, arm_id: str):
    return page(example_site / "arms" / f"{arm_id}.html")


def local_links(soup) -> list[str]:
    return [a["href"] for a in soup.select("a[href]") if "://" not in a["href"] and not a["href"].startswith("#")]


def test_every_arm_has_a_page(example_site):
    assert len(ARM_IDS) == 5
    assert sorted(p.stem for p in (example_site / "arms").glob("*.html")) == ARM_IDS


@pytest.mark.parametrize("arm_id", ARM_IDS)
def test_the_page_lists_exactly_that_arms_records(example_site, arm_id):
    soup = arm(example_site, arm_id)
    expected = [r["run_id"] for r in csv_records() if r["arm"] == arm_id]
    rows = soup.select("table.arm-runs tbody tr")
    assert len(rows) == len(expected) > 0
    assert [tr["id"] for tr in rows] == [f"run-{run_id}" for run_id in expected]
    for tr, run_id in zip(rows, expected):
        link = tr.select_one("td a")
        assert link["href"] == f"../runs.html#run-{run_id}" and text(link) == run_id
    assert text(soup.select_one(".n-records")) == str(len(expected))
    statuses = Counter(r["status"] for r in csv_records() if r["arm"] == arm_id)
    assert [text(tr.select_one(".badge")) for tr in rows].count("ok") == statuses["ok"]


def test_label_role_launch_and_source(example_site):
    soup = arm(example_site, "v100-expxa0982-overdrive")
    assert text(soup.select_one("h1")) == "V100 · expXa0982 · forced Overdrive"
    assert soup.title.get_text().startswith("V100 · expXa0982 · forced Overdrive")
    facts = text(soup.select_one(".arm-facts"))
    assert "candidate" in facts and "unsupported" in facts and "arms/v100-expxa0982-overdrive.yaml" in facts
    launch = soup.select_one(".launch-box")
    assert text(launch.select_one(".badge")) == "unsupported"
    assert "no Overdrive recipe for qwen3moe" in text(launch)
    assert launch.select_one("a.evidence")["href"] == "../evidence/v100-expxa0982-overdrive/launch.log"
    back = soup.select_one(".eyebrow a")["href"]
    assert back == "../index.html#arm-v100-expxa0982-overdrive"
    assert page(example_site / "index.html").select_one("#arm-v100-expxa0982-overdrive") is not None


def test_claims_requested_vs_verified(example_site):
    soup = arm(example_site, "v100-expxa0982-overdrive")
    (row,) = soup.select("table.claims-table tbody tr")
    cells = [text(c) for c in row.find_all(["th", "td"])]
    assert cells[:3] == ["Overdrive", "EXPXA_OVERDRIVE=1", "NO"]
    assert row.select_one("a.evidence")["href"] == "../evidence/v100-expxa0982-overdrive/activation-probe.txt"
    control = arm(example_site, "v100-pxa4-control")
    verified = [text(r.select_one(".verified")) for r in control.select("table.claims-table tbody tr")]
    assert verified == ["yes", "unknown"]


def test_unmeasured_values_are_dashes_never_zero(example_site):
    soup = arm(example_site, "v100-expxa0982-overdrive")
    for tr in soup.select("table.arm-runs tbody tr"):
        metrics = [text(td) for td in tr.select("td.num")][2:]  # after input tokens and repeat
        assert metrics == ["--", "--", "--"]
        assert all("missing" in td["class"] for td in tr.select("td.num")[2:])
        assert "launch refused" in text(tr.select_one("td.reason"))
    failed = arm(example_site, "v100-pxa4-control").select_one("#run-nov3-v100-pxa4-control-4096-r4")
    values = [text(td) for td in failed.select("td.num")]
    assert values[0] == "4096" and "--" in values and "0.00" not in values
    assert "guard" in text(failed.select_one("td.reason"))
    assert text(failed.select_one("td.source")).startswith("runs/nov3-tuning.csv:")


def test_metrics_use_the_report_decimals(example_site):
    row = arm(example_site, "v100-pxa4-control").select_one("#run-nov3-v100-pxa4-control-512-r1")
    figures = [text(td) for td in row.select("td.num")][2:]
    assert len(figures) == 3 and all(f.count(".") == 1 and len(f.split(".")[1]) == 2 for f in figures)
    headers = [text(th) for th in arm(example_site, "v100-pxa4-control").select("table.arm-runs thead th")]
    assert headers[:2] == ["Run", "Status"] and "Input tokens" in headers and "Repeat" in headers
    assert "Prefill t/s (derived)" in headers and headers[-1] == "Source"


@pytest.mark.parametrize("arm_id", ARM_IDS)
def test_evidence_and_local_links_resolve(example_site, arm_id):
    soup = arm(example_site, arm_id)
    listed = [a["href"] for a in soup.select(".evidence-list a")]
    assert listed, "every example arm names evidence"
    yaml_list = [
        line.strip()[2:]
        for line in (EXAMPLE / "arms" / f"{arm_id}.yaml").read_text().splitlines()
        if line.strip().startswith("- evidence/")
    ]
    assert [h.removeprefix("../") for h in listed][: len(yaml_list)] == yaml_list
    for href in local_links(soup):
        target = href.split("#")[0]
        if target.endswith("runs.html"):  # the every-run page is another module's
            continue
        assert (example_site / "arms" / target).resolve().is_file(), href
    assert all("bytes" in text(s) for s in soup.select(".evidence-list .size"))


def test_notes_and_command(example_site):
    soup = arm(example_site, "v100-expxa0982-parallel")
    assert "distributes complete activation rows" in text(soup.select_one(".narrative"))
    assert soup.select_one(".narrative code") is not None  # Markdown rendered
    pre = soup.select_one("#command ~ pre.cmd")
    assert "EXPXA_PARALLEL_ACT_PREP=1" in pre.get_text() and len(pre.select("code")) == 2
    config = text(soup.select_one(".config-cards"))
    assert "activation_prep" in config and "Tesla V100-SXM2-32GB" in config
    assert "Same as the report." in config


def test_report_links_to_every_arm_page(example_site):
    index = page(example_site / "index.html")
    links = {a["href"] for a in index.select("th.arm-col a")}
    assert links == {f"arms/{a}.html" for a in ARM_IDS}


ARMS = {
    "a": """\
        label: "A <b>bold</b>"
        subject: {quantization: Q8_0}
        settings: {"<script>alert(1)</script>": "<img src=x onerror=alert(2)>"}
        command: ["run --flag '</pre><script>alert(3)</script>'"]
        notes: "Hello <script>alert(4)</script>"
        """,
    "b": "label: B\n",
    "c": "label: C\nlaunch: {status: unsupported, reason: no kernel}\n",
    "lonely": "label: Not in any section\n",
}


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("arms")
    report = SMALL_REPORT.replace("title: Small", "title: Small\n    subject: {name: M, quantization: Q4_K_M}")
    runs = "arm,status,repeat,size,tok_s,wall_s,reason\na,ok,1,1,10,,\na,failed,2,1,,,boom\nb,ok,1,1,9,2,\n"
    project = write_project(tmp / "p", report, ARMS, {"r.csv": runs})
    result = build(project, tmp / "out")
    assert result.exit_code == 0, result.output
    return tmp / "out"


def test_hostile_strings_on_the_arm_page_are_escaped(small):
    html = (small / "arms" / "a.html").read_text(encoding="utf-8")
    assert "<script>" not in html and "<img src=x" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    assert "&lt;/pre&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in html
    soup = page(small / "arms" / "a.html")
    assert text(soup.select_one("h1")) == "A <b>bold</b>"
    assert "alert(4)" not in str(soup.select_one(".narrative"))  # sanitized Markdown


def test_not_like_for_like_on_the_arm_page(small):
    soup = page(small / "arms" / "a.html")
    assert "not like-for-like" in text(soup.select_one(".arm-facts"))
    table = soup.select_one(".subject-table")
    rows = {
        text(tr.th).replace("≠ differs", "").strip(): [text(td) for td in tr.find_all("td")]
        for tr in table.select("tbody tr")
    }
    assert rows["quantization"] == ["Q8_0", "Q4_K_M"] and rows["name"] == ["M", "M"]
    assert "differs" in table.select_one("tbody tr:nth-of-type(2)")["class"]
    same = page(small / "arms" / "b.html")
    assert "Same as the report." in text(same.select_one(".config-cards"))
    assert "not like-for-like" not in text(same)


def test_dashes_and_failed_records_in_a_small_project(small):
    soup = page(small / "arms" / "a.html")
    rows = soup.select("table.arm-runs tbody tr")
    assert [text(r.select_one(".badge")) for r in rows] == ["ok", "failed"]
    assert [text(td) for td in rows[0].select("td.num")] == ["1", "1", "10", "--"]  # whole numbers: no decimals
    assert [text(td) for td in rows[1].select("td.num")] == ["1", "2", "--", "--"]


def test_an_arm_without_records_or_section_still_has_a_page(small):
    c = page(small / "arms" / "c.html")
    assert "No records" in text(c.select_one("#runs").parent)
    assert text(c.select_one(".launch-box .badge")) == "unsupported"
    lonely = page(small / "arms" / "lonely.html")
    assert "not listed in any section" in text(lonely.select_one(".arm-facts"))
    assert lonely.select_one(".eyebrow a")["href"] == "../index.html#what-actually-ran"
