"""The generated second project (tests/support/second_project.py), built once per session, checked
against figures computed here with the ``statistics`` module: the summary tables, the charts
and their static SVGs, the raw table, records.csv, records.jsonl and results.json."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
import statistics
import time
import zipfile
from collections import Counter

import pytest

from benchproof.compute.separation import separation
from benchproof.text import ratio_words as ratio_direction
from support.common import assert_size, dot_labels, page, strict_json, summary_rows, text
from support.second_project import (
    BATCHES,
    BUNDLE,
    CROWDED,
    CROWDED_OK,
    DECIMALS,
    LABELS,
    METRICS,
    PROTOCOL,
    SECTIONS,
    TITLE,
)

STATUS_ORDER = ("ok", "failed", "interrupted", "unsupported", "excluded")
UNITS = {"tok_s": "tok/s", "lat_ms": "ms"}
BETTER = {"tok_s": "higher", "lat_ms": "lower"}
# the cells without a figure, and the status in words they must show
NO_FIGURE = {
    ("alpha", "alpha-flaky", 16): "interrupted 1/2, excluded 1/2",
    ("beta", "beta-gone", 2): "unsupported",
    ("beta", "beta-gone", 16): "unsupported",
    ("beta", "beta-crash", 2): "failed to launch",
    ("beta", "beta-crash", 16): "failed to launch",
}


def number(value: float) -> str:
    return f"{value:,.{DECIMALS}f}"  # thousands separated, as text.number writes it


def expected_status(second, section: str, arm: str, batch: int) -> str:
    """What happened to an arm's attempts at a point, in the words the page and results.json use."""
    counts = Counter(r.fields["status"] for r in second.group(section, arm, batch))
    if not counts:
        return NO_FIGURE[(section, arm, batch)]
    if set(counts) == {"ok"}:
        return "ok"
    if set(counts) == {"unsupported"}:
        return "unsupported"
    return ", ".join(f"{s} {counts[s]}/{counts.total()}" for s in STATUS_ORDER[1:] if counts[s])


def expected_cell(second, section: str, arm: str, batch: int, metric: str) -> str:
    values = second.ok_values(section, arm, batch, metric)
    if not values:
        return f"-- {NO_FIGURE[(section, arm, batch)]}"
    median = statistics.median(values)
    cell = number(median) if len(values) == 1 else f"{number(median)} ({number(min(values))}–{number(max(values))})"
    if len(values) < 3:
        cell += f" n={len(values)}"
    if len(values) >= 11:  # from eleven repetitions: the quartiles and p5–p95 (linear, as numpy's default)
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        twentieths = statistics.quantiles(values, n=20, method="inclusive")
        cell += f" IQR {number(q1)}–{number(q3)} · p5–p95 {number(twentieths[0])}–{number(twentieths[-1])}"
        beyond = sum(1 for v in values if v < q1 - 1.5 * (q3 - q1) or v > q3 + 1.5 * (q3 - q1))
        cell += f" · {beyond} outlier{'s' if beyond != 1 else ''} (Tukey)" if beyond else ""
    base = second.ok_values(section, SECTIONS[section][2], batch, metric)
    ratio = median / statistics.median(base)
    shown = f"{ratio:.2f}×"
    words = "" if arm == SECTIONS[section][2] else ratio_direction(ratio, BETTER[metric])
    words = words.removeprefix(shown + " ")  # "3.05× · better", not "3.05× 3.05× better"
    if words:  # the separation's state (compute/separation, checked against scipy in tests/audit/)
        state = separation(base, values, 0.10).state
        words += {"within-noise": ", within noise", "too-few": ", too few repetitions to tell"}.get(state, "")
    return f"{cell} {shown}" + (f" {words}" if words else "")


@pytest.fixture(scope="module")
def soup(second_site):
    return page(second_site / "index.html")


@pytest.fixture(scope="module")
def views(soup) -> list[dict]:
    return strict_json(soup.select_one("script#chart-views").string)["views"]


