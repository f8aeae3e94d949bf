// templates/assets/report.js's view switching, in node: which values each chart selector offers
// (only those that, with the choices before it, lead to a view), which view they name, which
// choice is kept, and which view an address asks for.  Run by tests/site/test_page_scripts.py.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const report = require(path.join(__dirname, "..", "..", "templates", "assets", "report.js"));

// Views as #chart-views holds them: bars at a point (a value per dimension), sweeps across one.
function bars(section, metric, size, mode) {
  return { key: `${section}-${metric}-${size}-${mode}`, section: section, metric: metric, across: null,
           point: { size: size, mode: mode } };
}
function sweep(section, metric, mode) {
  return { key: `${section}-${metric}-across-${mode}`, section: section, metric: metric, across: "size",
           point: { mode: mode } };
}
const VIEWS = [
  bars("s1", "tok", "512", "cold"), bars("s1", "tok", "4096", "cold"), bars("s1", "tok", "512", "warm"),
  bars("s1", "wall", "512", "cold"),
  bars("s2", "tok", "512", "cold"),
  sweep("s1", "tok", "cold"),
];
const OPTIONS = {
  section: [["s1", "One"], ["s2", "Two"]],
  metric: [["tok", "Tok/s"], ["wall", "Wall"]],
  "dim-size": [["512", "512"], ["4096", "4096"]],
  "dim-mode": [["cold", "cold"], ["warm", "warm"]],
};
function selects(values, names) {
  return (names || ["section", "metric", "dim-size", "dim-mode"]).map((name) => ({
    name: name, all: OPTIONS[name], value: (values || {})[name] === undefined ? OPTIONS[name][0][0] : values[name],
  }));
}
const bar = (section, metric, size, mode) => VIEWS.find((v) => v.key === `${section}-${metric}-${size}-${mode}`);
const offered = (result) => result.choices.map((c) => c.options.map((o) => o[0]));
const chosen = (result) => result.choices.map((c) => c.value);

test("a view's value for each selector", () => {
  const v = bar("s1", "tok", "4096", "cold");
  assert.deepEqual(["section", "metric", "dim-size", "dim-mode"].map((n) => report.valueOf(v, n)),
    ["s1", "tok", "4096", "cold"]);
  assert.equal(report.valueOf(VIEWS[5], "dim-size"), null);   // the swept dimension: none
  assert.equal(report.valueOf(VIEWS[5], "across"), "size");
  assert.equal(report.valueOf({ point: { "dim-x": 1 } }, "dim-dim-x"), 1);
  assert.equal(report.valueOf({ point: {} }, "dim-toString"), null);   // not a property of every object
});

test("each selector offers only the values that lead to a view, given the ones before it", () => {
  const result = report.narrowChoices(VIEWS.slice(0, 5), selects({ section: "s2" }), null);
  assert.deepEqual(offered(result), [["s1", "s2"], ["tok"], ["512"], ["cold"]]);
  assert.deepEqual(chosen(result), ["s2", "tok", "512", "cold"]);
  assert.deepEqual(result.choices.map((c) => c.hidden), [false, true, true, true]);
  assert.equal(result.view, bar("s2", "tok", "512", "cold"));
});

test("a choice is kept where it still leads to a view", () => {
  const result = report.narrowChoices(VIEWS.slice(0, 5), selects({ "dim-mode": "warm" }), null);
  assert.deepEqual(chosen(result), ["s1", "tok", "512", "warm"]);
  assert.equal(result.view, bar("s1", "tok", "512", "warm"));
});

test("a choice that no longer leads to a view gives way to the first that does", () => {
  const result = report.narrowChoices(VIEWS.slice(0, 5), selects({ metric: "wall", "dim-size": "4096" }), null);
  assert.deepEqual(offered(result)[2], ["512"]);
  assert.deepEqual(chosen(result), ["s1", "wall", "512", "cold"]);
  assert.equal(result.view, bar("s1", "wall", "512", "cold"));
});

test("the wanted view's values come first, before the current choices", () => {
  const wanted = report.wantedFor(bar("s1", "tok", "4096", "cold"), ["section", "metric", "dim-size", "dim-mode"]);
  assert.deepEqual(wanted, { section: "s1", metric: "tok", "dim-size": "4096", "dim-mode": "cold" });
  const result = report.narrowChoices(VIEWS.slice(0, 5), selects({ "dim-mode": "warm" }), wanted);
  assert.equal(result.view, bar("s1", "tok", "4096", "cold"));
  assert.deepEqual(offered(result)[3], ["cold"]);
});

test("a wanted value no view has is not forced", () => {
  const result = report.narrowChoices(VIEWS.slice(0, 5), selects(), { section: "s9", metric: "tok" });
  assert.deepEqual(chosen(result), ["s1", "tok", "512", "cold"]);
});

test("a sweep: its swept dimension's selector has no choice and is hidden, the view is the sweep", () => {
  const result = report.narrowChoices([VIEWS[5]], selects(), null);
  assert.deepEqual(offered(result), [["s1"], ["tok"], [], ["cold"]]);
  assert.equal(result.choices[2].hidden, true);
  assert.equal(result.choices[2].value, "");
  assert.equal(result.view, VIEWS[5]);
});

test("the selectors of one section's chart offer that section's views only", () => {
  const scope = VIEWS.filter((v) => v.section === "s2");
  const result = report.narrowChoices(scope, selects({ metric: "wall" }, ["metric", "dim-size", "dim-mode"]), null);
  assert.deepEqual(offered(result), [["tok"], ["512"], ["cold"]]);
  assert.equal(result.view, scope[0]);
});

test("no view at all: nothing is named", () => {
  const result = report.narrowChoices([], selects(), null);
  assert.equal(result.view, null);
  assert.deepEqual(offered(result), [[], [], [], []]);
});

test("values are text, as a <select> holds them: a number asks for its option", () => {
  const numeric = [{ key: "n", section: "s1", metric: "tok", across: null, point: { size: 512 } }];
  const result = report.narrowChoices(numeric, selects({}, ["dim-size"]), { "dim-size": 512 });
  assert.deepEqual(chosen(result), ["512"]);
  assert.equal(result.view, null);   // the view holds the number, the selector the text: as on the page
});

test("a wanted value the selector has no option for leaves it empty, naming no view", () => {
  const scope = [bars("s1", "tok", "512", "cold"), bars("s1", "tok", "1024", "cold")];
  const result = report.narrowChoices(scope, selects({}, ["dim-size"]), { "dim-size": "1024" });
  assert.deepEqual(offered(result), [["512"]]);
  assert.deepEqual(chosen(result), [""]);
  assert.equal(result.view, null);
});

test("an address asks for a view", () => {
  assert.equal(report.viewOfHash("#view=s1-tok-512-cold"), "s1-tok-512-cold");
  assert.equal(report.viewOfHash("#view=a%20b"), "a b");
  assert.equal(report.viewOfHash("#view=%E0"), "%E0");     // malformed: kept, never an error
  assert.equal(report.viewOfHash("#finding-noisy-x"), null);
  assert.equal(report.viewOfHash(""), null);
  assert.equal(report.decoded("finding-%E2%9A%A0"), "finding-⚠");
  assert.equal(report.decoded("%"), "%");
});
