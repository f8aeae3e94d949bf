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

import click


@click.command()
@click.argument("path", metavar="PATH")
@click.option("--json", "as_json", is_flag=True, help="Print {verified, checks: [{check, ok, detail}], …} as JSON.")
@click.option("--allowed-signers", metavar="FILE", type=click.Path(dir_okay=False, exists=True),
              help="Check the signature beside the bundle against these signers (ssh-keygen's allowed_signers "
                   "format: 'ID namespaces=\"benchproof\" ssh-ed25519 AAAA…').")
@click.option("--identity", metavar="ID", help="The signer the signature must be from (with --allowed-signers).")
@click.option("--signature", metavar="FILE", type=click.Path(dir_okay=False, exists=True),
              help="The signature file, when it is not beside the bundle as <bundle>.SHA256SUMS.sig.")
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
        raise click.UsageError("--allowed-signers and --identity go together: the signers you trust, and which "
                               "of them must have signed")
    outcome = run_verify(Path(path), Path(allowed_signers) if allowed_signers else None, identity,
                         Path(signature) if signature else None)
    click.echo(output.as_json(outcome) if as_json else output.text(outcome))
    sys.exit(verdict(outcome.checks))


@click.command()
@click.argument("site", metavar="SITE")
@click.option("--key", required=True, metavar="KEY", type=click.Path(dir_okay=False, exists=True),
              help="Your SSH private key (or the public key of one in ssh-agent).")
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
        click.echo(f"not signed: {exc}", err=True)
        sys.exit(exc.code)
    if done.signature is None:
        click.echo(output.text(done.outcome), err=True)
        click.echo("not signed: only a site that verifies is signed", err=True)
        sys.exit(verdict(done.outcome.checks))
    click.echo(f"signed {site}: {done.path} ({done.signature.signer}, namespace {done.signature.namespace})")
    click.echo("A reader checks it with:")
    click.echo(f"  benchproof verify {site} --allowed-signers allowed_signers --identity YOU")
    click.echo("where the file allowed_signers holds this line (YOU: the name the reader knows you by):")
    click.echo(f'  YOU namespaces="benchproof" {done.signature.public_key}')


COMMANDS = (verify, sign)
