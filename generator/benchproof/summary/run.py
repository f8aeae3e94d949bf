"""``benchproof summary PROJECT|SITE``: the report read as the build reads it — a project
directly, a site through its own evidence bundle (unpacked into a temporary folder, safely) —
and written as Markdown (:mod:`benchproof.summary.markdown`)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from urllib.parse import quote

from benchproof import __version__
from benchproof.addresses import download_path
from benchproof.compare.markdown import escape
from benchproof.errors import InputError, errors_text, printable
from benchproof.published.archive import ArchiveError, unpack_zip
from benchproof.published.locate import PROJECT, SITE, NotPublished, locate
from benchproof.published.reader import Hashes, Refused
from benchproof.summary.markdown import Receipts, render


class NoSummary(Exception):
    """The path cannot be summarised (message in words)."""


def _markdown(folder: Path, receipts: Receipts) -> str:
    from benchproof.build import SeveralReports, check_report
    from benchproof.pages.decision_view import decision_view
    from benchproof.pages.headlines import headlines

    try:
        project, audited = check_report(folder)
    except InputError as exc:
        raise NoSummary(f"the report does not build: {errors_text(exc.problems)}") from None
    except SeveralReports:
        raise NoSummary("it holds several reports: summarise one report folder at a time") from None
    comparisons = audited.computed.comparisons
    view = decision_view(project, audited.decision, audited.audit, comparisons)
    said = {h.section: h for h in headlines(project, audited.computed)}
    return render(
        project, audited.results, audited.audit, view, comparisons, receipts, f"benchproof {__version__}", said
    )


def summary(path: Path, url: str | None = None) -> str:
    try:
        found = locate(path)
    except NotPublished as exc:
        raise NoSummary(str(exc)) from None
    if found.kind == PROJECT:
        return _markdown(
            path,
            Receipts(
                None,
                "",
                None,
                f"not published yet: `benchproof build` of "
                f"{escape(printable(str(path)))} writes the evidence bundle, "
                "with its SHA256SUMS, beside the page",
            ),
        )
    if found.kind != SITE:
        raise NoSummary(f"{printable(str(path))} is a {found.kind}: summary takes a project or a built site")
    zipped = found.zip
    assert zipped is not None
    href = download_path(quote(zipped.name))
    href = f"{url.rstrip('/')}/{href}" if url else href
    try:
        digest = Hashes().of(zipped, what="zip")
    except Refused as exc:
        raise NoSummary(str(exc)) from None
    receipts = Receipts(
        quote(href, safe=":/%#?=&"),
        zipped.name,
        digest,
        "everything the page was built from; `benchproof verify` on the site, or on this zip alone, "
        "checks that the page follows from it",
    )
    with tempfile.TemporaryDirectory(prefix="benchproof-summary-") as folder:
        try:
            bundle = unpack_zip(zipped, Path(folder))
        except ArchiveError as exc:
            raise NoSummary(str(exc)) from None
        if bundle.refused:
            raise NoSummary(f"the site's bundle holds entries that cannot be unpacked: {'; '.join(bundle.refused[:3])}")
        return _markdown(Path(folder), receipts)
