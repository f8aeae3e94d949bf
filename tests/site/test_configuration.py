"""03 / What actually ran: the arms side by side, differences flagged, requested vs verified."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchproof.pages.configuration import flatten, plain, section_table, what_ran
from benchproof.read.project import load_project
from support.common import EXAMPLE, SMALL_REPORT, build, page, text, write_project

SECTION_ARMS = [  # data/example/report.yaml, section nov3-tuning, in order
    "v100-expxa0982-parallel",
    "v100-expxa0982-oldprep",
    "v100-pxa4-control",
    "v100-expxa-a078-reference",
    "v100-expxa0982-overdrive",
]
OVERDRIVE = SECTION_ARMS.index("v100-expxa0982-overdrive")


@pytest.fixture(scope="module")
def ran(example_site):
    return page(example_site / "index.html").select_one("section.ran")


def row_key(tr) -> str:
    """The row's key as written in its first cell, without the differs marker."""
    return text(tr.select_one("th.config-key")).replace("≠ differs", "").strip()


def rows(table, group: str | None = None) -> dict[str, object]:
    """key → <tr>, optionally only within the tbody whose group title starts with ``group``."""
    found = {}
    for tbody in table.select("tbody"):
        title = text(tbody.select_one("tr.group"))
        if group and not title.startswith(group):
            continue
        for tr in tbody.select("tr:not(.group)"):
            found.setdefault(row_key(tr), tr)
    return found


def cells(tr) -> list:
    return tr.find_all("td")


def resolves(site: Path, href: str, base: str = "") -> bool:
    return (site / base / href.split("#")[0]).resolve().is_file()


# ---------------------------------------------------------------- the example's 03 section


def test_section_heading_kicker_and_the_honesty_sentence(ran):
    heading = ran.select_one("h2#what-actually-ran")
    assert heading is not None and "03" in text(heading) and "What actually ran" in text(heading)
    assert text(ran.select_one(".kicker")) == "Compatibility & configuration"
    intro = text(ran.select_one(".ran-intro"))
    assert "launch status is part of the result" in intro
    assert "not proof that it ran" in intro


def test_one_table_with_the_five_arms_as_columns_in_section_order(ran, example_site):
    tables = ran.select("table.config-table")
    assert len(tables) == 1 and tables[0]["data-section"] == "nov3-tuning"
    headers = tables[0].select("thead th.arm-col")
    assert [th["data-arm"] for th in headers] == SECTION_ARMS
    assert [th["id"] for th in headers] == [f"arm-{a}" for a in SECTION_ARMS]
    for th, arm_id in zip(headers, SECTION_ARMS):
        href = th.select_one("a")["href"]
        assert href == f"arms/{arm_id}.html"
        assert resolves(example_site, href)
    assert "forced Overdrive" in text(headers[OVERDRIVE])
    # every row has one value per arm
    for tr in tables[0].select("tbody tr:not(.group)"):
        assert len(cells(tr)) == 5


def test_settings_that_differ_are_flagged_with_a_class_and_a_visible_marker(ran):
    settings = rows(ran.select_one("table.config-table"), "Settings")
    prep = settings["activation_prep"]
    assert "differs" in prep["class"]
    assert "≠ differs" in text(prep.select_one("th"))  # a word, not colour alone
    assert "parallel" in text(cells(prep)[0]) and "old" in text(cells(prep)[1])
    assert "differs" in settings["overdrive"]["class"]
    for same in ("ctx", "kv_type", "threads", "offload"):
        tr = settings[same]
        assert "differs" not in tr["class"], same
        assert "differs" not in text(tr)
    assert [text(td) for td in cells(settings["ctx"])] == ["8192"] * 5
    hardware = rows(ran.select_one("table.config-table"), "Hardware")
    assert "differs" not in hardware["gpu"]["class"]
    summary = text(ran.select_one(".config-summary"))
    assert "settings.activation_prep" in summary and "settings.ctx" not in summary


def test_engine_rows_show_name_version_commit_and_binary_hash(ran):
    engine = rows(ran.select_one("table.config-table"), "Engine")
    assert list(engine) == ["engine name", "version", "commit", "binary sha256"]
    assert [text(td) for td in cells(engine["engine name"])] == ["expXa", "expXa", "PXA4", "expXa", "expXa"]
    assert text(cells(engine["commit"])[2]) == "d55e11a7deeaa50164fa362b10386e1551697a0f"
    assert "differs" in engine["binary sha256"]["class"]


