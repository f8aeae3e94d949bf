"""YAML attacks: alias bombs, aliases that contain themselves, nesting deeper than a reader
should follow, all refused at their line while reading, by ``check`` as by ``build``."""

from __future__ import annotations

import json
import time

import pytest

from hostile.attack import ARMS, REPORT, check, project, refused, refused_both

BOMB = """\
label: Bomb
{key}:
  l0: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
  l1: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
  l2: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
  l3: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
  l4: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
  l5: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
  l6: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
  l7: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
  l8: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


@pytest.mark.parametrize("key", ["settings", "subject", "hardware"])
def test_an_alias_bomb_is_refused_while_reading(tmp_path, key):
    root = project(tmp_path / "p", arms={**ARMS, "a": BOMB.format(key=key)})
    start = time.monotonic()
    refused_both(root, tmp_path / "site", "arms/a.yaml:7", "aliases expand to more than")
    assert time.monotonic() - start < 30


def test_a_few_aliases_are_fine(tmp_path):
    arm = (
        "label: A\nsettings:\n  base: &base {threads: 8, batch: 512}\n  tuned: {<<: *base, batch: 1024}\n"
        "  again: *base\n"
    )
    root = project(tmp_path / "p", arms={**ARMS, "a": arm})
    run = check(root)
    assert run.code == 0, run.output


@pytest.mark.parametrize(
    "text, line",
    [
        ("label: A\nsettings: &s\n  self: *s\n", 3),
        ("label: A\nhardware: &h\n  list: [1, *h]\n", 3),
    ],
)
def test_an_alias_inside_the_value_it_names_is_refused(tmp_path, text, line):
    root = project(tmp_path / "p", arms={**ARMS, "a": text})
    refused_both(root, tmp_path / "site", f"arms/a.yaml:{line}", "refers to a value that contains it")


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{x: ", "}")])
def test_yaml_nested_too_deeply_names_its_line(tmp_path, opener, closer):
    depth = 5000
    arm = "label: A\n\nsettings:\n  deep: " + opener * depth + "1" + closer * depth + "\n"
    root = project(tmp_path / "p", arms={**ARMS, "a": arm})
    refused_both(root, tmp_path / "site", "arms/a.yaml:4", "nested more than")


def test_a_json_array_nested_too_deeply_names_its_line(tmp_path):
    rows = [json.dumps(dict(arm="a", status="ok", repeat=i, size=512, tok_s=1)) for i in (1, 2, 3)]
    rows[1] = rows[1][:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"
    root = project(
        tmp_path / "p",
        arms={"a": "label: A\n"},
        report=REPORT.replace("[a, b]", "[a]"),
        runs={"r.json": "[\n" + ",\n".join(rows) + "\n]\n"},
    )
    refused(check(root), "runs/r.json:3", "nested too deeply")
