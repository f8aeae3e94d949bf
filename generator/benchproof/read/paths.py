"""Evidence and note paths: they must resolve inside the project and exist."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from benchproof.errors import Problems


def check_path(root: Path, value: str, what: str) -> tuple[str | None, str | None]:
    """``(normalised path, None)`` when ``value`` names an existing file inside ``root``,
    else ``(None, message)``.

    Absolute paths, ``..`` segments and symlinks that lead outside the project are refused,
    so a report can never pack or link a file from elsewhere on the author's machine.
    """
    text = str(value).strip().replace("\\", "/")
    pure = PurePosixPath(text)
    if not text or pure.is_absolute() or (len(text) > 1 and text[1] == ":"):
        return None, f"{what} '{value}' must be a path relative to the project folder"
    if ".." in pure.parts:
        return None, f"{what} '{value}' leads outside the project ('..' is not allowed)"
    if what == "evidence" and (len(pure.parts) < 2 or pure.parts[0] != "evidence"):
        # evidence is published at its project path: elsewhere it could clash with site pages
        return None, f"evidence '{value}' must be a file in the project's evidence/ folder"
    target = root / pure
    try:
        target.resolve(strict=False).relative_to(root.resolve())
    except (ValueError, OSError):
        return None, f"{what} '{value}' resolves outside the project"
    if target.is_dir():
        return None, f"{what} '{value}' is a folder; name a file"
    if not target.is_file():
        looked = "" if pure.as_posix() == str(value) else f" (looked for {pure.as_posix()})"
        return None, f"{what} '{value}' does not exist{looked}"
    return pure.as_posix(), None


def project_file(root: Path, value: str, rel: str, line: int | None, what: str,
                 problems: Problems) -> str | None:
    """The normalised path of ``value``, or ``None`` with a problem at ``rel:line``."""
    path, message = check_path(Path(root).absolute(), str(value), what)
    if message:
        problems.error(rel, line, message)
    return path