def test_the_project_has_what_the_example_lacks(second):
    """Guards the generator: the properties the tests below rely on."""
    files = {r.file for r in second.records}
    assert files == {"runs/alpha.csv", "runs/alpha-fast.jsonl", "runs/beta.json"}
    statuses = Counter(r.fields["status"] for r in second.records)
    assert statuses["excluded"] >= 3 and statuses["interrupted"] >= 3
    assert len(second.ok_values(*CROWDED, "tok_s")) == CROWDED_OK > 200
    for section, arm, batch in {(r.fields["section"], r.fields["arm"], r.fields["batch"]) for r in second.records}:
        counted = second.ok_values(section, arm, batch, "tok_s")
        everything = [r.value("tok_s") for r in second.group(section, arm, batch) if r.value("tok_s") is not None]
        if counted and len(everything) > len(counted):  # the records not ok would move the figure
            assert statistics.median(everything) != statistics.median(counted) or (
                min(everything),
                max(everything),
            ) != (min(counted), max(counted)), (section, arm, batch)


def test_summary_tables_match_an_independent_computation(second, soup):
    for section, (_, arms, _) in SECTIONS.items():
        expected = []
        for batch in BATCHES:  # grouped by point (the default group_by)
            for arm in arms:
                counts = Counter(r.fields["status"] for r in second.group(section, arm, batch))
                runs = (
                    " · ".join(f"{counts[s]} {s}" for s in STATUS_ORDER if counts[s])
                    or NO_FIGURE[(section, arm, batch)]
                )
                expected.append(
                    [LABELS[arm], str(batch), runs, *(expected_cell(second, section, arm, batch, m) for m in METRICS)]
                )
        assert summary_rows(soup, section, flags=False) == expected  # the audit's markers: tests/audit/
        statuses = [tr["data-status"] for tr in soup.select(f'table.summary[data-section="{section}"] tbody tr')]
        assert statuses == [expected_status(second, section, arm, batch) for batch in BATCHES for arm in arms]


def test_results_json_matches_an_independent_computation(second, second_site):
    data = strict_json((second_site / "downloads/results.json").read_text(encoding="utf-8"))
    assert (data["format"], data["format_version"], data["title"]) == ("benchproof-results", 2, TITLE)
    assert data["generator"].startswith("benchproof ") and data["dimensions"] == ["batch"]
    assert data["metrics"] == [
        {
            "id": "tok_s",
            "label": "Throughput",
            "unit": "tok/s",
            "better": "higher",
            "decimals": DECIMALS,
            "source": "engine counter",
            "derive": None,
            "derive_fields": [],
        },
        {
            "id": "lat_ms",
            "label": "Latency",
            "unit": "ms",
            "better": "lower",
            "decimals": DECIMALS,
            "source": "client wall time (µs)",
            "derive": "wall_us / 1000",
            "derive_fields": ["wall_us"],
        },
    ]
    assert data["records"] == len(second.records)
    assert data["baselines"] == {sid: baseline for sid, (_, _, baseline) in SECTIONS.items()}
    rows = {(r["section"], r["arm"], r["point"]["batch"]): r for r in data["rows"]}
    assert len(rows) == len(data["rows"]) == sum(len(arms) for _, arms, _ in SECTIONS.values()) * len(BATCHES)
    for (section, arm, batch), row in rows.items():
        group = second.group(section, arm, batch)
        assert row["counts"] == dict(Counter(r.fields["status"] for r in group))
        assert row["status"] == expected_status(second, section, arm, batch)
        for metric in METRICS:
            stat = row["metrics"][metric]
            values = second.ok_values(section, arm, batch, metric)
            base = second.ok_values(section, SECTIONS[section][2], batch, metric)
            assert (stat["n_ok"], stat["n_total"]) == (len(values), len(group)), (section, arm, batch, metric)
            if values:
                median = statistics.median(values)
                assert stat["median"] == pytest.approx(median, rel=1e-12)
                assert (stat["min"], stat["max"]) == (min(values), max(values))
                assert stat["ratio"] == pytest.approx(median / statistics.median(base), rel=1e-12)
            else:
                assert stat["median"] is stat["min"] is stat["max"] is stat["ratio"] is None
            ok = any(r.fields["status"] == "ok" for r in group)
            assert stat["status"] == (
                "not measured" if ok and not values else expected_status(second, section, arm, batch)
            )


