"""Templates compiled ahead by the install (benchproof.pages.ahead): run when they match the
templates and the Jinja2 in use, ignored otherwise, and the same pages either way."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import jinja2
import pytest

from benchproof.pages import ahead
from benchproof.resources import templates_dir
from support.common import REPO, build, tree

FILTERS = {"point": str, "thousands": str}


def _env(templates: Path, compiled: Path) -> jinja2.Environment:
    return ahead.environment(ahead.Loader(templates, compiled), FILTERS)


def _ran_ahead(template: jinja2.Template, compiled: Path) -> bool:
    return Path(template.root_render_func.__code__.co_filename).parent == compiled


@pytest.fixture
def copied(tmp_path):
    """A copy of the templates and their modules compiled ahead."""
    templates, compiled = tmp_path / "templates", tmp_path / "compiled"
    shutil.copytree(templates_dir(), templates)
    (templates / "tiny.html").write_text("installed {{ 1 | thousands }}", encoding="utf-8")
    ahead.write(templates, compiled)
    return templates, compiled


def test_every_template_is_compiled_and_run_from_its_module(copied):
    templates, compiled = copied
    names = sorted(str(p.relative_to(templates)) for p in templates.rglob("*.html"))
    assert "partials/_chart.html" in names and "tiny.html" in names
    assert sorted(p.name for p in compiled.glob("*.py")) == sorted(ahead.module_name(n) for n in names)
    env = _env(templates, compiled)
    for name in names:
        template = env.get_template(name)
        assert _ran_ahead(template, compiled), name
        assert template.filename == str(templates / name)  # errors name the template, not the module


def test_a_template_edited_after_the_install_is_compiled_from_its_source(copied):
    templates, compiled = copied
    page = templates / "tiny.html"
    assert _env(templates, compiled).get_template("tiny.html").render() == "installed 1"
    page.write_text("edited since {{ 2 | thousands }}", encoding="utf-8")
    env = _env(templates, compiled)
    template = env.get_template("tiny.html")
    assert not _ran_ahead(template, compiled)
    assert template.render() == "edited since 2"
    assert _ran_ahead(env.get_template("base.html"), compiled)  # the others still run ahead


@pytest.mark.parametrize("damage", ["another jinja2", "damaged body", "not text", "missing"])
def test_a_module_that_does_not_match_is_never_run(copied, damage):
    templates, compiled = copied
    module = compiled / ahead.module_name("tiny.html")
    code = module.read_text(encoding="utf-8")
    if damage == "another jinja2":
        module.write_text(code.replace(f"jinja2 {jinja2.__version__}", "jinja2 0.0.1"), encoding="utf-8")
    elif damage == "damaged body":
        module.write_text(code[: len(code) // 2], encoding="utf-8")  # cut short: the header is intact
    elif damage == "not text":
        module.write_bytes(b"\xff\xfe\x00garbage")
    else:
        module.unlink()
    template = _env(templates, compiled).get_template("tiny.html")
    assert not _ran_ahead(template, compiled)
    assert template.render() == "installed 1"  # compiled from its source


def test_the_site_is_the_same_byte_for_byte_with_or_without_the_compiled_templates(tmp_path, monkeypatch):
    from benchproof.pages import render

    project = REPO / "data" / "example"
    compiled = tmp_path / "compiled"
    ahead.write(templates_dir(), compiled)
    sites = {}
    for label, folder in (("ahead", compiled), ("from source", tmp_path / "none")):
        render.environment.cache_clear()
        monkeypatch.setattr(ahead, "COMPILED", folder)
        env = render.environment()
        assert _ran_ahead(env.get_template("report.html"), compiled) == (label == "ahead")
        result = build(project, tmp_path / label)
        assert result.exit_code == 0, result.output
        sites[label] = tree(tmp_path / label)
    render.environment.cache_clear()
    assert sites["ahead"] == sites["from source"]


def test_the_wheel_and_the_editable_install_both_compile_the_templates(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "hatch_build.py", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for folder in ("generator", "templates", "data/example"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", ahead.FOLDER))
    names = sorted(
        ahead.module_name(str(p.relative_to(REPO / "templates"))) for p in (REPO / "templates").rglob("*.html")
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import hatchling.build as b; print(b.build_wheel('wheel'));print(b.build_editable('editable'))",
        ],
        cwd=source,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    wheel, editable = done.stdout.split()
    listed = zipfile.ZipFile(source / "wheel" / wheel).namelist()
    assert sorted(n.rsplit("/", 1)[1] for n in listed if n.startswith(f"benchproof/pages/{ahead.FOLDER}/")) == names
    assert sorted(p.name for p in (source / "generator/benchproof/pages" / ahead.FOLDER).glob("*.py")) == names
    assert not any(f"pages/{ahead.FOLDER}/" in n for n in zipfile.ZipFile(source / "editable" / editable).namelist())
