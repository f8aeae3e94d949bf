"""The Jinja2 environment: autoescape on, undefined names are errors, formatting in filters, the
site's paths in ``link`` (:data:`benchproof.addresses.LINKS`)."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from benchproof import text
from benchproof.addresses import LINKS
from benchproof.resources import templates_dir


class _Loader(jinja2.FileSystemLoader):
    """Templates compiled once: the Python code Jinja2 makes of a template is kept in the chart
    cache (:mod:`benchproof.cache`: verified, keyed by Jinja2's version and the template's
    text), so a build does not parse every template again."""

    cache = None   # the build's Cache (use_cache); the default one when None

    def load(self, environment, name, globals=None):
        from importlib.metadata import version

        from benchproof.cache import Cache

        source, filename, uptodate = self.get_source(environment, name)
        code = (self.cache or Cache.default()).get(
            "jinja", f"jinja2 {version('jinja2')}", f"{name}\n{source}",
            lambda: environment.compile(source, name, filename, raw=True))
        return environment.template_class.from_code(environment, compile(code, filename, "exec"),
                                                     environment.make_globals(globals), uptodate)


def use_cache(cache) -> None:
    """Where compiled templates are kept for this build (None: the default cache folder;
    ``Cache.off()``: nowhere).  Templates already compiled in this process are compiled again
    when the folder changes, so that each folder gets its entries."""
    from benchproof.cache import Cache

    cache = cache or Cache.default()
    loader = environment().loader
    if loader.cache is None or (loader.cache.folder, loader.cache.write) != (cache.folder, cache.write):  # type: ignore[union-attr]
        loader.cache = cache                                          # type: ignore[union-attr]
        environment().cache.clear()


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=_Loader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["point"] = text.point
    env.filters["thousands"] = text.thousands
    env.globals["link"] = LINKS   # the site's paths: {{ root }}{{ link.runs }}
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