def test_records_csv_and_jsonl_hold_every_record_in_file_order(second, second_site):
    csv_rows = list(csv.DictReader(io.StringIO((second_site / "downloads/records.csv").read_text(encoding="utf-8"))))
    lines = (second_site / "downloads/records.jsonl").read_text(encoding="utf-8").splitlines()
    jsonl_rows = [strict_json(line) for line in lines]
    assert len(csv_rows) == len(jsonl_rows) == len(second.records)
    for record, row, raw in zip(second.records, csv_rows, jsonl_rows):
        assert row["run_id"] == raw["run_id"] == record.run_id
        assert row["source"] == raw["source"] == f"{record.file}:{record.line}"
        assert row["status"] == raw["status"] == record.fields["status"]
        assert row["section"] == raw["section"] == record.fields["section"]
        assert (row["arm"], row["repeat"], row["batch"]) == (
            record.fields["arm"],
            str(record.fields["repeat"]),
            str(record.fields["batch"]),
        )
        assert (raw["arm"], raw["repeat"], raw["batch"]) == (
            record.fields["arm"],
            record.fields["repeat"],
            record.fields["batch"],
        )
        reported = record.fields.get("lat_ms")  # the figure the record itself gave, beside the derived one
        assert raw["lat_ms_reported"] == reported and row["lat_ms_reported"] == (
            "" if reported is None else str(reported)
        )
        assert raw["note"] == record.fields.get("note") and row["note"] == record.fields.get("note", "")
        for metric in METRICS:
            value = record.value(metric)
            assert raw[metric] == (None if value is None else pytest.approx(value, rel=1e-12)), (record.run_id, metric)
            if value is None:
                assert row[metric] == "", (record.run_id, metric)
            else:
                assert float(row[metric]) == pytest.approx(value, rel=1e-12), (record.run_id, metric)


def test_downloads_are_utf8_text_not_escapes(second_site):
    for name in ("records.csv", "records.jsonl"):
        assert "cold start · µs timer" in (second_site / "downloads" / name).read_bytes().decode("utf-8"), name
    assert '"source": "client wall time (µs)"' in (second_site / "downloads/results.json").read_bytes().decode("utf-8")


def test_raw_table_shows_each_value_and_dashes_only_for_not_measured(second, soup):
    headers = [th.get_text() for th in soup.select("table.raw-table thead th")]
    rows = soup.select("table.raw-table tbody tr")
    assert len(rows) == len(second.records)
    for record, tr in zip(second.records, rows):
        cells = dict(zip(headers, (td.get_text() for td in tr.select("td"))))
        assert (cells["Run"], cells["Status"], cells["Source"]) == (
            record.run_id,
            record.fields["status"],
            f"{record.file}:{record.line}",
        )
        for metric, header in (("tok_s", "Throughput"), ("lat_ms", "Latency (derived)")):
            value = record.value(metric)
            assert cells[header] == ("--" if value is None else number(value)), (record.run_id, metric)
        reported = record.fields.get("lat_ms")
        assert cells["Latency (reported)"] == ("--" if reported is None else repr(reported)), record.run_id