def test_overdrive_launch_is_unsupported_with_reason_and_evidence(ran, example_site):
    launch = rows(ran.select_one("table.config-table"), "Launch")["launch status"]
    cell = cells(launch)[OVERDRIVE]
    assert text(cell.select_one(".badge")) == "unsupported"
    assert "no Overdrive recipe" in text(cell.select_one(".reason"))
    link = cell.select_one("a.evidence")
    assert link["href"] == "evidence/v100-expxa0982-overdrive/launch.log"
    assert resolves(example_site, link["href"])
    assert text(cells(launch)[0].select_one(".badge")) == "launched"
    assert "differs" in launch["class"]


def test_overdrive_claim_requested_but_verified_no_with_working_evidence(ran, example_site):
    table = ran.select_one("table.config-table")
    claim = rows(table, "Claim Overdrive")
    assert set(claim) == {"requested", "verified"}
    assert text(cells(claim["requested"])[OVERDRIVE]) == "EXPXA_OVERDRIVE=1"
    verified = cells(claim["verified"])[OVERDRIVE]
    assert text(verified.select_one(".verified")) == "NO"
    assert "verified-no" in verified.select_one(".verified")["class"]
    href = verified.select_one("a.evidence")["href"]
    assert href == "evidence/v100-expxa0982-overdrive/activation-probe.txt"
    assert resolves(example_site, href)
    assert "activation" in (example_site / href).read_text(encoding="utf-8").lower()
    # the other arms make no such claim: not stated, shown as --
    assert [text(td) for i, td in enumerate(cells(claim["requested"])) if i != OVERDRIVE] == ["--"] * 4


def test_every_claim_link_resolves_and_unknown_is_not_yes(ran, example_site):
    table = ran.select_one("table.config-table")
    links = [a["href"] for a in table.select("a.evidence")]
    assert len(links) == 5 + 7  # five launch logs, seven claims
    assert all(resolves(example_site, h) for h in links)
    idle = rows(table, "Claim Production host idle")["verified"]
    assert text(cells(idle)[SECTION_ARMS.index("v100-pxa4-control")].select_one(".verified")) == "unknown"


def test_the_example_is_like_for_like_throughout(ran):
    subject = rows(ran.select_one("table.config-table"), "Subject")["subject"]
    assert [text(td) for td in cells(subject)] == ["same as the report"] * 5
    assert "not like-for-like" not in text(ran)


def test_commands_are_shown_verbatim(ran):
    command = rows(ran.select_one("table.config-table"), "Command")["command"]
    pre = cells(command)[OVERDRIVE].select_one("pre")
    assert "EXPXA_OVERDRIVE=1 /opt/bench/expxa-0982fd3/bin/expxa-probe activation" in pre.get_text()
    assert len(pre.select("code")) == 2


# ---------------------------------------------------------------- the pure functions


def test_plain_and_flatten():
    assert plain(True) == "true" and plain(False) == "false"
    assert plain([1, "a", True]) == "1, a, true"
    assert plain(None) == "--" and plain(0) == "0"
    assert list(flatten({"a": {"b": 1, "c": {"d": [1, 2]}}, "e": "x"})) == [("a.b", 1), ("a.c.d", [1, 2]), ("e", "x")]


def test_the_example_tables_as_data():
    project = load_project(EXAMPLE, strict=False)
    (table,) = what_ran(project)
    assert [c.id for c in table.columns] == SECTION_ARMS
    assert table.n_differs < table.n_rows
    settings = next(g for g in table.groups if g.title == "Settings")
    assert [r.key for r in settings.rows if r.differs] == ["activation_prep", "cpu_expert_port", "overdrive"]
    assert section_table(project, project.report.sections[0]) == table


REPORT = """\
    title: Config
    subject: {name: M, quantization: Q4_K_M}
    metrics:
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer}
    dimensions: [{id: size, label: Size}]
    sections:
      - {id: one, title: First, arms: [a, b]}
      - {id: two, title: Second, arms: [b, c]}
    """
ARMS = {
    "a": """\
        label: Arm A
        subject: {quantization: Q4_K_M}
        hardware: {gpu: X1, memory: {total: 32, kind: HBM2}}
        settings: {threads: 8, flags: [a, b], fast: true}
        """,
    "b": """\
        label: Arm B
        subject: {quantization: Q8_0}
        hardware: {gpu: X1, memory: {total: 32}}
        settings: {threads: 8, flags: [a, b], fast: false, only_b: 1}
        """,
    "c": "label: Arm C\nlaunch: {status: failed, reason: out of memory}\n",
}
RUNS = {
    "r.csv": "arm,section,status,repeat,size,tok_s,reason\na,one,ok,1,1,5,\nb,one,ok,1,1,6,\n"
    "b,two,ok,1,1,6,\nc,two,failed,1,1,,out of memory\n"
}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("config")
    project = write_project(tmp / "p", REPORT, ARMS, RUNS)
    result = build(project, tmp / "out")
    assert result.exit_code == 0, result.output
    return page(tmp / "out" / "index.html")


