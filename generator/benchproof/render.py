"""The Jinja2 environment: autoescape on, undefined names are errors, formatting in filters."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from benchproof import formatting
from benchproof.resources import templates_dir


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["point"] = formatting.point
    return env


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)


def asset(name: str) -> bytes:
    """A static file from ``templates/assets`` (stylesheet, scripts), as bytes."""
    return (templates_dir() / "assets" / name).read_bytes()
