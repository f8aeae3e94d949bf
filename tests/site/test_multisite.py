"""A folder whose subfolders each hold a report.yaml builds a multi-report site."""

from __future__ import annotations

import shutil

from support.common import EXAMPLE, build, page, summary_rows, text


def _two_reports(tmp_path):
    root = tmp_path / "reports"
    for name, title in (("nov2", "November 2 trials"), ("nov3", "November 3 tuning")):
        shutil.copytree(EXAMPLE, root / name)
        report = root / name / "report.yaml"
        report.write_text(report.read_text().replace('title: "Same model. Different engines."', f'title: "{title}"'))
    return root


def test_index_lists_every_report_and_each_report_is_complete(tmp_path):
    root = _two_reports(tmp_path)
    result = build(root, tmp_path / "site")
    assert result.exit_code == 0, result.output
    index = page(tmp_path / "site/index.html")
    links = [(a.get_text(), a["href"]) for a in index.select(".report-list h2 a")]
    assert links == [("November 2 trials", "nov2/index.html"), ("November 3 tuning", "nov3/index.html")]
    assert "25 records (22 ok, 1 failed, 2 unsupported)" in text(index.select_one(".report-list li"))
    for name in ("nov2", "nov3"):
        report = page(tmp_path / "site" / name / "index.html")
        assert len(summary_rows(report)) == 10
        for part in ("runs.html", "arms/v100-pxa4-control.html", "assets/vega.js", "downloads/records.csv"):
            assert (tmp_path / "site" / name / part).is_file()
    assert "nov2/arms/v100-expxa0982-overdrive.yaml:32: warning: claim 'Overdrive'" in result.output


def test_problems_of_every_report_are_reported_together_with_their_folder(tmp_path):
    root = _two_reports(tmp_path)
    (root / "nov2" / "report.yaml").write_text("title: [broken\n")
    csv = root / "nov3" / "runs" / "nov3-tuning.csv"
    csv.write_text(csv.read_text().replace(",unsupported,", ",unsuported,", 1))
    result = build(root, tmp_path / "site")
    assert result.exit_code == 1
    assert "nov2/report.yaml:2: YAML syntax error" in result.output
    assert "nov3/runs/nov3-tuning.csv:2: status 'unsuported' is not one of" in result.output
    assert "2 errors" in result.output and not (tmp_path / "site").exists()
