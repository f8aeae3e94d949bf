// templates/assets/runs.js's logic, in node: the filters, the sort (missing values last, text in
// natural order, a dimension in the report's order), the pages and the count line, the address
// of a view, permalinks and the chunks of records.  Run by tests/site/test_page_scripts.py.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const root = path.join(__dirname, "..", "..");
const runs = require(path.join(root, "templates", "assets", "runs.js"));
const text = require(path.join(root, "templates", "assets", "number.js"));

// A column as runs-data.js gives it once its chunks are read: codes into a dictionary, or values.
function coded(dict, codes) { return { dict: dict, store: Int32Array.from(codes) }; }
function plain(values, extra) { return Object.assign({ store: values.slice() }, extra || {}); }
const same = (typed) => Array.from(typed);

test("no filter keeps every record read, in file order", () => {
  assert.deepEqual(same(runs.filterIndices([], 4)), [0, 1, 2, 3]);
  assert.deepEqual(same(runs.filterIndices([], 0)), []);
});

test("a filter keeps the records whose code is the one chosen", () => {
  const arm = coded(["a", "b"], [0, 1, 0, 1, 0]);
  assert.deepEqual(same(runs.filterIndices([{ list: arm.store, want: 1 }], 5)), [1, 3]);
});

test("two filters keep the records that match both, not either", () => {
  const arm = [0, 1, 0, 1, 0, 0];
  const status = [0, 0, 1, 1, 1, 0];
  assert.deepEqual(same(runs.filterIndices([{ list: arm, want: 0 }, { list: status, want: 1 }], 6)), [2, 4]);
  assert.deepEqual(same(runs.filterIndices([{ list: status, want: 1 }, { list: arm, want: 0 }], 6)), [2, 4]);
});

test("three filters narrow step by step", () => {
  const a = [1, 1, 1, 1];
  const b = [1, 1, 0, 1];
  const c = [0, 1, 1, 1];
  assert.deepEqual(same(runs.filterIndices([{ list: a, want: 1 }, { list: b, want: 1 }, { list: c, want: 1 }], 4)),
    [1, 3]);
});

test("only the records read are filtered", () => {
  const arm = [0, 0, 0, 0];
  assert.deepEqual(same(runs.filterIndices([{ list: arm, want: 0 }], 2)), [0, 1]);
});

test("a filter does not read past the records read", () => {
  assert.deepEqual(same(runs.filterIndices([{ list: [0, 1, 0], want: 0 }], 2)), [0]);
  assert.deepEqual(same(runs.filterIndices([{ list: [0, 0, 0], want: 0 }, { list: [1, 0, 0], want: 0 }], 2)), [1]);
});

test("a value no record has matches nothing", () => {
  assert.deepEqual(same(runs.filterIndices([{ list: [0, 1], want: -1 }], 2)), []);
});

test("natural order: digits by their value, case ignored, then the text itself", () => {
  const order = ["r10", "R2", "r2", "r1", "a", "r02"].map(runs.naturalKey).toSorted(runs.naturalCompare)
    .map((k) => k.raw);
  assert.deepEqual(order, ["a", "r1", "R2", "r02", "r2", "r10"]);
  assert.equal(runs.naturalCompare(runs.naturalKey("x9"), runs.naturalKey("x10")) < 0, true);
  assert.equal(runs.naturalCompare(runs.naturalKey("x"), runs.naturalKey("x1")) < 0, true);
  assert.equal(runs.naturalCompare(runs.naturalKey("b"), runs.naturalKey("a")) > 0, true);
  assert.equal(runs.naturalCompare(runs.naturalKey("x007"), runs.naturalKey("x7")) < 0, true);   // then the raw text
  assert.equal(runs.naturalCompare(runs.naturalKey("same"), runs.naturalKey("same")), 0);
  assert.equal(runs.naturalCompare(runs.naturalKey("123456789012345678901"), runs.naturalKey("99")) > 0, true);
});

const cmp = (a, b) => Math.sign(runs.naturalCompare(runs.naturalKey(a), runs.naturalKey(b)));