def test_one_table_per_section_and_unique_anchors(small):
    tables = small.select("section.ran table.config-table")
    assert [t["data-section"] for t in tables] == ["one", "two"]
    ids = [th["id"] for th in small.select("th.arm-col")]
    assert ids == ["arm-a", "arm-b", "arm-two-b", "arm-c"]
    assert len(set(ids)) == len(ids)
    assert [th.select_one("a")["href"] for th in small.select("th.arm-col")] == [
        "arms/a.html",
        "arms/b.html",
        "arms/b.html",
        "arms/c.html",
    ]


def test_a_different_subject_is_marked_not_like_for_like(small):
    first = small.select("table.config-table")[0]
    headers = first.select("th.arm-col")
    assert "not like-for-like" not in text(headers[0])  # states the report's own quantization
    assert "not like-for-like" in text(headers[1])
    subject = rows(first, "Subject")["subject"]
    assert text(cells(subject)[0]) == "same as the report"
    assert "not like-for-like" in text(cells(subject)[1]) and "Q8_0" in text(cells(subject)[1])
    assert "differs" in subject["class"]


def test_nested_keys_flatten_and_a_missing_key_differs_and_shows_dashes(small):
    first = small.select("table.config-table")[0]
    hardware, settings = rows(first, "Hardware"), rows(first, "Settings")
    assert list(hardware) == ["gpu", "memory.total", "memory.kind"]
    assert "differs" not in hardware["memory.total"]["class"]
    kind = hardware["memory.kind"]
    assert "differs" in kind["class"] and [text(td) for td in cells(kind)] == ["HBM2", "--"]
    assert "missing" in cells(kind)[1]["class"]
    assert [text(td) for td in cells(settings["flags"])] == ["a, b", "a, b"]
    assert "differs" not in settings["flags"]["class"]
    assert [text(td) for td in cells(settings["fast"])] == ["true", "false"]
    assert "differs" in settings["only_b"]["class"]


def test_an_arm_without_configuration_shows_dashes_and_its_failed_launch(small):
    second = small.select("table.config-table")[1]
    gpu = rows(second, "Hardware")["gpu"]
    assert [text(td) for td in cells(gpu)] == ["X1", "--"]
    launch = rows(second, "Launch")["launch status"]
    assert text(cells(launch)[1].select_one(".badge")) == "failed"
    assert text(cells(launch)[1].select_one(".reason")) == "out of memory"
    # b states no launch: no badge and no word "launched" that its file never said
    assert text(cells(launch)[0]) == "--" and not cells(launch)[0].select(".badge")
    assert [text(b) for b in second.select("th.arm-col .badge")] == ["failed"]
    # no arm of the report names its engine: no Engine rows of dashes
    assert rows(second, "Engine") == {} and rows(small.select("table.config-table")[0], "Engine") == {}


def test_a_report_where_no_arm_declares_a_launch_never_says_launched(small):
    first = small.select("table.config-table")[0]
    assert rows(first, "Launch") == {} and not first.select("th.arm-col .badge")


def test_hostile_strings_in_configuration_are_escaped(tmp_path):
    evil = '"<script>alert(1)</script><img src=x onerror=alert(2)>"'
    arms = {
        "a": f"label: {evil}\nsettings:\n  {evil}: {evil}\ncommand: [{evil}]\n"
        f"claims:\n  - {{name: {evil}, requested: {evil}, verified: unknown}}\n"
        f"launch: {{status: failed, reason: {evil}}}\n",
        "b": "label: B\n",
        "c": "label: C\n",
    }
    project = write_project(
        tmp_path / "p", SMALL_REPORT, arms, {"r.csv": "arm,status,repeat,size,tok_s,wall_s\na,ok,1,1,1,1\n"}
    )
    result = build(project, tmp_path / "out")
    assert result.exit_code == 0, result.output
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<img src=x" not in html
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 6  # label, key, value, command, claim, reason
    soup = page(tmp_path / "out" / "index.html")
    settings = rows(soup.select_one("table.config-table"), "Settings")
    assert "<script>alert(1)</script><img src=x onerror=alert(2)>" in settings