def test_chart_bars_are_medians_of_ok_records_and_dots_are_ok_repetitions(second, views):
    assert len(views) == len(SECTIONS) * len(METRICS) * len(BATCHES)
    by_run = {r.run_id: r for r in second.records}
    for view in views:
        section, metric, batch = view["section"], view["metric"], int(view["point"]["batch"])
        data = view["spec"]["datasets"]
        label_to_arm = {LABELS[a]: a for a in SECTIONS[section][1]}
        bars = {label_to_arm[b["arm"]]: b for b in data["bars"]}
        missing = {label_to_arm[m["arm"]]: m["text"] for m in data.get("missing", [])}  # empty sets are left out
        for arm in SECTIONS[section][1]:
            values = second.ok_values(section, arm, batch, metric)
            if not values:
                assert missing[arm] == f"-- {NO_FIGURE[(section, arm, batch)]}" and arm not in bars
                continue
            assert bars[arm]["median"] == pytest.approx(statistics.median(values), rel=1e-12)
            assert bars[arm]["n"] == str(len(values))
            dots = [d for d in data.get("dots", []) if d["arm"] == LABELS[arm]]
            ok_runs = {
                r.run_id
                for r in second.group(section, arm, batch)
                if r.fields["status"] == "ok" and r.value(metric) is not None
            }
            if (section, arm, batch) == CROWDED:
                assert len(dots) == 200 and {d["value"] for d in dots} >= {min(values), max(values)}
            else:
                assert len(dots) == len(values)
            assert {d["run"] for d in dots} <= ok_runs
            for dot in dots:
                record = by_run[dot["run"]]
                assert "status" not in dot  # always ok: said once by the layer (its tooltip: the SVG test below)
                assert dot["repeat"] == str(record.fields["repeat"])
                assert dot["value"] == pytest.approx(record.value(metric), rel=1e-12)
                assert dot["shown"] == f"{number(record.value(metric))} {UNITS[metric]}"
        crowded = (section, batch) == CROWDED[::2]
        shown = sum(min(200, len(second.ok_values(section, a, batch, metric))) for a in SECTIONS[section][1])
        total = sum(len(second.ok_values(section, a, batch, metric)) for a in SECTIONS[section][1])
        subtitle = " · ".join(view["spec"]["title"]["subtitle"])  # [the point, the legend line]
        assert (f"showing {shown} of {total} repetitions" in subtitle) == crowded, subtitle


def test_every_chart_view_has_its_own_static_svg_and_png(second, second_site, soup, views):
    by_run = {r.run_id: r for r in second.records}
    listed = {a["href"] for a in soup.select("details.static-charts a")}
    assert listed == {f"charts/{v['key']}.{kind}" for v in views for kind in ("svg", "png")}
    contents = set()
    for view in views:
        svg = (second_site / "charts" / f"{view['key']}.svg").read_text(encoding="utf-8")
        contents.add(svg)
        assert svg.startswith('<svg role="img"') and html.escape(view["spec"]["title"]["text"], quote=False) in svg
        assert f"<desc>{html.escape(view['spec']['description'], quote=False)}</desc>" in svg  # the view in words
        png = (second_site / "charts" / f"{view['key']}.png").read_bytes()  # for slides: twice the SVG's width
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(png[16:20], "big") == 2 * int(re.search(r'<svg[^>]* width="(\d+)"', svg).group(1))
        dots = dot_labels(svg)
        assert len(dots) == len(view["spec"]["datasets"]["dots"]) > 0
        for dot in dots:  # what a tooltip says, and a screen reader reads, about each dot
            record = by_run[dot["Run"]]
            assert dot["Status"] == record.fields["status"] == "ok"
            assert dot["Repetition"] == str(record.fields["repeat"])
            assert dot["Value"] == f"{number(record.value(view['metric']))} {UNITS[view['metric']]}"
    assert len(contents) == len(views)
    for img in soup.select(".chart-canvas img"):  # what a reader without JavaScript sees
        assert (second_site / img["src"]).is_file()