test("natural order, each way round", () => {
  const pairs = [["ab", "b", -1], ["b", "ab", 1], ["r9", "r5", 1], ["r5", "r9", -1], ["r100", "r20", 1], ["r20", "r100", -1],
    ["x7", "x007", 1], ["x007", "x7", -1], ["x", "X1", -1], ["X1", "x", 1], ["r2", "R2", 1], ["R2", "r2", -1],
    ["_x", "ax", -1], ["ax", "_x", 1], ["a10b", "a10c", -1], ["10", "9", 1], ["a1bb", "a1c", -1], ["a1c", "a1bb", 1]];
  for (const [a, b, want] of pairs) { assert.equal(cmp(a, b), want, `${a} against ${b}`); }
});

function keyOf(col, loaded) { return same(runs.sortKeyOf(col, loaded, String)); }

test("a number column's key is its values, missing as NaN", () => {
  assert.deepEqual(keyOf(plain([3, null, 1.5, "2"], { numeric: true }), 4), [3, NaN, 1.5, 2]);
});

test("a coded number column's key is each code's value", () => {
  assert.deepEqual(keyOf({ numeric: true, dict: [512, 4096, null], store: [1, 0, 2] }, 3), [4096, 512, NaN]);
});

test("a text column is ranked in natural order", () => {
  assert.deepEqual(keyOf(plain(["r10", "r2", null, "r2", "a", "z"]), 6), [2, 1, NaN, 1, 0, 3]);
});

test("a text column is ranked among the records read only", () => {
  assert.deepEqual(keyOf(plain(["b", "d", "c"]), 2), [0, 1]);
  assert.deepEqual(keyOf({ dict: ["b", "d", "c"], store: [0, 1, 2] }, 2), [0, 2]);   // a dictionary ranks them all
});

test("a coded text column is ranked by the texts shown, not by code", () => {
  const key = runs.sortKeyOf({ dict: ["b", "a"], store: [0, 1, 0] }, 3, (v) => ({ a: "zz", b: "aa" })[v]);
  assert.deepEqual(same(key), [0, 1, 0]);
});

test("a ranked dictionary (a dimension) keeps its own order", () => {
  assert.deepEqual(keyOf({ ranked: true, dict: ["256K", "2M", "1K"], store: [2, 0, 1] }, 3), [2, 0, 1]);
});

test("sorting: ascending, descending, missing last both ways, ties in file order", () => {
  const key = [3, NaN, 1, 3, NaN, 2];
  const list = [0, 1, 2, 3, 4, 5];
  assert.deepEqual(same(runs.sortIndices(list, key, 1)), [2, 5, 0, 3, 1, 4]);
  assert.deepEqual(same(runs.sortIndices(list, key, -1)), [0, 3, 5, 2, 1, 4]);
  assert.deepEqual(same(runs.sortIndices([4, 1, 0], key, 1)), [0, 1, 4]);
  assert.deepEqual(same(runs.sortIndices([0, 1], [NaN, 1], 1)), [1, 0]);
  assert.deepEqual(same(runs.sortIndices([0, 1], [NaN, 1], -1)), [1, 0]);
  assert.deepEqual(same(runs.sortIndices([0, 1, 2], [NaN, NaN, 5], 1)), [2, 0, 1]);
  assert.deepEqual(same(runs.sortIndices([0, 1, 2, 3, 4], [7, 7, 7, 7, 7], 1)), [0, 1, 2, 3, 4]);
  assert.deepEqual(same(runs.sortIndices([0, 1, 2, 3, 4], [7, 7, 7, 7, 7], -1)), [0, 1, 2, 3, 4]);
  assert.deepEqual(same(runs.sortIndices([4, 1, 0], [7, 7, 7, 7, 7], 1)), [0, 1, 4]);      // ties: file order
  assert.deepEqual(same(runs.sortIndices([1, 0], [NaN, 5], 1)), [1, 0]);
  assert.deepEqual(same(runs.sortIndices([1, 0], [NaN, 5], -1)), [1, 0]);
});

test("a heading sorts, then reverses, then goes back to file order", () => {
  assert.deepEqual(runs.nextSort(null, 1, "tok_s"), { sort: "tok_s", dir: 1 });
  assert.deepEqual(runs.nextSort("tok_s", 1, "tok_s"), { sort: "tok_s", dir: -1 });
  assert.deepEqual(runs.nextSort("tok_s", -1, "tok_s"), { sort: null, dir: 1 });
  assert.deepEqual(runs.nextSort("tok_s", -1, "arm"), { sort: "arm", dir: 1 });
});

