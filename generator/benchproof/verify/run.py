"""``benchproof verify PATH``: every check, in the order a reader would make them by hand.

PATH is a built site (every report of a multi-report site), its evidence zip, or an unpacked
bundle.  Each report's bundle is copied into a temporary folder, safely
(:mod:`benchproof.published.archive`); its files are held against SHA256SUMS and
PROVENANCE.json; a site's downloads against the SHA-256 its page states; the site is built
again from the bundle with the recorded build time and compared byte for byte (a zip, or an
unpacked bundle, against the bundle that build makes); the figures, findings, claims and
re-run bar of the rebuilt results.json against the published one; and, when the reader gives
the signers they trust, the signature beside the bundle.  Nothing is written outside the
temporary folder, which is removed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchproof import __version__
from benchproof.addresses import DOWNLOADS, download_path
from benchproof.errors import printable
from benchproof.published.archive import ArchiveError, Unpacked, copy_folder, unpack_zip
from benchproof.published.locate import BUNDLE, MULTI, SITE, ZIP, Located, NotPublished, locate, site_zip
from benchproof.published.manifest import PROVENANCE, SUMS, Provenance, check_files, check_provenance, read_provenance
from benchproof.published.reader import Refused, read_if_file
from benchproof.published.shown import some
from benchproof.receipts.buildtime import LATEST, BuildTime
from benchproof.receipts.signature import NotASignature, Signature, read_signature, signature_name
from benchproof.text import count, plural
from benchproof.verify import ssh
from benchproof.verify.checks import VERIFIED, Check, verdict
from benchproof.verify.custody import custody_checks
from benchproof.verify.derived import DERIVED, derived_checks
from benchproof.verify.differences import same_file
from benchproof.verify.page import check_downloads
from benchproof.verify.rebuild import as_recorded, compare, rebuild, tree

GENERATOR = f"benchproof {__version__}"
SHOWN = 5


@dataclass
class Report:
    """One report of what is verified: where its bundle comes from, and what was read of it."""

    name: str  # its folder in a multi-report site, else ""
    bundle: Path  # its zip, or the unpacked folder
    signature_file: Path | None
    unpacked: Unpacked | None = None
    provenance: Provenance | None = None
    signature: Signature | None = None

    def label(self, text: str) -> str:
        return f"{self.name}/: {text}" if self.name else text

    def opened(self) -> Unpacked:
        """Its bundle, unpacked: asked for only once it is (verify checks ``unpacked`` first)."""
        assert self.unpacked is not None
        return self.unpacked

    def recorded(self) -> Provenance:
        """Its PROVENANCE.json: asked for only once it was read (verify checks ``provenance`` first)."""
        assert self.provenance is not None
        return self.provenance


@dataclass
class Outcome:
    path: Path
    kind: str
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _reports(located: Located, signature: Path | None) -> list[Report]:
    if located.kind == MULTI:
        zips = [(name, site_zip(located.path / name)) for name in located.reports]
        return [Report(name, z, z.with_name(signature_name(z.name))) for name, z in zips]
    bundle = located.zip if located.zip is not None else located.path
    return [Report("", bundle, signature or located.signature)]


def _read_bundle(report: Report, dest: Path, out: Outcome) -> None:
    try:
        report.unpacked = (
            unpack_zip(report.bundle, dest) if report.bundle.is_file() else copy_folder(report.bundle, dest)
        )
    except ArchiveError as exc:
        out.checks.append(Check("files", False, report.label(str(exc))))
        return
    ok, detail = check_files(report.unpacked)
    out.checks.append(Check("files", ok, report.label(detail)))
    try:
        report.provenance, why = read_provenance(report.unpacked.read(PROVENANCE), LATEST)
    except Refused as exc:
        report.provenance, why = None, str(exc)
    if report.provenance is None:
        out.checks.append(Check("provenance", False, report.label(why)))
        return
    ok, detail = check_provenance(report.unpacked, report.provenance)
    out.checks.append(Check("provenance", ok, report.label(detail)))
    recorded = report.provenance.generator
    out.checks.append(
        Check(
            "generator",
            recorded == GENERATOR,
            report.label(
                f"built by {printable(recorded)}, checked with the same"
                if recorded == GENERATOR
                else f"built by {printable(recorded)}, checked with {GENERATOR}: files the generator writes differently cannot "
                f"match byte for byte; to check them, install that version ({printable(recorded)})"
            ),
        )
    )


def _read_signature(report: Report, out: Outcome) -> None:
    path = report.signature_file
    if path is None:
        return
    try:
        data = read_if_file(path, "signature")
        if data is None:
            return
        report.signature = read_signature(data)
    except Refused as exc:
        out.checks.append(Check("signature", False, report.label(f"the signature cannot be read: {exc}")))
    except NotASignature as exc:
        out.checks.append(
            Check("signature", False, report.label(f"{printable(path.name)} is not an SSH signature: {exc}"))
        )


def _rebuilt_bundle(site: Path, work: Path) -> tuple[Path, Unpacked]:
    """The rebuilt zip, and its entries unpacked (its top folder removed)."""
    found = next((site / DOWNLOADS).glob("*-evidence.zip"))
    return found, unpack_zip(found, work / "rebuilt-bundle")


def rebuild_as_recorded(
    reports: list[Report], work: Path, out: Path, signatures: dict[str, Signature] | None = None
) -> list[str]:
    """Build the unpacked bundles into ``out`` with their recorded build time (``signatures``:
    the reports' own, unless given); the problems that stopped it."""
    if signatures is None:
        signatures = {r.name: r.signature for r in reports if r.signature}
    with as_recorded([(r.opened().root, r.recorded()) for r in reports]):
        return rebuild(work / "project", out, signatures)


def _rebuild_check(located: Located, reports: list[Report], work: Path, out: Outcome) -> Path | None:
    """The byte comparison; the rebuilt site's folder, or None when it could not be built."""
    rebuilt = work / "rebuilt"
    first = reports[0].recorded()
    problems = rebuild_as_recorded(reports, work, rebuilt)
    if problems:
        # with another generator a bundle may not build at all: that says nothing of the bundle
        same = all(r.recorded().generator == GENERATOR for r in reports)
        out.checks.append(Check("rebuild", False if same else None, f"the bundle does not build: {_some(problems)}"))
        return None
    time = (
        f"built as of {BuildTime(first.epoch, first.source).iso}, from {printable(first.source)}, as recorded"
        if len(reports) == 1
        else "each report built as of the time its bundle records"
    )
    if located.kind in (SITE, MULTI):
        published, odd = tree(located.path)
        skipped = [
            f"{r.name}/{download_path(r.signature_file.name)}".lstrip("/")
            for r in reports
            if r.signature and r.signature_file
        ]  # (a signature is read only from its file)
        for rel in skipped:
            published.pop(rel, None)
            out.notes.append(
                f"{rel} is not made from the bundle: it is left out of the byte comparison "
                "(the page's listing of it is compared; the signature check reads it)"
            )
        made, _ = tree(rebuilt)
        for rel in skipped:
            made.pop(rel, None)
        differences = [str(d) for d in compare(published, made)] + odd
        whole = f"the site rebuilt from the bundle ({time})"
    else:
        report = reports[0]
        made_zip, remade = _rebuilt_bundle(rebuilt, work)
        ours = report.opened()
        published = {rel: ours.path(rel) for rel in ours.digests}
        differences = [
            str(d)
            for d in compare(
                published,
                {rel: remade.path(rel) for rel in remade.digests},
                lambda rel: ours.digests[rel] == remade.digests[rel],
            )
        ]
        if located.kind == ZIP and not differences and not same_file(located.path, made_zip):
            differences.append(
                f"{printable(located.path.name)}: every file is the same, but the zip itself differs "
                "from the one the build makes (entry times, order or compression)"
            )
        whole = f"the bundle rebuilt from its records ({time})"
    if differences:
        out.checks.append(
            Check(
                "rebuild",
                False,
                f"{count(len(differences), 'file')} {plural(len(differences), 'differs', 'differ')} "
                f"from {whole}: {_some(differences)}",
            )
        )
    else:
        out.checks.append(Check("rebuild", True, f"identical, byte for byte, to {whole}: {len(published):,} files"))
    return rebuilt


def _some(items: list[str]) -> str:
    return some(items, SHOWN)


def _results_checks(located: Located, reports: list[Report], rebuilt: Path | None, out: Outcome) -> None:
    for report in reports:
        if located.kind in (SITE, MULTI):
            where = f"{report.name + '/' if report.name else ''}{download_path('results.json')}"
            try:
                published = read_if_file(located.path / where, "results.json", printable(where))
            except Refused as exc:
                out.checks += [Check(name, False, report.label(str(exc))) for name in DERIVED]
                continue
        else:
            where = f"{printable(report.bundle.name)}: results.json"
            try:
                published = report.opened().read("results.json")
            except Refused as exc:
                out.checks += [Check(name, False, report.label(str(exc))) for name in DERIVED]
                continue
        made = None
        if rebuilt is not None:
            made = (rebuilt / report.name / download_path("results.json")).read_bytes()
        out.checks += [Check(c.check, c.ok, report.label(c.detail)) for c in derived_checks(published, made, where)]


def _signature_checks(reports: list[Report], allowed: Path | None, identity: str | None, out: Outcome) -> None:
    for report in reports:
        if allowed is None or identity is None:  # they go together: one alone checks nothing
            if report.signature:
                out.notes.append(
                    report.label(
                        f"signed by the {report.signature.signer}: not checked; give "
                        "--allowed-signers FILE --identity ID to check who signed it"
                    )
                )
            continue
        if report.signature is None:
            if not any(c.check == "signature" and report.label("") in c.detail for c in out.checks):
                where = f"at {printable(str(report.signature_file))}" if report.signature_file else "beside the bundle"
                out.checks.append(Check("signature", False, report.label(f"no signature to check: none {where}")))
            continue
        try:
            good, said = ssh.check(report.opened().read(SUMS) or b"", report.signature.data, allowed, identity)
        except Refused as exc:
            out.checks.append(Check("signature", False, report.label(f"nothing to check the signature against: {exc}")))
            continue
        except ssh.ToolMissing as exc:
            out.checks.append(Check("signature", None, report.label(f"could not check the signature: {exc}")))
            continue
        out.checks.append(
            Check(
                "signature",
                good,
                report.label(
                    f"{SUMS} is signed by {printable(identity)} ({report.signature.signer}): {said}"
                    if good
                    else f"the signature of {SUMS} does not check for {printable(identity)} in {printable(str(allowed))}: {said}"
                ),
            )
        )


def verify(
    path: Path,
    allowed: Path | None = None,
    identity: str | None = None,
    signature: Path | None = None,
    then: Callable[[Located, list[Report], Path], None] | None = None,
) -> Outcome:
    """Every check of ``path``.  ``then(located, reports, work)`` runs when every check passed,
    while the bundles are still unpacked in ``work`` (``benchproof sign`` builds from them)."""
    try:
        located = locate(path)
    except NotPublished as exc:
        return Outcome(path, "?", [Check("input", None, str(exc))])
    out = Outcome(path, located.kind)
    if located.kind not in (SITE, ZIP, BUNDLE, MULTI):
        out.checks.append(
            Check(
                "input",
                None,
                f"{printable(str(path))} is a {located.kind}: verify takes a built "
                "site, its evidence zip or an unpacked bundle",
            )
        )
        return out
    if signature is not None and located.kind == MULTI:
        out.checks.append(Check("input", None, "--signature names one signature: give it with one report's site"))
        return out
    try:
        reports = _reports(located, signature)
    except NotPublished as exc:
        out.checks.append(Check("input", None, str(exc)))
        return out
    with tempfile.TemporaryDirectory(prefix="benchproof-verify-") as folder:
        work = Path(folder)
        for report in reports:
            _read_bundle(report, work / "project" / report.name, out)
            _read_signature(report, out)
            if located.kind in (SITE, MULTI):
                site = located.path / report.name
                out.checks.append(check_downloads(site, f"{report.name}/" if report.name else ""))
        for report in reports:
            if report.unpacked is not None:
                checks, notes = custody_checks(report.unpacked.root, report.label)
                out.checks += checks
                out.notes += notes
        rebuilt = None
        if all(r.provenance is not None for r in reports):
            rebuilt = _rebuild_check(located, reports, work, out)
        else:
            out.checks.append(Check("rebuild", None, "not attempted: the bundle's PROVENANCE.json cannot be read"))
        if all(r.unpacked is not None for r in reports):
            _results_checks(located, reports, rebuilt, out)
            _signature_checks(reports, allowed, identity, out)
        if then is not None and verdict(out.checks) == VERIFIED:
            then(located, reports, work)
    return out