def test_the_protocol_body_and_section_notes_are_on_the_page(soup):
    assert PROTOCOL in text(soup.select_one("#protocol").find_parent("section"))
    assert "The alpha rig sweeps the batch size." in text(soup.select_one("#section-alpha .narrative"))
    assert "The beta rig tries the new build." in text(soup.select_one("#section-beta .narrative"))


def test_05_evidence_lists_each_download_and_evidence_file_with_its_size_and_sha256(second, second_site, soup):
    rows = soup.select("table.downloads tbody tr")
    assert [tr.select_one("a").get_text() for tr in rows] == [
        "records.csv",
        "records.jsonl",
        "results.json",
        f"{BUNDLE}.zip",
    ]
    for tr in rows:
        data = (second_site / tr.select_one("a")["href"]).read_bytes()
        assert tr.select_one("td.sha").get_text(strip=True) == hashlib.sha256(data).hexdigest()
        assert_size(tr.select_one("td.num").get_text(), len(data))
    holds = [tr.select("td")[1].get_text() for tr in rows]
    assert holds[0].startswith("every record, failed and excluded ones included")
    assert holds[2].startswith("the aggregates: n_ok, n_total, median")
    assert holds[3].startswith("everything this report was built from") and "PROVENANCE.json and SHA256SUMS" in holds[3]
    inputs = [p for p in second.root.rglob("*") if p.is_file()]
    built = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(max(int(p.stat().st_mtime) for p in inputs)))
    assert text(soup.select_one(".receipts p.note")).startswith(
        f"Build time used: {built} (the newest input file's modification time). {len(inputs)} input files"
    )
    files = {
        li.select_one("a").get_text(): li.select_one(".size").get_text() for li in soup.select(".evidence-files li")
    }
    assert sorted(files) == ["evidence/alpha-base/throttle.log", "evidence/alpha-fast/server.log"]
    for path, size in files.items():
        assert (second_site / path).read_bytes() == (second.root / path).read_bytes()
        assert_size(size, (second.root / path).stat().st_size)


def test_the_bundle_holds_every_input_and_download_with_checksums(second, second_site):
    with zipfile.ZipFile(second_site / "downloads" / f"{BUNDLE}.zip") as archive:
        infos = archive.infolist()
        files = {i.filename.removeprefix(f"{BUNDLE}/"): archive.read(i) for i in infos}
    names = [i.filename for i in infos]
    assert names == sorted(names) and all(n.startswith(f"{BUNDLE}/") for n in names)
    assert {i.external_attr >> 16 for i in infos} == {0o100644}
    inputs = {p.relative_to(second.root).as_posix(): p for p in second.root.rglob("*") if p.is_file()}
    newest = max(int(p.stat().st_mtime) for p in inputs.values())
    stamp = time.gmtime(newest)[:6]
    assert {i.date_time for i in infos} == {(*stamp[:5], stamp[5] // 2 * 2)}  # zip keeps even seconds
    for path, source in inputs.items():
        assert files[path] == source.read_bytes(), path
    for name in ("records.csv", "records.jsonl", "results.json"):
        assert files[name] == (second_site / "downloads" / name).read_bytes()
    sums = {line.split("  ", 1)[1]: line.split("  ", 1)[0] for line in files["SHA256SUMS"].decode().splitlines()}
    assert sorted(sums) == sorted(set(files) - {"SHA256SUMS"})
    assert all(hashlib.sha256(files[path]).hexdigest() == digest for path, digest in sums.items())
    provenance = json.loads(files["PROVENANCE.json"])
    assert provenance["records"] == len(second.records)
    assert provenance["generator"].startswith("benchproof ")
    assert provenance["build_time_source"] == "the newest input file's modification time"
    assert provenance["build_time_epoch"] == newest
    assert provenance["build_time"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(newest))
    assert [(i["path"], i["bytes"], i["sha256"]) for i in provenance["inputs"]] == [
        (path, len(p.read_bytes()), hashlib.sha256(p.read_bytes()).hexdigest()) for path, p in sorted(inputs.items())
    ]