test("pages of 100: a page asked for is kept within the pages there are", () => {
  assert.equal(runs.PAGE_SIZE, 100);
  assert.deepEqual([0, 1, 100, 101, 200].map(runs.pageCount), [1, 1, 1, 2, 2]);
  assert.equal(runs.clampPage(5, 250), 2);
  assert.equal(runs.clampPage(-1, 250), 0);
  assert.equal(runs.clampPage(1, 0), 0);
  assert.deepEqual([0, 99, 100, 99963].map(runs.pageOf), [0, 0, 1, 999]);
});

const whole = text.thousands;
function count(o) {
  return runs.countText(Object.assign({ n: 250, loaded: 250, failed: false, filters: 0, page: 0, notice: "",
    records: "downloads/records.csv" }, o), whole);
}

test("the count line once every record is read", () => {
  assert.equal(count({ total: 250 }), "Showing 1–100 of all 250 records");
  assert.equal(count({ total: 250, page: 2 }), "Showing 201–250 of all 250 records");
  assert.equal(count({ total: 1, n: 1, loaded: 1 }), "Showing 1–1 of all 1 record");
  assert.equal(count({ total: 7, filters: 2 }), "Showing 1–7 of 7 matching records (250 recorded)");
  assert.equal(count({ total: 1, filters: 1 }), "Showing 1–1 of 1 matching record (250 recorded)");
  assert.equal(count({ total: 0, filters: 1 }), "No record matches these filters (250 recorded).");
  assert.equal(count({ total: 100000, n: 100000, loaded: 100000, page: 999 }),
    "Showing 99,901–100,000 of all 100,000 records");
});

test("the count line while records are still being read", () => {
  assert.equal(count({ total: 100, loaded: 100 }),
    "Showing 1–100 of 100 records among the first 100 read (250 recorded; reading the others…)");
  assert.equal(count({ total: 3, loaded: 100, filters: 1 }),
    "Showing 1–3 of 3 matching records among the first 100 read (250 recorded; reading the others…)");
  assert.equal(count({ total: 0, loaded: 100, filters: 1 }),
    "No record among the first 100 read matches these filters (250 recorded; reading the others…)");
  assert.equal(count({ total: 150, loaded: 150, page: 1 }),
    "Showing 101–150 of 150 records among the first 150 read (250 recorded; reading the others…)");
  assert.equal(count({ total: 150, loaded: 150 }),
    "Showing 1–100 of 150 records among the first 150 read (250 recorded; reading the others…)");
  assert.equal(count({ total: 1, loaded: 100, filters: 1 }),
    "Showing 1–1 of 1 matching record among the first 100 read (250 recorded; reading the others…)");
});

test("the count line when a chunk did not load, and with a notice", () => {
  assert.equal(count({ total: 100, loaded: 100, failed: true }),
    "Showing 1–100 of all 100 records Some records did not load; every record is in downloads/records.csv.");
  assert.equal(count({ total: 250, notice: runs.missingNotice("x-1") }),
    "No record has the run id “x-1”. Showing 1–100 of all 250 records");
});

test("what the page announces while reading", () => {
  assert.equal(runs.readState(100, 250, false), "reading");
  assert.equal(runs.readState(250, 250, false), "complete");
  assert.equal(runs.readState(100, 250, true), "failed");
  assert.equal(runs.readState(250, 250, true), "failed");
});

const FILTERS = [
  { column: "arm", options: [{ value: "a" }, { value: "b&c" }] },
  { column: "status", options: [{ value: "ok" }, { value: "failed" }] },
  { column: "size", options: [{ value: 512 }, { value: "4K" }] },
  { column: "audit", options: [{ value: "flagged" }] },
];
const ROLES = { audit: "audit" };
const nameOf = (column) => runs.paramName(column, ROLES[column] || null);
const sortable = (column) => column === "tok_s";

test("a filter's name in the address", () => {
  assert.deepEqual(["section", "arm", "status", "audit", "size"].map(nameOf),
    ["section", "arm", "status", "audit", "d.size"]);
  assert.equal(runs.paramName("flags", "audit"), "audit");
});

