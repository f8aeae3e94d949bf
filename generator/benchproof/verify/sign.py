"""``benchproof sign SITE --key KEY``: sign what verifies, and list the signature in the page.

The site (or a zip alone) is verified first: nobody signs a page that does not follow from
its bundle.  The bundle's SHA256SUMS is then signed with ``ssh-keygen -Y sign``, and the site
is built again from the same bundle, as recorded, with the signature: it is published beside
the bundle (``downloads/<bundle>.SHA256SUMS.sig``) and 05 Evidence lists it with the signer's
key.  Everything else stays byte for byte as it was, and ``verify`` rebuilds the page the same
way from the signature it finds.  A zip alone gets its signature beside it.
"""

from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchproof.errors import printable
from benchproof.published.locate import SITE, ZIP, Located, NotPublished, locate
from benchproof.published.manifest import SUMS
from benchproof.receipts.signature import NAMESPACE, Signature, read_signature
from benchproof.verify import ssh
from benchproof.verify.checks import MISMATCH, UNCHECKED
from benchproof.verify.run import Outcome, Report, rebuild_as_recorded, verify


class NotSigned(Exception):
    """Why nothing was signed, and the exit code to leave with."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


@dataclass
class Signed:
    outcome: Outcome
    path: Path | None = None  # the signature file written
    signature: Signature | None = None


def _refusal(target: Path) -> NotSigned | None:
    """Why the signature cannot be written at ``target`` (a link, a folder, a FIFO…), or None."""
    if target.is_symlink():
        return NotSigned(f"{printable(str(target))} is a link: benchproof never writes through a link", MISMATCH)
    if os.path.lexists(target) and not stat.S_ISREG(target.lstat().st_mode):
        what = "a folder" if target.is_dir() else "not a regular file"
        return NotSigned(f"{printable(str(target))} is {what}: the signature is written there; move it away", UNCHECKED)
    return None


def _write_beside(target: Path, data: bytes) -> None:
    why = _refusal(target)
    if why is not None:
        raise why
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".benchproof-sig-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except OSError as exc:
        os.unlink(temporary)
        raise NotSigned(f"{printable(str(target))} could not be written: {exc.strerror or exc}", UNCHECKED) from None


def sign_site(path: Path, key: Path) -> Signed:
    try:
        ssh.tool()  # said before the site is verified, not after
    except ssh.ToolMissing as exc:
        raise NotSigned(str(exc), UNCHECKED) from None
    done = Signed(Outcome(path, "?"))
    try:
        target = locate(path).signature
    except NotPublished:
        target = None  # verify says what the path is
    why = None if target is None else _refusal(target)
    if why is not None:  # said before the site is verified, not after
        raise why

    def sign(located: Located, reports: list[Report], work: Path) -> None:
        report = reports[0]
        if located.kind not in (SITE, ZIP):
            raise NotSigned(
                f"{printable(str(path))} is a {located.kind}: sign a site (each report's folder of a "
                "multi-report site) or an evidence zip",
                UNCHECKED,
            )
        try:
            sums = report.opened().read(SUMS)
            assert sums is not None  # verify passed: check_files fails a bundle without its SHA256SUMS
            data = ssh.sign(sums, key)
        except ssh.ToolMissing as exc:
            raise NotSigned(str(exc), UNCHECKED) from None
        except ssh.SignFailed as exc:
            raise NotSigned(f"ssh-keygen did not sign: {exc}", MISMATCH) from None
        signature = read_signature(data)
        if signature.namespace != NAMESPACE:
            raise NotSigned(
                f"ssh-keygen signed in namespace {printable(signature.namespace)}, not {NAMESPACE}", MISMATCH
            )
        if located.kind == ZIP:
            assert report.signature_file is not None  # beside a zip there is always a place for it
            _write_beside(report.signature_file, data)
        else:
            problems = rebuild_as_recorded(reports, work, located.path, {"": signature})
            if problems:
                raise NotSigned(f"the signed site could not be built: {'; '.join(problems[:3])}", MISMATCH)
        done.path, done.signature = report.signature_file, signature

    done.outcome = verify(path, then=sign)
    return done
