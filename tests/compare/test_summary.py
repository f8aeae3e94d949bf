"""benchproof summary: one report as Markdown — the decision, the summary table with ratios and
states, the findings, a link to the receipts — with the caveats kept."""

from __future__ import annotations

import hashlib

import markdown
from bs4 import BeautifulSoup
from click.testing import CliRunner

from benchproof.cli import main
from support.common import EXAMPLE, SMALL_ARMS, SMALL_REPORT, write_project

BUNDLE = "same-model-different-engines-evidence.zip"


def summary(*args):
    return CliRunner().invoke(main, ["summary", *map(str, args)])


def rows(text: str, heading: str) -> list[list[str]]:
    """The body rows of the first table after ``heading``, as the rendered cells' texts."""
    html = BeautifulSoup(markdown.markdown(text, extensions=["tables"]), "html.parser")
    title = next(h for h in html.find_all(["h2", "h3"]) if h.get_text().startswith(heading))
    table = title.find_next("table")
    return [[td.get_text() for td in tr.find_all("td")] for tr in table.find("tbody").find_all("tr")]


def test_a_site_summary_has_the_table_with_ratios_states_and_markers(example_site):
    result = summary(example_site, "--format", "markdown")
    assert result.exit_code == 0, result.output
    found = rows(result.stdout, "November 3 tuning")
    assert len(found) == 30  # every arm × point × metric, unsupported ones included
    parallel = next(
        r
        for r in found
        if r[0] == "V100 · expXa0982 · parallel preparation"
        and r[1] == "Input tokens 512"
        and r[2].startswith("Prefill")
    )
    assert parallel[3:6] == ["203.97 (199.39–207.86)", "1.13× 13% better", "better"]
    noisy = next(r for r in found if r[0] == "V100 · PXA4 · tuning control" and r[2].startswith("Prefill"))
    assert noisy[5] == "baseline" and "⚠ noisy" in noisy[6]
    few = next(r for r in found if r[0].startswith("V100 · expXa a078"))
    assert few[3].endswith("n=2") and few[5] == "too-few" and "✓ few-repetitions" in few[6]
    unsupported = [r for r in found if r[3] == "-- unsupported"]
    assert len(unsupported) == 6 and all(r[5] == "--" for r in unsupported)
    # the section's result in words above its table: the comparison it is about, within noise at 4096
    assert (
        "V100 · expXa0982 · parallel preparation against V100 · expXa0982 · old-preparation ablation (and 3 more "
        "arms in the table): **Prefill t/s** 7% better at Input tokens 512, 6% better at Input tokens 4096 "
        "(within noise);"
    ) in result.stdout


def test_the_findings_and_the_caveats_are_kept(example_site):
    text = summary(example_site).stdout
    assert "**Before you quote these numbers** (" in text
    assert "- `noisy` V100 · PXA4 · tuning control: repetitions spread over more than 10% of the median" in text
    assert "accepted: By design" in text
    assert "`--` means not measured, never zero; failed and unsupported arms stay listed" in text
    assert "Noise threshold: 3% (audit.noise_threshold)" in text


def test_the_receipts_link_is_the_site_s_bundle_with_its_checksum(example_site):
    text = summary(example_site).stdout
    digest = hashlib.sha256((example_site / f"downloads/{BUNDLE}").read_bytes()).hexdigest()
    assert f"**Receipts:** [{BUNDLE.replace('-', '-')}](downloads/{BUNDLE}) (SHA-256 `{digest}`)" in text
    assert "`benchproof verify` on the site, or on this zip alone" in text
    text = summary(example_site, "--url", "https://bench.example.org/nov3/").stdout
    assert f"(https://bench.example.org/nov3/downloads/{BUNDLE})" in text


def test_the_decision_with_its_claims_and_re_run_bar(rejected_site):
    text = summary(rejected_site).stdout
    assert (
        "**Decision.** Replace the incumbent engine on the M3 Ultra with the candidate? — **No, for this workload.** (Rejected)"
        in text
    )
    assert (
        "- ✗ **fails**: The candidate's decode is within 10% of the incumbent's — expects &gt;= 0.9; Decode t/s · Prompt tokens 26015: 0.68×"
        in text
    )
    assert "- ? **cannot be checked**: The released 0.5.22 binary" in text
    assert (
        "- Decode t/s of Incumbent server · MTP head · Prompt tokens 26015: 28.00–34.00 tok/s; now 31.00 tok/s (**inside**)"
        in text
    )


def test_a_project_summary_says_the_receipts_are_not_published_yet():
    result = summary(EXAMPLE)
    assert result.exit_code == 0
    assert f"**Receipts:** not published yet: `benchproof build` of {EXAMPLE}".replace("_", "\\_") in result.stdout


def test_labels_cannot_inject_markdown_or_html(tmp_path):
    arms = {**SMALL_ARMS, "a": 'label: "A | <img src=x onerror=alert(1)> [link](javascript:x)"\n'}
    project = write_project(
        tmp_path / "p",
        SMALL_REPORT,
        arms,
        {
            "r.csv": """\
        arm,status,repeat,size,tok_s,wall_s
        a,ok,1,1,10,1
        b,ok,1,1,12,1
        c,unsupported,1,1,,
        """
        },
    )
    result = summary(project)
    assert result.exit_code == 0, result.output
    html = markdown.markdown(result.stdout, extensions=["tables"])
    soup = BeautifulSoup(html, "html.parser")
    assert not soup.find("img") and not soup.find("a", href="javascript:x")
    assert "A | <img src=x onerror=alert(1)> [link](javascript:x)" in soup.get_text()


def test_what_is_not_a_project_or_a_site_is_exit_2(tmp_path, example_site):
    result = summary(example_site / f"downloads/{BUNDLE}")
    assert result.exit_code == 2 and "summary takes a project or a built site" in result.stderr
    assert summary(tmp_path / "missing").exit_code == 2