test("a view's address: filters in page order, then sort, direction and page", () => {
  const view = { filters: { size: 1, arm: 1 }, sort: "tok_s", dir: -1, page: 2 };
  assert.equal(runs.hashText(FILTERS, view, nameOf), "arm=b%26c&d.size=4K&sort=tok_s&dir=desc&page=3");
  assert.equal(runs.hashText(FILTERS, { filters: {}, sort: null, dir: 1, page: 0 }, nameOf), "");
  assert.equal(runs.hashText(FILTERS, { filters: { status: 0 }, sort: "arm", dir: 1, page: 0 }, nameOf),
    "status=ok&sort=arm");
  assert.equal(runs.hashText(FILTERS, { filters: { size: 0 }, sort: null, dir: -1, page: 1 }, nameOf), "d.size=512&page=2");
});

test("an address read back gives the view it was written from", () => {
  const view = { filters: { arm: 1, size: 1, audit: 0 }, sort: "tok_s", dir: -1, page: 2 };
  const hash = "#" + runs.hashText(FILTERS, view, nameOf);
  assert.deepEqual(runs.readHash(hash, FILTERS, nameOf, sortable), view);
  assert.deepEqual(runs.readHash("d.size=512", FILTERS, nameOf, sortable),
    { filters: { size: 0 }, sort: null, dir: 1, page: 0 });
});

test("what an address asks for that the page does not have is left out", () => {
  assert.deepEqual(runs.readHash("#arm=zzz&sort=secret&dir=up&page=x", FILTERS, nameOf, sortable),
    { filters: {}, sort: null, dir: 1, page: 0 });
  assert.deepEqual(runs.readHash("#page=0", FILTERS, nameOf, sortable).page, 0);
  assert.deepEqual(runs.readHash("#page=-3", FILTERS, nameOf, sortable).page, 0);
  assert.deepEqual(runs.readHash("#size=512", FILTERS, nameOf, sortable).filters, {});   // a dimension is d.size
});

test("a permalink: its address, and the run id read back", () => {
  assert.equal(runs.runFragment("nov3-a-512-r1"), "#run-nov3-a-512-r1");
  assert.equal(runs.runFragment("runs/r.csv:7"), "#run-runs/r.csv:7");
  assert.equal(runs.runFragment("a#b c"), "#run-a%23b%20c");
  for (const id of ["runs/r.csv:7", "a#b c", "ünï", "100%"]) {
    assert.equal(runs.runOfHash(runs.runFragment(id)), id);
  }
  assert.equal(runs.runOfHash("#run-%E0"), "%E0");              // malformed: kept as written
  assert.equal(runs.runOfHash("#arm=a"), null);
  assert.equal(runs.runOfHash(""), null);
});

test("a permalink shows a record read, waits while others come, else says it is missing", () => {
  assert.equal(runs.permalinkStep(true, 100, 250, false), "show");
  assert.equal(runs.permalinkStep(false, 100, 250, false), "wait");
  assert.equal(runs.permalinkStep(false, 250, 250, false), "missing");
  assert.equal(runs.permalinkStep(false, 100, 250, true), "missing");
  assert.equal(runs.permalinkStep(true, 100, 250, true), "show");
});

test("chunks fill each column's store in place and count the records read", () => {
  const columns = [{ store: new Int32Array(5) }, { store: Array.from({ length: 5 }) }];
  let loaded = runs.addChunk(columns, { start: 0, n: 2, data: [[1, 0], ["x", "y"]] }, 0);
  assert.equal(loaded, 2);
  loaded = runs.addChunk(columns, { start: 2, n: 3, data: [[1, 1, 0], ["z", null, "w"]] }, loaded);
  assert.equal(loaded, 5);
  assert.deepEqual(same(columns[0].store), [1, 0, 1, 1, 0]);
  assert.deepEqual(columns[1].store, ["x", "y", "z", null, "w"]);
  assert.equal(runs.addChunk(columns, { start: 0, n: 2, data: [[0, 0], ["x", "y"]] }, loaded), 5);   // never shrinks
});

test("a record's value: its code's entry in the dictionary, or the value itself", () => {
  const arm = coded(["a", "b", null], [1, 2, 0]);
  assert.deepEqual([0, 1, 2].map((i) => runs.value(arm, i)), ["b", null, "a"]);
  assert.equal(runs.value(plain([1.5, null]), 1), null);
  assert.equal(runs.value(plain([1.5, null]), 0), 1.5);
});

test("an evidence link escapes each part of the path and keeps its slashes", () => {
  assert.equal(runs.hrefPath("evidence/a b/log #1.txt"), "evidence/a%20b/log%20%231.txt");
  assert.equal(runs.hrefPath("evidence/ü?.txt"), "evidence/%C3%BC%3F.txt");
});
