"""A signature of a bundle's SHA256SUMS, as ``ssh-keygen -Y sign -n benchproof`` makes it
(OpenSSH's SSHSIG format), and how 05 Evidence lists it: the file beside the bundle,
``<bundle>.SHA256SUMS.sig``, with the signer's key type and fingerprint — what the signature
itself says, so a rebuild lists it the same way.  Reading it needs no ssh-keygen; checking it
does (:mod:`benchproof.verify.ssh`)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass

from benchproof.errors import printable

NAMESPACE = "benchproof"
SIGNATURE_SUFFIX = ".SHA256SUMS.sig"
MAX_BYTES = 64 << 10
_BEGIN, _END = "-----BEGIN SSH SIGNATURE-----", "-----END SSH SIGNATURE-----"
_TYPES = {
    "ssh-ed25519": "ED25519",
    "ssh-rsa": "RSA",
    "ecdsa-sha2-nistp256": "ECDSA",
    "ecdsa-sha2-nistp384": "ECDSA",
    "ecdsa-sha2-nistp521": "ECDSA",
    "sk-ssh-ed25519@openssh.com": "ED25519-SK",
    "sk-ecdsa-sha2-nistp256@openssh.com": "ECDSA-SK",
}


class NotASignature(ValueError):
    """The bytes are not an SSH signature (message in words)."""


@dataclass(frozen=True)
class Signature:
    data: bytes  # the file, as published
    key_type: str  # ED25519, RSA, ECDSA…
    fingerprint: str  # SHA256:… as ssh-keygen -l prints it
    public_key: str  # "ssh-ed25519 AAAA…", as an allowed_signers line holds it
    namespace: str

    @property
    def signer(self) -> str:
        return f"{self.key_type} key {self.fingerprint}"

    def description(self) -> str:
        return (
            f"SSH signature of the bundle's SHA256SUMS by the {self.signer} (namespace {self.namespace}); "
            "check it with benchproof verify and the signer's public key"
        )


def signature_name(bundle_zip: str) -> str:
    """``x-evidence.zip`` → ``x-evidence.SHA256SUMS.sig``."""
    return bundle_zip.removesuffix(".zip") + SIGNATURE_SUFFIX


def _strings(blob: bytes, count: int) -> list[bytes]:
    out, at = [], 0
    for _ in range(count):
        if at + 4 > len(blob):
            raise NotASignature("it ends too early")
        (size,) = struct.unpack_from(">I", blob, at)
        if at + 4 + size > len(blob):
            raise NotASignature("it ends too early")
        out.append(blob[at + 4 : at + 4 + size])
        at += 4 + size
    return out


def read_signature(data: bytes) -> Signature:
    """The signature's signer and namespace; NotASignature when it is not one."""
    if len(data) > MAX_BYTES:
        raise NotASignature(f"{len(data):,} bytes, more than a signature's {MAX_BYTES:,}")
    try:
        lines = data.decode("ascii").strip().splitlines()
    except UnicodeDecodeError:
        raise NotASignature("not ASCII text") from None
    if len(lines) < 3 or lines[0].strip() != _BEGIN or lines[-1].strip() != _END:
        raise NotASignature(f"it does not start with '{_BEGIN}' and end with '{_END}'")
    try:
        blob = base64.b64decode("".join(line.strip() for line in lines[1:-1]), validate=True)
    except (binascii.Error, ValueError):
        raise NotASignature("its body is not base64") from None
    if blob[:6] != b"SSHSIG" or len(blob) < 10 or struct.unpack_from(">I", blob, 6)[0] != 1:
        raise NotASignature("it is not an SSHSIG version 1 signature")
    public, namespace, _reserved, _hash, _signed = _strings(blob[10:], 5)
    key_type = _strings(public, 1)[0].decode("ascii", "replace")
    fingerprint = "SHA256:" + base64.b64encode(hashlib.sha256(public).digest()).decode("ascii").rstrip("=")
    try:
        space = namespace.decode("utf-8")
    except UnicodeDecodeError:
        raise NotASignature("its namespace is not text") from None
    return Signature(
        data,
        printable(_TYPES.get(key_type, key_type.upper())),
        fingerprint,  # shown on pages, terminals
        f"{key_type} {base64.b64encode(public).decode('ascii')}",
        space,
    )
