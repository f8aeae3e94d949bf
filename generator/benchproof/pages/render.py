"""The Jinja2 environment: autoescape on, undefined names are errors, formatting in filters, the
site's paths in ``link`` (:data:`benchproof.addresses.LINKS`).

Templates run from the modules the install compiled into the package (:mod:`.ahead`) when
they match the templates' source, and are otherwise compiled by the process that renders them
(once each; ``serve`` keeps them).  No compiled template is ever read from a cache folder,
since that would be code run from a place others may write (:mod:`benchproof.cache`)."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from benchproof import text
from benchproof.addresses import LINKS
from benchproof.pages import ahead
from benchproof.resources import templates_dir


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    loader = ahead.Loader(templates_dir(), ahead.COMPILED)
    env = ahead.environment(loader, {"point": text.point, "thousands": text.thousands})
    env.globals["link"] = LINKS  # the site's paths: {{ root }}{{ link.runs }}
    return env


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)


def asset(name: str) -> bytes:
    """A static file from ``templates/assets`` (scripts), as bytes."""
    return (templates_dir() / "assets" / name).read_bytes()


def stylesheet() -> bytes:
    """The site's one stylesheet: ``templates/assets/css/*.css`` joined in name order."""
    parts = sorted((templates_dir() / "assets" / "css").glob("*.css"))
    return b"\n".join(p.read_bytes() for p in parts)
