"""Evidence and note paths: they must resolve inside the project and exist."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from benchproof.errors import Problems


def project_file(root: Path, value: str, rel: str, line: int | None, what: str,
                 problems: Problems) -> str | None:
    """Check that ``value`` names an existing file inside ``root``; return it normalised.

    Absolute paths, ``..`` segments and symlinks that lead outside the project are refused,
    so a report can never pack or link a file from elsewhere on the author's machine.
    """
    text = str(value).strip().replace("\\", "/")
    pure = PurePosixPath(text)
    if not text or pure.is_absolute() or (len(text) > 1 and text[1] == ":"):
        problems.error(rel, line, f"{what} '{value}' must be a path relative to the project folder")
        return None
    if ".." in pure.parts:
        problems.error(rel, line, f"{what} '{value}' leads outside the project ('..' is not allowed)")
        return None
    target = root / pure
    try:
        resolved = target.resolve(strict=False)
        resolved.relative_to(root.resolve())
    except (ValueError, OSError):
        problems.error(rel, line, f"{what} '{value}' resolves outside the project")
        return None
    if target.is_dir():
        problems.error(rel, line, f"{what} '{value}' is a folder; name a file")
        return None
    if not target.is_file():
        looked = "" if pure.as_posix() == str(value) else f" (looked for {pure.as_posix()})"
        problems.error(rel, line, f"{what} '{value}' does not exist{looked}")
        return None
    return pure.as_posix()
