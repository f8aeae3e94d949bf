"""Evidence and note paths: they must resolve inside the project and exist (where the site
publishes an evidence file is :func:`benchproof.addresses.site_path`)."""

from __future__ import annotations

import errno
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from benchproof.addresses import site_path
from benchproof.errors import Problems, printable
from benchproof.model.config import Arm


def named_evidence(arms: Iterable[Arm], records: Iterable[str | None], files: Iterable[str] = ()) -> list[str]:
    """Every evidence path the arms (their list, launch, claims), the records (their evidence
    paths, e.g. ``Records.evidence.labels``) and ``files`` (the distributions a crossover or
    reference reads) name, sorted, once."""
    paths: set[str] = set(files)
    for arm in arms:
        paths.update(arm.evidence)
        if arm.launch.evidence:
            paths.add(arm.launch.evidence)
        paths.update(c.evidence for c in arm.claims if c.evidence)
    paths.update(path for path in records if path)
    return sorted(paths)


def publish_clashes(paths: list[str], problems: Problems) -> None:
    """An evidence file published inert under the name of another evidence file is an error."""
    named = set(paths)
    for path in paths:
        published = site_path(path)
        if published != path and published in named:
            problems.error(
                path,
                None,
                f"is published as {published} (so that a browser shows it instead "
                f"of running it), the name of another evidence file: rename one",
            )


def check_path(root: Path, value: str, what: str) -> tuple[str | None, str | None]:
    """``(normalised path, None)`` when ``value`` names an existing file inside ``root``,
    else ``(None, message)``.

    Absolute paths, ``..`` segments and symlinks that lead outside the project are refused,
    so a report can never pack or link a file from elsewhere on the author's machine.
    """
    text = str(value).strip().replace("\\", "/")
    pure = PurePosixPath(text)
    name = printable(str(value))
    if not text or pure.is_absolute() or (len(text) > 1 and text[1] == ":"):
        return None, f"{what} '{name}' must be a path relative to the project folder"
    if ".." in pure.parts:
        return None, f"{what} '{name}' leads outside the project ('..' is not allowed)"
    if what == "evidence" and (len(pure.parts) < 2 or pure.parts[0] != "evidence"):
        # evidence is published at its project path: elsewhere it could clash with site pages
        return None, f"evidence '{name}' must be a file in the project's evidence/ folder"
    target = root / pure
    try:  # every component, links included: evidence/ itself may be a link
        target.resolve(strict=False).relative_to(root.resolve())
    except (RuntimeError, OSError) as exc:  # Python 3.11 raises RuntimeError for a loop, later ELOOP
        if isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP:
            return None, f"{what} '{name}' is a link that leads back to itself (a loop)"
        return None, f"{what} '{name}' cannot be read: {exc.strerror or exc}"
    except ValueError:
        return None, f"{what} '{name}' resolves outside the project"
    if target.is_dir():
        return None, f"{what} '{name}' is a folder; name a file"
    if not target.is_file():
        looked = "" if pure.as_posix() == str(value) else f" (looked for {printable(pure.as_posix())})"
        return None, f"{what} '{name}' does not exist{looked}"
    return pure.as_posix(), None


def project_file(root: Path, value: str, rel: str, line: int | None, what: str, problems: Problems) -> str | None:
    """The normalised path of ``value``, or ``None`` with a problem at ``rel:line``."""
    path, message = check_path(Path(root).absolute(), str(value), what)
    if message:
        problems.error(rel, line, message)
    return path
