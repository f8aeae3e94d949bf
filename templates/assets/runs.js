/* benchproof runs.html: every recorded repetition, filtered, sorted and paged in the browser
 * from window.benchproofRuns (runs-data.js, columnar; see benchproof/pages/runs_page.py). The
 * first records come with it; the others arrive in chunks (runs-data-1.js, ...), read one after
 * the other while the first page is already on screen; filters and sorting cover what is read.
 * Only one page of rows is ever in the DOM. Every value is inserted as text (textContent),
 * never as HTML. A missing value (null, shown as "--") sorts last in both directions.
 * The filters, sort and page live in the address (#arm=x&status=failed&sort=col&dir=desc);
 * #run-<id> opens the page holding that record. Nothing is fetched from the network.
 *
 * What the page is doing is announced on the table: data-state="reading" while chunks are
 * still coming, "complete" once every record is read, "failed" when a chunk did not load;
 * data-read holds how many records are read; data-target the run id a permalink opened
 * (empty when it names no record). Each change of them also fires the event "benchproof:runs"
 * on the document. Tests and tools wait for these, never for time.
 *
 * The filtering, sorting, paging, address and chunk logic is a set of pure functions (the first
 * half of this file); node loads them as a module (tests/js/runs.test.js), the page runs them
 * on its data (the second half). */
