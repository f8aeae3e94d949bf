"""The commands about what a build published: ``verify``, ``sign``, ``compare`` and
``summary``.  Registered on the command group by :mod:`benchproof.cli`; heavy modules are
imported inside each command.

Exit codes: ``verify`` 0 verified, 1 a mismatch, 2 could not check (never a pass); ``sign``
0 signed, 1 not signed (the site does not verify, the key was refused), 2 could not sign;
``compare`` and ``summary`` 0, 1 when ``--fail-on`` found what it names, 2 when an input
cannot be read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from benchproof import text
from benchproof.errors import printable
from benchproof.options import Number, RegularFile, WebAddress


class PublishedFile(RegularFile):
    """A regular file within the published reader's limit for ``what`` (``LIMITS``), looked up
    when a file is given: the command line loads no reader of published files until one of
    these commands runs."""

    def __init__(self, what: str) -> None:
        super().__init__(0)
        self.what = what

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from benchproof.published.reader import LIMITS

        self.limit = LIMITS[self.what]
        return super().convert(value, param, ctx)


def _say(text: str, err: bool = False, nl: bool = True) -> None:
    """Print what these commands say of a stranger's report: every control character escaped
    (``\\x1b``), whatever line of the input it came from."""
    from benchproof.published.shown import lines

    click.echo(lines(text), err=err, nl=nl)


@click.command()
@click.argument("path", metavar="PATH")
@click.option("--json", "as_json", is_flag=True, help="Print {verified, checks: [{check, ok, detail}], …} as JSON.")
@click.option(
    "--allowed-signers",
    metavar="FILE",
    type=PublishedFile("key"),
    help="Check the signature beside the bundle against these signers (ssh-keygen's allowed_signers "
    "format: 'ID namespaces=\"benchproof\" ssh-ed25519 AAAA…').",
)
@click.option("--identity", metavar="ID", help="The signer the signature must be from (with --allowed-signers).")
@click.option(
    "--signature",
    metavar="FILE",
    type=PublishedFile("signature"),
    help="The signature file, when it is not beside the bundle as <bundle>.SHA256SUMS.sig.",
)
def verify(path: str, as_json: bool, allowed_signers: str | None, identity: str | None, signature: str | None) -> None:
    """Check that a published report follows from the records it ships.

    PATH is a built site, its evidence zip alone, or an unpacked bundle. Every file is
    checked against SHA256SUMS, the site's downloads against the checksums its page states,
    the site is built again from the bundle (with the build time it records) and compared
    byte for byte, and the figures, findings, claims and re-run bar are derived again from
    the bundled records and compared with the published results.json. Nothing is written
    outside a temporary folder. Exit 0 verified, 1 a mismatch, 2 could not check.
    """
    from benchproof.verify import output
    from benchproof.verify.checks import verdict
    from benchproof.verify.run import verify as run_verify

    if (allowed_signers is None) != (identity is None):
        raise click.UsageError(
            "--allowed-signers and --identity go together: the signers you trust, and which of them must have signed"
        )
    outcome = run_verify(
        Path(path), Path(allowed_signers) if allowed_signers else None, identity, Path(signature) if signature else None
    )
    _say(output.as_json(outcome) if as_json else output.text(outcome))
    sys.exit(verdict(outcome.checks))


@click.command()
@click.argument("site", metavar="SITE")
@click.option(
    "--key",
    required=True,
    metavar="KEY",
    type=PublishedFile("key"),
    help="Your SSH private key (or the public key of one in ssh-agent).",
)
def sign(site: str, key: str) -> None:
    """Sign a site's bundle (its SHA256SUMS) with an SSH key, offline.

    The site is verified first; then the signature is published beside the bundle
    (downloads/<bundle>.SHA256SUMS.sig) and 05 Evidence lists it with the signer's key. A
    zip alone gets its signature beside it. Uses ssh-keygen -Y sign, namespace benchproof.
    """
    from benchproof.verify import output
    from benchproof.verify.checks import verdict
    from benchproof.verify.sign import NotSigned, sign_site

    try:
        done = sign_site(Path(site), Path(key))
    except NotSigned as exc:
        _say(f"not signed: {exc}", err=True)
        sys.exit(exc.code)
    if done.signature is None:
        _say(output.text(done.outcome), err=True)
        _say("not signed: only a site that verifies is signed", err=True)
        sys.exit(verdict(done.outcome.checks))
    _say(f"signed {site}: {done.path} ({done.signature.signer}, namespace {done.signature.namespace})")
    _say("A reader checks it with:")
    _say(f"  benchproof verify {site} --allowed-signers allowed_signers --identity YOU")
    _say("where the file allowed_signers holds this line (YOU: the name the reader knows you by):")
    _say(f'  YOU namespaces="benchproof" {done.signature.public_key}')


FAIL_ON = ("worse", "new-failure", "removed", "rerun-bar", "new-finding")


def _failing(comparison, reasons: tuple[str, ...]) -> list[str]:
    """What ``--fail-on`` found, in words (empty: nothing)."""
    found = []
    for reason in reasons:
        if reason == "rerun-bar":
            n = sum(row.inside is not True for row in comparison.rerun_bar)
            what = f"re-run bar {text.plural(n, 'row')} not met"
        elif reason == "new-finding":
            n = len(comparison.new_findings)
            what = f"new {text.plural(n, 'finding')}"
        else:
            n = comparison.count(reason)
            what = f"{text.plural(n, 'figure')} {reason}"
        if n:
            found.append(f"{n} {what}")
    return found


@click.command()
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@click.option(
    "--format",
    "form",
    type=click.Choice(["terminal", "markdown", "json"]),
    default="terminal",
    show_default=True,
    help="A table for the terminal, Markdown (a pull request, a decision document) or JSON.",
)
@click.option(
    "-o",
    "--out",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Also write a static, offline comparison page (DIR/index.html) with charts of old and new.",
)
@click.option(
    "--fail-on",
    "fail_on",
    multiple=True,
    type=click.Choice(FAIL_ON),
    help="Exit 1 when a figure got worse, failed anew or was removed, a re-run bar row is not met, "
    "or a finding appeared (repeat the option for several).",
)
@click.option(
    "--noise",
    type=Number(0, None),
    metavar="FRACTION",
    help="The noise threshold of better and worse (default: OLD's audit.noise_threshold, 0.03 when it has none).",
)
def compare(old: str, new: str, form: str, out: str | None, fail_on: tuple[str, ...], noise: float | None) -> None:
    """Judge a re-run (NEW) against a report (OLD): each a site, a bundle, a results.json or a project.

    For every section × arm × point × metric: the old and new medians, their ratio in words
    and a state (better, worse, within-noise, too-few, new-failure, fixed, still-failing,
    added, removed); the old report's re-run bar against the new figures; the findings that
    appeared or vanished. Exit 0, 1 when --fail-on found what it names, 2 when an input cannot
    be read.
    """
    from benchproof.compare import output
    from benchproof.compare.judge import judge
    from benchproof.compare.load import Unreadable, load

    if out is not None:
        from benchproof.site import overlap

        for side in (old, new):
            if overlap(Path(out), Path(side)):
                raise click.UsageError(
                    f"-o {printable(out)} and {printable(side)} must not contain each other: "
                    f"{printable(side)} is one of the reports compared; write the page elsewhere"
                )
    try:
        comparison = judge(load(Path(old)), load(Path(new)), noise)
    except Unreadable as exc:
        _say(f"error: cannot compare: {exc}", err=True)
        sys.exit(2)
    _say({"terminal": output.terminal, "markdown": output.markdown, "json": output.as_json}[form](comparison))
    if out is not None:
        from benchproof.compare.page import write_page

        try:
            written = write_page(comparison, Path(out))
        except OSError as exc:
            _say(f"error: cannot write the comparison page: {exc}", err=True)
            sys.exit(2)
        _say(f"wrote {written}", err=True)
    failing = _failing(comparison, fail_on)
    if failing:
        _say(f"--fail-on: {', '.join(failing)}", err=True)
        sys.exit(1)


@click.command()
@click.argument("path", metavar="PROJECT|SITE")
@click.option(
    "--format",
    "form",
    type=click.Choice(["markdown"]),
    default="markdown",
    show_default=True,
    help="The output format.",
)
@click.option(
    "--url",
    metavar="URL",
    type=WebAddress(),
    help="Where the site is published, so the link to the receipts works "
    "outside it (default: a link relative to the site).",
)
def summary(path: str, form: str, url: str | None) -> None:
    """Print one report as Markdown, for a decision document or a pull request.

    The decision and its claims, each section's figures with their ratio to the baseline and
    their state, the audit's markers and findings, and a link to the receipts; the caveats
    kept. A SITE is read through its own evidence bundle. Exit 2 when it cannot be read.
    """
    from benchproof.summary.run import NoSummary
    from benchproof.summary.run import summary as run_summary

    try:
        _say(run_summary(Path(path), url), nl=False)
    except NoSummary as exc:
        _say(f"error: cannot summarise {path}: {exc}", err=True)
        sys.exit(2)


COMMANDS = (verify, sign, compare, summary)
