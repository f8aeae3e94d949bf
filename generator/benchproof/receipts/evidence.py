"""The evidence files a report refers to: arms, launches, claims and records."""

from __future__ import annotations

from benchproof.model import Project


def referenced(project: Project) -> list[str]:
    """Every evidence path named anywhere in the project, sorted, each once."""
    paths: set[str] = set()
    for arm in project.arms.values():
        paths.update(arm.evidence)
        if arm.launch.evidence:
            paths.add(arm.launch.evidence)
        paths.update(c.evidence for c in arm.claims if c.evidence)
    paths.update(r.evidence for r in project.records if r.evidence)
    paths.update(project.weighing.files)   # the distributions a crossover or reference reads
    return sorted(paths)


def site_files(project: Project) -> dict[str, bytes]:
    """Evidence copied into the site at the same project-relative path, so links stay simple."""
    return {path: (project.root / path).read_bytes() for path in referenced(project)}
