/* benchproof report: unfolds the audit finding a marker leads to, and turns each static chart
 * into the interactive chart.
 * Every view's Vega-Lite spec is embedded in #chart-views (aggregated in Python: the
 * browser draws, it never computes a median). Nothing is fetched from the network.
 * The selectors offer only combinations that have a view: each one is narrowed to the values
 * that, with the choices before it, lead to one. The chosen view is kept in the address
 * (#view=<key>), so a link opens that chart in 01 Measurements.
 * Each chart figure announces what it shows: data-view (the view's key) and data-state
 * ("loading" while it is drawn, "ready" once it is, "error" when it could not be).
 * The view switching (which values each selector offers, which view they name, which view an
 * address asks for) is a set of pure functions; node loads them as a module
 * (tests/js/report.test.js), the page runs them on its selectors. */
(function (root) {
  "use strict";
  const HASH = "#view=";

  // The value a view has for a selector (null: the view has none, e.g. the swept dimension).
  function valueOf(view, name) {
    if (name === "section") { return view.section; }
    if (name === "metric") { return view.metric; }
    if (name === "across") { return view.across; }
    const dim = name.slice(4);
    return Object.prototype.hasOwnProperty.call(view.point, dim) ? view.point[dim] : null;
  }

  // Narrow every selector, in order, to the values that with the choices before it lead to a
  // view of ``scope``, keeping each choice where it still can (``wanted``: a view's values to
  // choose first, else the selector's current value, else its first value left).
  // ``selects``: [{name, all: [[value, text]] (every option it was written with), value}].
  // Returns each selector's options, value and whether it is hidden (fewer than two choices),
  // and the view they name (null: none).
  function narrowChoices(scope, selects, wanted) {
    let candidates = scope;
    const choices = selects.map(function (select) {
      const name = select.name;
      const allowed = {};
      // Stryker disable next-line ConditionalExpression: a null value is no option's, so allowing it changes nothing
      candidates.forEach(function (v) { const x = valueOf(v, name); if (x !== null) { allowed[x] = true; } });
      const options = select.all.filter(function (o) { return allowed[o[0]]; });
      const keep = wanted && allowed[wanted[name]] ? wanted[name] : (allowed[select.value] ? select.value : null);
      const hidden = options.length < 2;
      if (!options.length) { return { options: options, value: "", hidden: hidden }; }   // the swept dimension
      const asked = String(keep !== null ? keep : options[0][0]);
      // as a <select> does: the value is text, and one none of its options has leaves it empty
      const value = options.some(function (o) { return o[0] === asked; }) ? asked : "";
      candidates = candidates.filter(function (v) { return valueOf(v, name) === value; });
      return { options: options, value: value, hidden: hidden };
    });
    return { choices: choices, view: candidates[0] || null };
  }

  // The values of ``view`` for each selector name: what to choose to show it.
  function wantedFor(view, names) {
    const wanted = {};
    names.forEach(function (name) { wanted[name] = valueOf(view, name); });
    return wanted;
  }

  // The view key an address asks for (#view=<key>), or null.
  function viewOfHash(hash) {
    return hash.indexOf(HASH) === 0 ? decoded(hash.slice(HASH.length)) : null;
  }

  // A fragment as text: percent-escapes read, a malformed one kept as it is (never an error).
  function decoded(fragment) {
    try { return decodeURIComponent(fragment); } catch { return fragment; }
  }

  const logic = { HASH: HASH, valueOf: valueOf, narrowChoices: narrowChoices, wantedFor: wantedFor,
                  viewOfHash: viewOfHash, decoded: decoded };
  if (typeof module === "object" && module.exports) {
    module.exports = logic;
    return;
  }
  root.benchproofTitle = fittedTitle;   /* assets/workload.js fits its charts' titles with it too */
  findings(root);
  charts(root);

  // A chart's title and subtitle in lines of at most ``room`` px, broken between words (Vega
  // measures nothing ahead: its ``limit`` would end a long line in an ellipsis on a phone).
  // ``config``: the spec's config (its font and title sizes); Vega's defaults otherwise.
  function fittedTitle(title, room, config) {
    const document = root.document;
    const measure = fittedTitle.canvas || (fittedTitle.canvas = document.createElement("canvas").getContext("2d"));
    const base = (config && config.title) || {};
    const font = (config && config.font) || "sans-serif";
    function lines(text, size, weight) {
      const out = [];
      measure.font = weight + " " + size + "px " + font;
      [].concat(text).forEach(function (line) {
        let now = "";
        String(line).split(" ").forEach(function (word) {
          const next = now ? now + " " + word : word;
          if (now && measure.measureText(next).width > room) { out.push(now); now = word; } else { now = next; }
        });
        out.push(now);
      });
      return out;
    }
    const fitted = Object.assign({}, typeof title === "object" && !Array.isArray(title) ? title : { text: title });
    delete fitted.limit;
    fitted.text = lines(fitted.text, fitted.fontSize || base.fontSize || 13, fitted.fontWeight || base.fontWeight || "bold");
    if (fitted.subtitle !== undefined) {
      fitted.subtitle = lines(fitted.subtitle, fitted.subtitleFontSize || base.subtitleFontSize || 10, "normal");
    }
    return fitted;
  }

  // A marker links to a finding (#finding-…): unfold the audit's details around it, and its
  // places, when it is the target.
  function findings(window) {
    const document = window.document;
    const location = window.location;
    function openTarget() {
      const id = decoded(location.hash.slice(1));
      const target = id && document.getElementById(id);
      if (!target || !target.querySelector) { return; }
      for (let up = target.parentElement; up; up = up.parentElement) {
        if (up.tagName === "DETAILS") { up.open = true; }
      }
      const fold = target.querySelector("details.places-fold");
      if (fold) { fold.open = true; }
      target.scrollIntoView();
    }
    window.addEventListener("hashchange", openTarget);
    openTarget();
    // On paper nothing can be unfolded: print every metric's source.
    window.addEventListener("beforeprint", function () {
      Array.prototype.forEach.call(document.querySelectorAll(".metric-fold, .metric-list details, details.audit-details"),
        function (d) { d.open = true; });
    });
  }

  function charts(window) {
    const document = window.document;
    const location = window.location;
    const navigator = window.navigator;
    const holder = document.getElementById("chart-views");
    if (!holder || typeof window.vegaEmbed !== "function") { return; }
    const views = JSON.parse(holder.textContent).views;
    if (!views.length) { return; }
    const byKey = {};
    views.forEach(function (v) { byKey[v.key] = v; });
    const widgets = [];

    function copyText(text) {
      if (navigator.clipboard && navigator.clipboard.writeText) { return navigator.clipboard.writeText(text); }
      return new Promise(function (resolve, reject) {
        const area = document.createElement("textarea");
        area.value = text;
        document.body.appendChild(area);
        area.select();
        const done = document.execCommand && document.execCommand("copy");
        document.body.removeChild(area);
        if (done) { resolve(); } else { reject(new Error("copy refused")); }
      });
    }

    function setUp(figure) {
      const form = figure.querySelector(".chart-controls");
      const canvas = figure.querySelector(".chart-canvas");
      const link = figure.querySelector(".chart-link");
      if (!form || !canvas) { return null; }
      const section = figure.getAttribute("data-section");
      const scope = views.filter(function (v) { return !section || v.section === section; });
      const selects = Array.prototype.slice.call(form.querySelectorAll("select"));
      selects.forEach(function (select) {
        select.allOptions = Array.prototype.map.call(select.options, function (o) { return [o.value, o.text]; });
      });
      let drawing = 0;
      let current = null;

      // Narrow every selector to the values that lead to a view (narrowChoices), and show its
      // choices; returns the view chosen.
      function narrow(wanted) {
        const result = narrowChoices(scope, selects.map(function (select) {
          return { name: select.name, all: select.allOptions, value: select.value };
        }), wanted);
        selects.forEach(function (select, k) {
          const choice = result.choices[k];
          select.textContent = "";
          choice.options.forEach(function (o) {
            const option = document.createElement("option");
            option.value = o[0];
            option.textContent = o[1];
            select.appendChild(option);
          });
          select.parentNode.hidden = choice.hidden;
          if (choice.options.length) { select.value = choice.value; }
        });
        return result.view;
      }

      function sized(view) {
        const spec = JSON.parse(JSON.stringify(view.spec));
        spec.width = "container";
        spec.autosize = { type: "fit-x", contains: "padding" };
        spec.title = fittedTitle(spec.title, Math.max(200, figure.clientWidth - 10), spec.config);
        spec.background = "transparent";   /* the page's own: the stylesheet colours the marks (dark mode, print) */
        if (figure.clientWidth < 560) {  /* a phone: leave room for the bars */
          const limit = Math.round(figure.clientWidth * 0.42);
          spec.config.axisY = Object.assign({}, spec.config.axisY, { labelLimit: limit });
          spec.config.legend = Object.assign({}, spec.config.legend, { labelLimit: limit, columns: 1 });
          /* the audit's markers beside the rows shrink to their symbols (the rule names are in
             the tooltip, the figures table and the audit block) */
          (spec.layer || []).forEach(function (layer) {
            if (layer.name === "flags" && layer.encoding && layer.encoding.text) {
              layer.encoding.text = Object.assign({}, layer.encoding.text, { field: "short" });
            }
          });
        }
        return spec;
      }

      // The drawn SVG: named by the view's title, described by the view in words.
      function label(view) {
        const svg = canvas.querySelector("svg");
        if (!svg) { return; }
        const ns = "http://www.w3.org/2000/svg";
        const title = document.createElementNS(ns, "title");
        const desc = document.createElementNS(ns, "desc");
        title.textContent = view.title;
        desc.textContent = view.spec.description || "";
        desc.id = figure.id + "-description";
        svg.insertBefore(desc, svg.firstChild);
        svg.insertBefore(title, svg.firstChild);
        svg.setAttribute("role", "graphics-document");   /* its marks keep their own roles and labels */
        svg.setAttribute("aria-roledescription", "chart");
        svg.setAttribute("aria-label", view.title);
        svg.setAttribute("aria-describedby", desc.id);
      }

      // The figures of the view, as a table beside the chart (everything its tooltips say).
      function tabulate(view) {
        const fold = figure.querySelector(".chart-figures");
        const table = fold && fold.querySelector("table");
        if (!table || !view.figures) { return; }
        table.querySelector("caption").textContent = view.title;
        const head = document.createElement("tr");
        view.figures.columns.forEach(function (c) {
          const th = document.createElement("th");
          th.scope = "col";
          th.textContent = c;
          head.appendChild(th);
        });
        table.tHead.textContent = "";
        table.tHead.appendChild(head);
        const body = table.tBodies[0];
        body.textContent = "";
        view.figures.rows.forEach(function (row) {
          const tr = document.createElement("tr");
          row.forEach(function (cell, i) {
            const td = document.createElement(i === 0 ? "th" : "td");
            if (i === 0) { td.scope = "row"; }
            td.textContent = cell;
            tr.appendChild(td);
          });
          body.appendChild(tr);
        });
      }

      // "Copy link", "Copy image", PNG and SVG of the view on screen.
      const status = figure.querySelector(".chart-copied");
      function say(text) { if (status) { status.textContent = text; } }
      function copyImage() {
        if (!current || !window.ClipboardItem || !navigator.clipboard || !navigator.clipboard.write) {
          return Promise.reject(new Error("no image clipboard"));
        }
        const view = current.view;
        view.background("white");   /* the spec's own light colours, on white: as in a document */
        return view.toCanvas(2).then(function (drawn) {
          view.background("transparent");
          return new Promise(function (resolve) { drawn.toBlob(resolve, "image/png"); });
        }).then(function (blob) {
          return navigator.clipboard.write([new window.ClipboardItem({ "image/png": blob })]);
        });
      }
      Array.prototype.forEach.call(figure.querySelectorAll(".chart-copy"), function (button) {
        button.addEventListener("click", function () {
          const image = button.getAttribute("data-copy") === "image";
          const address = location.href.split("#")[0] + HASH + (figure.getAttribute("data-view") || "");
          (image ? copyImage() : copyText(address)).then(function () {
            say(image ? "Image copied." : "Link copied.");
          }, function () {
            say(image ? "This browser does not let the page copy an image here: use PNG." : "Copy the address of “Link to this chart”.");
          });
        });
      });

      function draw(view) {
        const token = ++drawing;
        if (current) { current.finalize(); current = null; }
        canvas.textContent = "";
        figure.setAttribute("data-view", view.key);
        figure.setAttribute("data-kind", view.across ? "sweep" : "bars");
        if (link) { link.setAttribute("href", HASH + view.key); }
        const png = figure.querySelector(".chart-png");
        const svgLink = figure.querySelector(".chart-svg");
        if (png) { png.setAttribute("href", view.png); }
        if (svgLink) { svgLink.setAttribute("href", view.svg); }
        say("");
        tabulate(view);
        figure.setAttribute("data-state", "loading");
        window.vegaEmbed(canvas, sized(view), { actions: false, renderer: "svg", mode: "vega-lite" })
          .then(function (result) {
            if (token !== drawing) { result.finalize(); return; }
            current = result;
            label(view);
            figure.setAttribute("data-state", "ready");
          })
          .catch(function (error) {
            figure.setAttribute("data-state", "error");
            canvas.textContent = "This chart could not be drawn; the table above has the same numbers.";
            window.console.error(error);
          });
      }

      function show(key) {
        const view = byKey[key];
        if (!view || (section && view.section !== section)) { return false; }
        const wanted = wantedFor(view, selects.map(function (select) { return select.name; }));
        draw(narrow(wanted) || view);
        return true;
      }

      form.hidden = false;
      form.addEventListener("change", function () {
        const view = narrow(null);
        if (!view) { return; }
        draw(view);
        if (window.history && window.history.replaceState) { window.history.replaceState(null, "", HASH + view.key); }
      });
      if (!show(figure.getAttribute("data-default"))) { draw(narrow(null)); }
      return { figure: figure, show: show };
    }

    Array.prototype.forEach.call(document.querySelectorAll("figure[data-chart]"), function (figure) {
      const widget = setUp(figure);
      if (widget) { widgets.push(widget); }
    });

    // #view=<key>: open that view in 01 Measurements (the widget over every section).
    function openView() {
      const key = viewOfHash(location.hash);
      if (key === null) { return; }
      let target = null;
      widgets.forEach(function (w) { if (!target && w.figure.id === "chart-all") { target = w; } });
      if (target && target.show(key)) { target.figure.scrollIntoView({ block: "start" }); }
    }
    window.addEventListener("hashchange", openView);
    openView();
  }
}(typeof window !== "undefined" ? window : globalThis));
