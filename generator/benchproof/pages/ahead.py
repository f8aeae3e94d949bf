"""Templates compiled ahead, when benchproof is installed, into the package itself.

Compiling the templates costs a build about 0.25 s, whatever its size.  The install does it
once: the wheel's build hook (``hatch_build.py``) writes one Python module per template into
``benchproof/pages/compiled/``, beside the package's own code, and an editable install writes
them into the checkout's package folder.  Nothing is written there at run time, and the
project's cache folder still never holds code (:mod:`benchproof.cache`).

Each module starts with two comment lines: the Jinja2 version that wrote it and the SHA-256
of the template's source.  :class:`Loader` runs a module only when both match the template
and the Jinja2 being used; otherwise (a template edited since, another Jinja2, no module) it
compiles the template from source, as if nothing had been compiled ahead.

This module needs only Jinja2 and the standard library: the build hook loads it by path,
before benchproof and its dependencies are installed.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

import jinja2

# the renderer's settings: the compiled code depends on them, so both sides read them here
OPTIONS: dict[str, Any] = {
    "autoescape": True,
    "undefined": jinja2.StrictUndefined,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
}
FILTERS = ("point", "thousands")  # the renderer's filters (the compiler checks their names)
FOLDER = "compiled"  # beside this module: benchproof/pages/compiled in the wheel
COMPILED = Path(__file__).resolve().parent / FOLDER  # read by the renderer, written by an editable install
SUFFIX = ".html"


def environment(loader: jinja2.BaseLoader, filters: Mapping[str, Callable[..., Any]]) -> jinja2.Environment:
    """An environment with the renderer's settings and the given filters (exactly :data:`FILTERS`)."""
    if set(filters) != set(FILTERS):
        raise ValueError(f"the renderer's filters are {sorted(FILTERS)}, not {sorted(filters)}")
    env = jinja2.Environment(loader=loader, **OPTIONS)
    env.filters.update(filters)
    return env


def module_name(template: str) -> str:
    """``partials/_chart.html`` → ``partials___chart_html.py``: one flat folder, no dots."""
    return template.replace("/", "__").replace(".", "_") + ".py"


def header(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    return f"# compiled ahead by jinja2 {jinja2.__version__}\n# source sha256 {digest}\n"


def write(templates: Path, out: Path) -> None:
    """Compile every template under ``templates`` into ``out`` (emptied first)."""
    loader = jinja2.FileSystemLoader(str(templates))
    env = environment(loader, {name: _unused for name in FILTERS})
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.py"):
        old.unlink()
    for name in sorted(env.list_templates(filter_func=lambda name: name.endswith(SUFFIX))):
        source, filename, _ = loader.get_source(env, name)
        code = env.compile(source, name, filename, raw=True)
        (out / module_name(name)).write_text(header(source) + code, encoding="utf-8")


def _unused(*_: object) -> object:  # a filter that only needs to exist while compiling
    raise AssertionError("compile-only environment")


class Loader(jinja2.FileSystemLoader):
    """The templates folder, run from the compiled module when it matches the template's source."""

    def __init__(self, templates: Path, compiled: Path) -> None:
        super().__init__(str(templates))
        self.compiled = compiled

    def load(
        self, environment: jinja2.Environment, name: str, globals: MutableMapping[str, Any] | None = None
    ) -> jinja2.Template:
        source, filename, uptodate = self.get_source(environment, name)
        path = self.compiled / module_name(name)
        if not _matches(path, header(source)):
            return super().load(environment, name, globals)
        spec = importlib.util.spec_from_file_location(f"benchproof.pages.compiled.{path.stem}", path)
        if spec is None or spec.loader is None:  # cannot happen for a .py path; the source then
            return super().load(environment, name, globals)
        module = importlib.util.module_from_spec(spec)
        vars(module)["environment"] = environment  # as jinja2's own Template.from_code gives it
        try:
            spec.loader.exec_module(module)  # a fresh namespace each time: one per environment
            template = environment.template_class.from_module_dict(environment, vars(module), globals or {})
        except Exception:  # a damaged module: the source is the truth, and it is right here
            return super().load(environment, name, globals)
        template.filename, template._uptodate = filename, uptodate  # errors name the .html; serve reloads
        return template


def _matches(path: Path, expected: str) -> bool:
    try:
        with path.open(encoding="utf-8") as module:
            return module.readline() + module.readline() == expected
    except (OSError, ValueError):  # no module, or not text
        return False
