"""The evidence files a report refers to, and the copies the site publishes."""

from __future__ import annotations

from benchproof.addresses import site_path
from benchproof.model.project import Project
from benchproof.read.paths import named_evidence


def referenced(project: Project) -> list[str]:
    """Every evidence path named anywhere in the project, sorted, each once."""
    return named_evidence(project.arms.values(), project.records.evidence.labels, project.weighing.files)


def site_files(project: Project) -> dict[str, bytes]:
    """Evidence copied into the site at its project path (see :func:`site_path`: a file a browser
    would run is published as text), so links stay simple."""
    return {site_path(path): (project.root / path).read_bytes() for path in referenced(project)}
