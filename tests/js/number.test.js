// templates/assets/number.js against the table of cases Python's benchproof.text.number is
// held to (tests/fixtures/number_cases.json): `node --test tests/js/`, run by
// tests/site/test_numbers.py (and so by scripts/test.sh).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..", "..");
const text = require(path.join(root, "templates", "assets", "number.js"));
const table = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "fixtures", "number_cases.json"), "utf8"));
const SPECIAL = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };

function valueOf(written) {
  return typeof written === "string" ? SPECIAL[written] : written;
}

for (const c of table.cases) {
  test(`${JSON.stringify(c.value)} at ${c.decimals} decimals reads ${c.text} (${c.why})`, () => {
    assert.equal(text.number(valueOf(c.value), c.decimals), c.text);
  });
}

test("the table holds the cases the rule is about", () => {
  const texts = new Set(table.cases.map((c) => c.text));
  for (const wanted of ["0.004", "1e-310", "2.5", "1,234.50", "--", "-0.004", "1.8e+308"]) {
    assert.ok(texts.has(wanted), wanted);
  }
  assert.ok(table.cases.some((c) => Object.is(c.value, -0) && c.text === "0.00"), "-0.0 reads 0.00");
});

test("a count has thousands separators and no decimals", () => {
  assert.equal(text.thousands(100000), "100,000");
  assert.equal(text.thousands(0), "0");
  assert.equal(text.thousands(999), "999");
});

test("what is not a number is not measured", () => {
  for (const value of [undefined, "12", true, {}]) {
    assert.equal(text.number(value, 2), "--");
  }
});