(function (root) {
  "use strict";
  const PAGE_SIZE = 100;
  const FIXED_FILTERS = ["section", "arm", "status"];

  // ---- chunks ----------------------------------------------------------------------------

  // Copy a chunk's values into each column's store (codes into its dictionary, or the values);
  // returns how many records are read once it is in: chunks come in order, never shrink it.
  function addChunk(columns, chunk, loaded) {
    columns.forEach(function (col, k) {
      const list = chunk.data[k];
      const store = col.store;
      for (let j = 0; j < list.length; j++) { store[chunk.start + j] = list[j]; }
    });
    return Math.max(loaded, chunk.start + chunk.n);
  }

  // "reading" while chunks are coming, "complete" once every record is read, "failed" when a
  // chunk did not load.
  function readState(loaded, n, failed) {
    return failed ? "failed" : loaded < n ? "reading" : "complete";
  }

  // A record's value in a column: its code's dictionary entry, or the value itself.
  function value(col, i) {
    return col.dict ? col.dict[col.store[i]] : col.store[i];
  }

  // An evidence path as a link: each part escaped, the slashes kept.
  function hrefPath(path) {
    return String(path).split("/").map(encodeURIComponent).join("/");
  }

  // ---- filtering -------------------------------------------------------------------------

  // The records (among the first ``loaded``) whose value in each test's list is the wanted one:
  // ``tests`` is [{list, want}], a column's store and the code (or value) chosen in its filter.
  function filterIndices(tests, loaded) {
    const out = new Int32Array(loaded);
    let m = 0;
    if (!tests.length) {
      for (let i = 0; i < loaded; i++) { out[i] = i; }
      return out;
    }
    // one pass over the first column (a tight loop over a typed array), then the few records
    // it keeps are checked against the others
    const list = tests[0].list;
    const want = tests[0].want;
    for (let i = 0; i < loaded; i++) {
      if (list[i] === want) { out[m++] = i; }
    }
    for (let t = 1; t < tests.length; t++) {
      const other = tests[t].list;
      const wanted = tests[t].want;
      let k = 0;
      for (let j = 0; j < m; j++) {
        if (other[out[j]] === wanted) { out[k++] = out[j]; }
      }
      m = k;
    }
    return out.slice(0, m);
  }

  // ---- sorting ---------------------------------------------------------------------------

  // Text order: case-insensitive, runs of digits by their value ("r2" before "r10"),
  // the same in every browser and locale.
  function naturalKey(shown) {
    return { parts: shown.toLowerCase().split(/(\d+)/), raw: shown };   // odd parts are digit runs
  }

  function naturalCompare(a, b) {
    const m = Math.min(a.parts.length, b.parts.length);
    for (let i = 0; i < m; i++) {
      const x = a.parts[i];
      const y = b.parts[i];
      if (x === y) { continue; }
      if (i % 2 === 0) { return x < y ? -1 : 1; }
      const p = x.replace(/^0+/, "");                  // digits: compare as whole numbers, any length
      const q = y.replace(/^0+/, "");
      if (p.length !== q.length) { return p.length - q.length; }
      if (p !== q) { return p < q ? -1 : 1; }
    }
    if (a.parts.length !== b.parts.length) { return a.parts.length - b.parts.length; }
    return a.raw < b.raw ? -1 : a.raw > b.raw ? 1 : 0;
  }

  // A column's sort key for each of the first ``loaded`` records (NaN: missing): a number
  // column's values; a text column's rank among its distinct texts as ``shown`` writes them
  // (numbers inside text in numeric order), or the dictionary's own order when it is ranked
  // (a dimension's values in the report's order: 256K before 2M).
  function sortKeyOf(col, loaded, shown) {
    const key = new Float64Array(loaded);
    if (col.numeric) {
      for (let i = 0; i < loaded; i++) {
        const v = value(col, i);
        key[i] = v === null ? NaN : Number(v);
      }
      return key;
    }
    let distinct = col.dict;
    let codes = col.dict ? col.store : null;
    if (!codes) {
      const seen = new Map();
      distinct = [];
      codes = new Int32Array(loaded);
      for (let i = 0; i < loaded; i++) {
        const v = col.store[i];
        let c = seen.get(v);
        if (c === undefined) { c = distinct.length; seen.set(v, c); distinct.push(v); }
        codes[i] = c;
      }
    }
    const keys = distinct.map(function (v) { return v === null ? null : naturalKey(shown(v)); });
    const order = [];
    for (let j = 0; j < distinct.length; j++) { if (keys[j] !== null) { order.push(j); } }
    if (!col.ranked) { order.sort(function (a, b) { return naturalCompare(keys[a], keys[b]); }); }
    const rank = new Float64Array(distinct.length).fill(NaN);
    order.forEach(function (j, r) { rank[j] = r; });
    for (let i = 0; i < loaded; i++) { key[i] = rank[codes[i]]; }
    return key;
  }

  // ``list`` ordered by ``key`` (dir 1 ascending, -1 descending): missing values last whatever
  // the direction, ties in file order.
  function sortIndices(list, key, dir) {
    const order = Array.from(list);
    order.sort(function (a, b) {
      const x = key[a];
      const y = key[b];
      if (x !== x) { return y !== y ? a - b : 1; }   // missing last, whatever the direction
      if (y !== y) { return -1; }
      if (x < y) { return -dir; }
      if (x > y) { return dir; }
      return a - b;                                 // ties keep file order
    });
    return Int32Array.from(order);
  }

  // A click on a column heading: sort by it, then the other way, then back to file order.
  function nextSort(sort, dir, column) {
    if (sort !== column) { return { sort: column, dir: 1 }; }
    if (dir > 0) { return { sort: column, dir: -1 }; }
    return { sort: null, dir: 1 };
  }

  // ---- paging and the count line ---------------------------------------------------------

  function pageCount(total) {
    return Math.max(1, Math.ceil(total / PAGE_SIZE));
  }

  // The page shown for a page asked for: within the pages there are.
  function clampPage(page, total) {
    return Math.min(Math.max(0, page), pageCount(total) - 1);
  }

  function pageOf(position) {
    return Math.floor(position / PAGE_SIZE);
  }

  // The count line: which records are shown, of how many, while reading or once read.
  // ``o``: {total (matching), n (recorded), loaded, failed, filters (how many are set), page
  // (shown), notice, records (the CSV's address)}; ``whole`` writes a count (number.js).
  function countText(o, whole) {
    const total = o.total;
    const first = o.page * PAGE_SIZE + 1;
    let line;
    if (!total) {
      line = "No record matches these filters (" + whole(o.n) + " recorded).";
    } else {
      const last = Math.min(total, first + PAGE_SIZE - 1);
      line = "Showing " + whole(first) + "–" + whole(last) + " of " +
        (o.filters ? whole(total) + " matching record" + (total === 1 ? "" : "s") + " (" + whole(o.n) + " recorded)"
                   : "all " + whole(total) + " record" + (total === 1 ? "" : "s"));
    }
    if (o.loaded < o.n && !o.failed) {
      line = total ? "Showing " + whole(first) + "–" + whole(Math.min(total, first - 1 + PAGE_SIZE)) + " of " +
        whole(total) + (o.filters ? " matching" : "") + " record" + (total === 1 ? "" : "s") +
        " among the first " + whole(o.loaded) + " read"
        : "No record among the first " + whole(o.loaded) + " read matches these filters";
      line += " (" + whole(o.n) + " recorded; reading the others\u2026)";
    } else if (o.failed) {
      line += " Some records did not load; every record is in " + o.records + ".";
    }
    return (o.notice ? o.notice + " " : "") + line;
  }

  // ---- the address -----------------------------------------------------------------------

  // A filter's name in the address: section, arm, status, audit, or d.<dimension>.
  function paramName(column, role) {
    if (role === "audit") { return "audit"; }
    return FIXED_FILTERS.indexOf(column) >= 0 ? column : "d." + column;
  }

  // The address of a view: ``filters`` the page's filters ({column, options: [{value}]}),
  // ``view`` {filters: column → option index, sort, dir, page}, ``nameOf`` column → its name.
  function hashText(filters, view, nameOf) {
    const parts = [];
    filters.forEach(function (f) {
      const k = view.filters[f.column];
      if (k === undefined) { return; }
      parts.push(encodeURIComponent(nameOf(f.column)) + "=" + encodeURIComponent(String(f.options[k].value)));
    });
    if (view.sort) {
      parts.push("sort=" + encodeURIComponent(view.sort));
      if (view.dir < 0) { parts.push("dir=desc"); }
    }
    if (view.page > 0) { parts.push("page=" + (view.page + 1)); }
    return parts.join("&");
  }

  // The view an address asks for (the reverse of hashText): a value no option has, a column
  // that cannot be sorted (``sortable``) or a page that is not a number is left out.
  function readHash(hash, filters, nameOf, sortable) {
    const params = new URLSearchParams(hash.replace(/^#/, ""));
    const chosen = {};
    filters.forEach(function (f) {
      const wanted = params.get(nameOf(f.column));   // null: not asked for, and no option is null
      for (let k = 0; k < f.options.length; k++) {
        if (String(f.options[k].value) === wanted) { chosen[f.column] = k; return; }
      }
    });
    const sort = params.get("sort");
    const page = parseInt(params.get("page"), 10);   // none: NaN, the first page
    return {
      filters: chosen,
      sort: sort && sortable(sort) ? sort : null,
      dir: params.get("dir") === "desc" ? -1 : 1,
      page: isFinite(page) && page > 0 ? page - 1 : 0,
    };
  }

  // ---- permalinks ------------------------------------------------------------------------

  function runFragment(id) {
    return "#run-" + encodeURI(id).replace(/#/g, "%23");
  }

  function decoded(fragment) {
    try { return decodeURIComponent(fragment); } catch { return fragment; }
  }

  // The run id a permalink (#run-<id>) names, or null for any other address.
  function runOfHash(hash) {
    return hash.indexOf("#run-") === 0 ? decoded(hash.slice(5)) : null;
  }

  // What a permalink does: "show" the record when it is read, "wait" for it while records are
  // still coming, else say it is "missing".
  function permalinkStep(found, loaded, n, failed) {
    if (found) { return "show"; }
    return loaded < n && !failed ? "wait" : "missing";
  }

  function missingNotice(runId) {
    return "No record has the run id \u201c" + runId + "\u201d.";
  }

  const logic = {
    PAGE_SIZE: PAGE_SIZE, addChunk: addChunk, readState: readState, value: value, hrefPath: hrefPath,
    filterIndices: filterIndices,
    naturalKey: naturalKey, naturalCompare: naturalCompare, sortKeyOf: sortKeyOf, sortIndices: sortIndices,
    nextSort: nextSort, pageCount: pageCount, clampPage: clampPage, pageOf: pageOf, countText: countText,
    paramName: paramName, hashText: hashText, readHash: readHash, runFragment: runFragment, decoded: decoded,
    runOfHash: runOfHash, permalinkStep: permalinkStep, missingNotice: missingNotice,
  };
  if (typeof module === "object" && module.exports) {
    module.exports = logic;
    return;
  }
  runsPage(root);

  // ==== the page ==========================================================================

  function runsPage(window) {
    const document = window.document;
    const location = window.location;
    const history = window.history;
    const data = window.benchproofRuns;
    const numbers = window.benchproofText;
    const countLine = document.getElementById("runs-count");
    const table = document.getElementById("runs-table");
    if (!countLine || !table) { return; }
    if (!data || data.format !== 3 || !data.columns.length || !numbers) {
      countLine.textContent = "The record data (runs-data.js) did not load. Every record is also in ";
      const csv = document.createElement("a");
      csv.href = countLine.getAttribute("data-records");
      csv.textContent = csv.getAttribute("href");
      countLine.appendChild(csv);
      countLine.appendChild(document.createTextNode("."));
      announce({ state: "failed", read: 0 });
      return;
    }

    const n = data.n;
    let loaded = 0;          // records read so far: they come in chunks, in order
    let failed = false;      // a chunk did not load
    const form = document.getElementById("runs-filters");
    const clearButton = document.getElementById("runs-clear");
    const pagers = [document.getElementById("runs-pager"), document.getElementById("runs-pager-bottom")]
      .filter(Boolean);
    const thead = table.tHead;
    const tbody = table.tBodies[0];
    const byId = {};
    const first = { start: 0, n: 0, data: [] };   // the records runs-data.js holds itself
    data.columns.forEach(function (c) {
      byId[c.id] = c;
      const own = c.dict ? c.codes : c.values;
      first.n = own.length;
      first.data.push(own);
      // codes into c.dict, or the values (an array of n holes: a million are filled as they come)
      // oxlint-disable-next-line unicorn/no-new-array
      c.store = c.dict ? new Int32Array(n) : new Array(n);
    });
    const several = data.sections.length > 1;
    // The audit's finding indices are drawn inside the Audit cell, not as a column of their own.
    const visible = data.columns.filter(function (c) {
      return (c.id !== "section" || several) && c.role !== "findings";
    });
    const findingsCol = data.columns.filter(function (c) { return c.role === "findings"; })[0] || null;
    const notices = data.notices || [];
    const armLabels = {};
    const armLinks = {};
    data.arms.forEach(function (a) { armLabels[a.id] = a.label; armLinks[a.id] = a.href; });
    const sectionTitles = {};
    data.sections.forEach(function (s) { sectionTitles[s.id] = s.title; });
    const selects = {};
    Array.prototype.forEach.call(form.querySelectorAll("select[data-column]"), function (s) {
      selects[s.getAttribute("data-column")] = s;
    });

    const state = { filters: {}, sort: null, dir: 1, page: 0, target: null, notice: "" };
    let matches = null;     // Int32Array of record indices: filtered, then sorted
    let runIndex = null;    // run_id -> record index, built on first use (for the records read)
    let indexed = 0;
    let sortKeys = {};      // column id -> Float64Array (NaN = missing), for the records read
    let waiting = null;     // a run id asked for by the address, not read yet

    function announce(change) {
      Object.keys(change).forEach(function (name) { table.setAttribute("data-" + name, String(change[name])); });
      if (typeof window.CustomEvent === "function") {
        document.dispatchEvent(new window.CustomEvent("benchproof:runs", { detail: change }));
      }
    }

    // Numbers as on every other page: assets/number.js, the twin of Python's text.number.
    function whole(x) { return numbers.thousands(x); }

    // The rules of a record's findings (for sorting and the cell), in the audit's order.
    function findingsOf(i) {
      const v = findingsCol ? value(findingsCol, i) : null;
      return v === null || v === undefined ? [] : String(v).split(" ").map(function (k) { return notices[+k]; });
    }

    function text(col, v) {
      if (v === null || v === undefined) { return data.missing; }
      if (col.role === "metric") { return numbers.number(v, col.decimals); }
      if (col.role === "arm") { return armLabels[v] || String(v); }
      return String(v);
    }

    function nameOf(column) {
      return paramName(column, byId[column] ? byId[column].role : null);
    }

    // ---- filtering and sorting ---------------------------------------------------------

    function activeFilters() {
      return data.filters.filter(function (f) { return state.filters[f.column] !== undefined; });
    }

    function filtered() {
      const tests = activeFilters().map(function (f) {
        const col = byId[f.column];
        const want = f.options[state.filters[f.column]].value;
        return col.dict ? { list: col.store, want: col.dict.indexOf(want) } : { list: col.store, want: want };
      });
      return filterIndices(tests, loaded);
    }

    function sortKey(col) {
      if (!sortKeys[col.id]) {
        sortKeys[col.id] = sortKeyOf(col, loaded, function (v) { return text(col, v); });
      }
      return sortKeys[col.id];
    }

    function sorted(list) {
      if (!state.sort || !byId[state.sort]) { return list; }
      return sortIndices(list, sortKey(byId[state.sort]), state.dir);
    }

    function recompute() {
      matches = sorted(filtered());
    }

    function shownPage() {
      return clampPage(state.page, matches.length);
    }

    // ---- drawing -----------------------------------------------------------------------

    function link(href, label) {
      const a = document.createElement("a");
      a.href = href;
      a.textContent = label;
      return a;
    }

    function cell(col, i) {
      const td = document.createElement("td");
      const v = value(col, i);
      td.className = "col-" + col.role + (col.numeric ? " num" : "");
      if ((v === null || v === undefined) && col.role === "audit") { return td; }   // nothing to flag
      if (v === null || v === undefined) {
        td.className += " missing";
        td.textContent = data.missing;
        return td;
      }
      const shown = text(col, v);
      if (col.role === "id") {
        const a = link(runFragment(shown), shown);
        a.className = "permalink";
        a.title = "Permanent link to this record";
        td.appendChild(a);
      } else if (col.role === "arm") {
        td.appendChild(link(armLinks[v], shown));
      } else if (col.role === "status") {
        const badge = document.createElement("span");
        badge.className = "badge badge-" + shown;
        badge.textContent = shown;
        td.appendChild(badge);
      } else if (col.role === "evidence") {
        td.appendChild(link(hrefPath((col.published && col.published[v]) || v), shown));
      } else if (col.role === "section") {
        td.textContent = shown;
        td.title = sectionTitles[v] || "";
      } else if (col.role === "audit") {
        const badge = document.createElement("span");
        badge.className = "badge audit-" + shown;
        badge.textContent = shown;
        td.appendChild(badge);
        findingsOf(i).forEach(function (notice) {
          td.appendChild(document.createTextNode(" "));
          const a = link(data.report + "#" + notice.anchor, (notice.accepted ? "\u2713 " : "\u26a0 ") + notice.rule);
          a.className = "flag" + (notice.accepted ? " flag-accepted" : "");
          a.title = (notice.accepted ? "Accepted audit finding" : "Audit finding") + ": read it in the report";
          td.appendChild(a);
        });
      } else {
        td.textContent = shown;
      }
      return td;
    }

    function drawHead() {
      const tr = document.createElement("tr");
      visible.forEach(function (col) {
        const th = document.createElement("th");
        th.scope = "col";
        th.setAttribute("data-column", col.id);
        if (col.numeric) { th.className = "num"; }
        const button = document.createElement("button");
        button.type = "button";
        button.className = "sort";
        const name = document.createElement("span");
        name.className = "label";
        name.textContent = col.label;
        button.appendChild(name);
        const notes = [col.unit, col.derived ? "derived" : ""].filter(Boolean);
        if (notes.length) {
          const unit = document.createElement("span");
          unit.className = "unit";
          unit.textContent = notes.join(" · ");
          button.appendChild(unit);
        }
        const arrow = document.createElement("span");
        arrow.className = "arrow";
        arrow.setAttribute("aria-hidden", "true");
        button.appendChild(arrow);
        if (col.role === "metric") {
          th.title = col.label + (col.unit ? " (" + col.unit + ")" : "") + ", " + col.better + " is better" +
            (col.derived ? "; derived per record" : "") + ". Shown with " + col.decimals + " decimals.";
        }
        button.addEventListener("click", function () { sortBy(col.id); });
        th.appendChild(button);
        tr.appendChild(th);
      });
      thead.textContent = "";
      thead.appendChild(tr);
    }

    function drawSortState() {
      Array.prototype.forEach.call(thead.querySelectorAll("th"), function (th) {
        const id = th.getAttribute("data-column");
        if (id === state.sort) {
          th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
        } else {
          th.removeAttribute("aria-sort");
        }
      });
    }

    function drawRows() {
      const start = shownPage() * PAGE_SIZE;
      const end = Math.min(matches.length, start + PAGE_SIZE);
      const idCol = byId.run_id;
      const statusCol = byId.status;
      const rows = document.createDocumentFragment();
      for (let p = start; p < end; p++) {
        const i = matches[p];
        const tr = document.createElement("tr");
        const runId = String(value(idCol, i));
        tr.id = "run-" + runId;
        tr.className = "status-" + value(statusCol, i);
        if (runId === state.target) {
          tr.className += " is-target";
          tr.tabIndex = -1;
        }
        visible.forEach(function (col) { tr.appendChild(cell(col, i)); });
        rows.appendChild(tr);
      }
      tbody.textContent = "";
      tbody.appendChild(rows);
    }

    function drawCount() {
      const filters = activeFilters().length;
      countLine.textContent = countText({
        total: matches.length, n: n, loaded: loaded, failed: failed, filters: filters, page: shownPage(),
        notice: state.notice, records: countLine.getAttribute("data-records"),
      }, whole);
      clearButton.disabled = !filters;
      Object.keys(selects).forEach(function (column) {
        selects[column].classList.toggle("is-set", selects[column].value !== "");
      });
      const pages = pageCount(matches.length);
      pagers.forEach(function (nav) {
        nav.hidden = false;
        nav.querySelector(".runs-pageno").textContent = "Page " + whole(shownPage() + 1) + " of " + whole(pages);
        Array.prototype.forEach.call(nav.querySelectorAll("button[data-page]"), function (b) {
          const where = b.getAttribute("data-page");
          b.disabled = (where === "first" || where === "prev") ? shownPage() === 0 : shownPage() >= pages - 1;
        });
      });
    }

    function draw() {
      if (loaded === n || failed) { state.page = shownPage(); }   // a page asked for may not be read yet
      drawRows();
      drawSortState();
      drawCount();
    }

    // ---- the address -------------------------------------------------------------------

    let ownHash = null;

    function writeHash() {
      const h = hashText(data.filters, state, nameOf);
      const current = location.hash.replace(/^#/, "");
      if (h === current) { return; }
      try {
        history.replaceState(history.state, "", location.pathname + location.search + (h ? "#" + h : ""));
      } catch {
        ownHash = "#" + h;
        location.replace("#" + h);
      }
    }

    function readAddress(hash) {
      const view = readHash(hash, data.filters, nameOf, function (sort) {
        return Boolean(byId[sort]) && visible.indexOf(byId[sort]) >= 0;
      });
      state.filters = view.filters;
      state.sort = view.sort;
      state.dir = view.dir;
      state.page = view.page;
    }

    function syncSelects() {
      data.filters.forEach(function (f) {
        const select = selects[f.column];
        if (select) {
          const k = state.filters[f.column];
          select.value = k === undefined ? "" : String(k);
        }
      });
    }

    // ---- actions -----------------------------------------------------------------------

    function changed(resetPage) {
      state.target = null;
      state.notice = "";
      if (resetPage) { state.page = 0; }
      draw();
      writeHash();
    }

    function sortBy(id) {
      const next = nextSort(state.sort, state.dir, id);
      state.sort = next.sort;
      state.dir = next.dir;
      recompute();
      changed(true);
    }

    function openRun(runId) {
      if (!matches) { recompute(); }
      if (!runIndex) { runIndex = new Map(); }
      const idCol = byId.run_id;
      for (; indexed < loaded; indexed++) { runIndex.set(String(value(idCol, indexed)), indexed); }
      const i = runIndex.get(runId);
      state.notice = "";
      const step = permalinkStep(i !== undefined, loaded, n, failed);
      if (step === "wait") {   // not read yet: open it when it is
        waiting = runId;
        state.target = null;
        draw();
        return;
      }
      waiting = null;
      if (step === "missing") {
        state.target = null;
        state.notice = missingNotice(runId);
        draw();
        announce({ target: "" });
        return;
      }
      let pos = matches.indexOf(i);
      if (pos < 0) {             // hidden by a filter: show it among all records
        state.filters = {};
        syncSelects();
        recompute();
        pos = matches.indexOf(i);
      }
      state.page = pageOf(pos);
      state.target = runId;
      draw();
      const row = document.getElementById("run-" + runId);
      if (row) {
        row.scrollIntoView({ block: "start" });   // below a scroll margin (CSS), like the browser's own jump
        row.focus({ preventScroll: true });
      }
      announce({ target: runId });
    }

    function fromAddress() {
      waiting = null;
      const hash = location.hash;
      const runId = runOfHash(hash);
      if (runId !== null) {
        openRun(runId);
        return;
      }
      readAddress(hash);
      syncSelects();
      recompute();
      state.target = null;
      state.notice = "";
      draw();
    }

    form.addEventListener("change", function (event) {
      const select = event.target;
      const column = select.getAttribute("data-column");
      if (!column) { return; }
      if (select.value === "") { delete state.filters[column]; }
      else { state.filters[column] = parseInt(select.value, 10); }
      recompute();
      changed(true);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    clearButton.addEventListener("click", function () {
      state.filters = {};
      syncSelects();
      recompute();
      changed(true);
    });
    pagers.forEach(function (nav) {
      nav.addEventListener("click", function (event) {
        const button = event.target.closest("button[data-page]");
        if (!button || button.disabled) { return; }
        const where = button.getAttribute("data-page");
        const last = pageCount(matches.length) - 1;
        state.page = where === "first" ? 0 : where === "last" ? last
          : where === "prev" ? shownPage() - 1 : shownPage() + 1;
        changed(false);
        if (nav.classList.contains("runs-pager-bottom")) { table.scrollIntoView({ block: "start" }); }
      });
    });
    window.addEventListener("hashchange", function () {
      if (ownHash !== null && location.hash === ownHash) { ownHash = null; return; }
      fromAddress();
    });

    // ---- the other records, chunk by chunk ---------------------------------------------

    function arrived() {
      sortKeys = {};
      recompute();
      if (waiting !== null && (loaded === n || failed)) {
        openRun(waiting);
      } else {
        draw();
      }
      announce({ read: loaded, state: readState(loaded, n, failed) });
      if (loaded === n && window.performance && window.performance.mark) {
        window.performance.mark("benchproof-runs-loaded");
      }
    }

    loaded = addChunk(data.columns, first, loaded);
    data.columns.forEach(function (c) { delete c.codes; delete c.values; });
    window.benchproofRunsChunk = function (chunk) {
      loaded = addChunk(data.columns, chunk, loaded);
      arrived();
    };
    form.hidden = false;
    drawHead();
    fromAddress();
    announce({ read: loaded, state: readState(loaded, n, failed) });
    const marks = window.performance && window.performance.mark ? window.performance : { mark: function () {} };
    marks.mark("benchproof-runs-ready");
    // The other chunks are asked for once the first rows' frame is drawn: read from a disk
    // (file://) they would otherwise arrive, and run, before it.  Each runs as a task of its own,
    // so the page answers between them.  (A hidden tab draws no frame: the timer asks then.)
    let asked = false;
    function readTheOthers() {
      if (asked) { return; }
      asked = true;
      data.chunks.forEach(function (src) {
        const script = document.createElement("script");
        script.src = src;
        script.async = false;    // run in order: each chunk follows the one before
        script.addEventListener("error", function () { failed = true; arrived(); });
        document.body.appendChild(script);
      });
    }
    window.requestAnimationFrame(function () {
      marks.mark("benchproof-runs-shown");   // the first rows' frame
      window.setTimeout(readTheOthers, 0);   // once it is painted
    });
    window.setTimeout(readTheOthers, 1000);
  }
}(typeof window !== "undefined" ? window : globalThis));
