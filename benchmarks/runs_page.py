"""Figures for runs.html at 100,000 records: build time, data size, time to first page, time
to filter, sort and page, in Debian's Chromium driven by Playwright.  Printed, not asserted.

    python benchmarks/runs_page.py [--records 100000] [--runs] [--keep DIR] [--chromium PATH]

--runs   build only what runs.html needs (load + runs page), not the whole site
--keep   write the project and the site into DIR and leave them there
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generator"))

from make_big_project import ARMS, make_project  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"]
REPEATS = 3

# Runs in the page: change a filter (or click) and time until the next frame has been drawn.
TIMED = """async ([selector, value]) => {
    const next = () => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
    await next();
    const t0 = performance.now();
    const el = document.querySelector(selector);
    if (el.tagName === "SELECT") {
        el.value = value;
        el.dispatchEvent(new Event("change", { bubbles: true }));
    } else {
        el.click();
    }
    const t1 = performance.now();
    await next();
    return [t1 - t0, performance.now() - t0];
}"""


def option_value(page, column: str, prefix: str) -> str:
    return page.eval_on_selector(
        f'select[data-column="{column}"]',
        "(s, p) => Array.from(s.options).find(o => o.text.startsWith(p + ' (')).value",
        prefix,
    )


def build_site(project: Path, out: Path, runs_only: bool) -> tuple[float, list[tuple[str, float]]]:
    """Build; return total seconds and (log line, seconds since the previous line)."""
    steps: list[tuple[str, float]] = []
    start = last = time.perf_counter()

    def log(line: str) -> None:
        nonlocal last
        now = time.perf_counter()
        steps.append((line.split(":")[0].strip(), now - last))
        last = now

    if runs_only:
        from benchproof.build import check
        from benchproof.pages.render import stylesheet
        from benchproof.pages.report import site_info
        from benchproof.pages.runs_page import runs_site_files
        from benchproof.receipts.runs_data import runs_data_files
        from benchproof.site import SiteFiles, publish

        checked = check(project, False, log)
        loaded = checked.projects[""]
        site = SiteFiles()
        data, filters = runs_data_files(loaded, checked.audited[""].audit)
        site.update(data)
        site.update(runs_site_files(loaded, site_info(loaded), filters))
        log("runs      runs.html, runs-data.js")
        site.add("assets/style.css", stylesheet())
        publish(site, out)
        log("write")
    else:
        from benchproof.build import build

        build(project, out, False, log)
    return time.perf_counter() - start, steps


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def first_page(browser, url: str) -> tuple[float, float]:
    """Wall seconds from navigation to 100 rows on screen, and the page's own 'ready' mark (ms)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_function("document.querySelectorAll('#runs-table tbody tr').length === 100", timeout=120000)
    wall = time.perf_counter() - start
    mark = page.evaluate("(performance.getEntriesByName('benchproof-runs-ready')[0] || {}).startTime || null")
    context.close()
    return wall, mark


def interactions(browser, url: str, late_id: str) -> list[tuple[str, float, float]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#runs-table tbody tr")
    arm = next(iter(ARMS))
    out = []

    def timed(name: str, selector: str, value: str = "") -> None:
        script, frame = page.evaluate(TIMED, [selector, value])
        out.append((name, script, frame))

    timed(f"filter arm = {arm}", 'select[data-column="arm"]', option_value(page, "arm", ARMS[arm][0]))
    timed("filter + status = failed", 'select[data-column="status"]', option_value(page, "status", "failed"))
    timed("next page", "#runs-pager [data-page=next]")
    timed("clear filters", "#runs-clear")
    timed("sort Request seconds (first: builds key)", '#runs-table th[data-column="request_s"] button')
    timed("sort Request seconds, reversed", '#runs-table th[data-column="request_s"] button')
    timed("sort Run id (text, 100,000 distinct)", '#runs-table th[data-column="run_id"] button')
    timed("sort Arm (text, few distinct)", '#runs-table th[data-column="arm"] button')
    start = time.perf_counter()
    page.evaluate("id => { location.hash = '#run-' + id; }", late_id)
    page.wait_for_selector(".is-target")
    out.append((f"permalink #run-{late_id}", float("nan"), (time.perf_counter() - start) * 1000))
    rows = page.locator("#runs-table tbody tr").count()
    context.close()
    if errors or rows > 100:
        raise SystemExit(f"page errors {errors} or {rows} rows in the DOM")
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", action="store_true", help="build only the runs page")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    holder = None if args.keep else tempfile.TemporaryDirectory(prefix="benchproof-runs-")
    work = args.keep or Path(holder.name if holder else "")
    work.mkdir(parents=True, exist_ok=True)

    t = time.perf_counter()
    project = make_project(work / "project", args.records)
    print(f"generate   {args.records:,} records in {time.perf_counter() - t:.1f} s  ({work / 'project'})")
    seconds, steps = build_site(project, work / "site", args.runs)
    print(f"build      {seconds:.1f} s ({'runs page only' if args.runs else 'whole site'})")
    for line, step in steps:
        print(f"             {step:6.1f} s  {line}")
    site = work / "site"
    data = b"".join(p.read_bytes() for p in sorted(site.glob("runs-data*.js")))
    print(
        f"runs-data*.js {len(data) / 1e6:.2f} MB in {len(list(site.glob('runs-data*.js')))} files "
        f"({len(data):,} bytes; gzip -6: {len(gzip.compress(data, 6)) / 1e6:.2f} MB), "
        f"{len(data) / args.records:.0f} bytes per record"
    )
    print(f"runs.js      {(site / 'assets/runs.js').stat().st_size:,} bytes")

    import csv

    from playwright.sync_api import sync_playwright

    with open(project / "runs" / "week-2.csv", newline="", encoding="utf-8") as handle:
        late_id = list(csv.DictReader(handle))[-50]["run_id"]
    server, base = serve(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for label, url in (("file://", (site / "runs.html").as_uri()), ("http", base + "runs.html")):
                runs = [first_page(browser, url) for _ in range(REPEATS)]
                wall = statistics.median(r[0] for r in runs)
                marks = [r[1] for r in runs if r[1] is not None]
                mark = f"; script done at {statistics.median(marks):.0f} ms after navigation start" if marks else ""
                print(f"first page ({label:7}) {wall * 1000:6.0f} ms median of {REPEATS} (100 rows drawn){mark}")
            print("in the page (ms: script / until the next frame is drawn):")
            for name, script, frame in interactions(browser, base + "runs.html", late_id):
                shown = "     " if script != script else f"{script:5.0f}"
                print(f"  {name:44} {shown} / {frame:5.0f}")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        if holder:
            holder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
