/* benchproof report: unfolds the audit finding a marker leads to, and turns each static chart
 * into the interactive chart.
 * Every view's Vega-Lite spec is embedded in #chart-views (aggregated in Python: the
 * browser draws, it never computes a median). Nothing is fetched from the network.
 * The selectors offer only combinations that have a view: each one is narrowed to the values
 * that, with the choices before it, lead to one. The chosen view is kept in the address
 * (#view=<key>), so a link opens that chart in 01 Measurements. */
(function () {
  "use strict";
  // A marker links to a finding (#finding-…): unfold the audit's details around it, and its
  // places, when it is the target.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target || !target.querySelector) { return; }
    for (var up = target.parentElement; up; up = up.parentElement) {
      if (up.tagName === "DETAILS") { up.open = true; }
    }
    var fold = target.querySelector("details.places-fold");
    if (fold) { fold.open = true; }
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  // On paper nothing can be unfolded: print every metric's source.
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll(".metric-list details, details.audit-details"),
      function (d) { d.open = true; });
  });
}());
(function () {
  "use strict";
  var HASH = "#view=";
  var holder = document.getElementById("chart-views");
  if (!holder || typeof window.vegaEmbed !== "function") { return; }
  var views = JSON.parse(holder.textContent).views;
  if (!views.length) { return; }
  var byKey = {};
  views.forEach(function (v) { byKey[v.key] = v; });
  var widgets = [];

  // The value a view has for a selector (null: the view has none, e.g. the swept dimension).
  function valueOf(view, name) {
    if (name === "section") { return view.section; }
    if (name === "metric") { return view.metric; }
    if (name === "across") { return view.across; }
    var dim = name.slice(4);
    return Object.prototype.hasOwnProperty.call(view.point, dim) ? view.point[dim] : null;
  }

  function setUp(figure) {
    var form = figure.querySelector(".chart-controls");
    var canvas = figure.querySelector(".chart-canvas");
    var link = figure.querySelector(".chart-link");
    if (!form || !canvas) { return null; }
    var section = figure.getAttribute("data-section");
    var scope = views.filter(function (v) { return !section || v.section === section; });
    var selects = Array.prototype.slice.call(form.querySelectorAll("select"));
    selects.forEach(function (select) {
      select.allOptions = Array.prototype.map.call(select.options, function (o) { return [o.value, o.text]; });
    });
    var drawing = 0;
    var current = null;

    // Narrow every selector to the values that lead to a view, keeping each choice where it
    // still can (``wanted``: a view's values to choose first); returns the view chosen.
    function narrow(wanted) {
      var candidates = scope;
      selects.forEach(function (select) {
        var name = select.name;
        var allowed = {};
        candidates.forEach(function (v) { var x = valueOf(v, name); if (x !== null) { allowed[x] = true; } });
        var options = select.allOptions.filter(function (o) { return allowed[o[0]]; });
        var keep = wanted && allowed[wanted[name]] ? wanted[name] : (allowed[select.value] ? select.value : null);
        select.textContent = "";
        options.forEach(function (o) {
          var option = document.createElement("option");
          option.value = o[0];
          option.textContent = o[1];
          select.appendChild(option);
        });
        select.parentNode.hidden = options.length < 2;
        if (!options.length) { return; }   // the swept dimension: every candidate lacks it
        select.value = keep !== null ? keep : options[0][0];
        candidates = candidates.filter(function (v) { return valueOf(v, name) === select.value; });
      });
      return candidates[0] || null;
    }

    function sized(view) {
      var spec = JSON.parse(JSON.stringify(view.spec));
      spec.width = "container";
      spec.autosize = { type: "fit-x", contains: "padding" };
      spec.title = Object.assign({}, spec.title, { limit: Math.max(200, figure.clientWidth - 10) });
      spec.background = "transparent";   /* the page's own: the stylesheet colours the marks (dark mode, print) */
      if (figure.clientWidth < 560) {  /* a phone: leave room for the bars */
        var limit = Math.round(figure.clientWidth * 0.42);
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
      var svg = canvas.querySelector("svg");
      if (!svg) { return; }
      var ns = "http://www.w3.org/2000/svg";
      var title = document.createElementNS(ns, "title");
      var desc = document.createElementNS(ns, "desc");
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
      var fold = figure.querySelector(".chart-figures");
      var table = fold && fold.querySelector("table");
      if (!table || !view.figures) { return; }
      table.querySelector("caption").textContent = view.title;
      var head = document.createElement("tr");
      view.figures.columns.forEach(function (c) {
        var th = document.createElement("th");
        th.scope = "col";
        th.textContent = c;
        head.appendChild(th);
      });
      table.tHead.textContent = "";
      table.tHead.appendChild(head);
      var body = table.tBodies[0];
      body.textContent = "";
      view.figures.rows.forEach(function (row) {
        var tr = document.createElement("tr");
        row.forEach(function (cell, i) {
          var td = document.createElement(i === 0 ? "th" : "td");
          if (i === 0) { td.scope = "row"; }
          td.textContent = cell;
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
    }

    // "Copy link", "Copy image", PNG and SVG of the view on screen.
    var status = figure.querySelector(".chart-copied");
    function say(text) { if (status) { status.textContent = text; } }
    function copyText(text) {
      if (navigator.clipboard && navigator.clipboard.writeText) { return navigator.clipboard.writeText(text); }
      return new Promise(function (resolve, reject) {
        var area = document.createElement("textarea");
        area.value = text;
        document.body.appendChild(area);
        area.select();
        var done = document.execCommand && document.execCommand("copy");
        document.body.removeChild(area);
        if (done) { resolve(); } else { reject(new Error("copy refused")); }
      });
    }
    function copyImage() {
      if (!current || !window.ClipboardItem || !navigator.clipboard || !navigator.clipboard.write) {
        return Promise.reject(new Error("no image clipboard"));
      }
      var view = current.view;
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
        var image = button.getAttribute("data-copy") === "image";
        var address = location.href.split("#")[0] + HASH + (figure.getAttribute("data-view") || "");
        (image ? copyImage() : copyText(address)).then(function () {
          say(image ? "Image copied." : "Link copied.");
        }, function () {
          say(image ? "This browser does not let the page copy an image here: use PNG." : "Copy the address of “Link to this chart”.");
        });
      });
    });

    function draw(view) {
      var token = ++drawing;
      if (current) { current.finalize(); current = null; }
      canvas.textContent = "";
      figure.setAttribute("data-view", view.key);
      figure.setAttribute("data-kind", view.across ? "sweep" : "bars");
      if (link) { link.setAttribute("href", HASH + view.key); }
      var png = figure.querySelector(".chart-png");
      var svgLink = figure.querySelector(".chart-svg");
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
          console.error(error);
        });
    }

    function show(key) {
      var view = byKey[key];
      if (!view || (section && view.section !== section)) { return false; }
      var wanted = {};
      selects.forEach(function (select) { wanted[select.name] = valueOf(view, select.name); });
      draw(narrow(wanted) || view);
      return true;
    }

    form.hidden = false;
    form.addEventListener("change", function () {
      var view = narrow(null);
      if (!view) { return; }
      draw(view);
      if (window.history && history.replaceState) { history.replaceState(null, "", HASH + view.key); }
    });
    show(figure.getAttribute("data-default")) || draw(narrow(null));
    return { figure: figure, show: show };
  }

  Array.prototype.forEach.call(document.querySelectorAll("figure[data-chart]"), function (figure) {
    var widget = setUp(figure);
    if (widget) { widgets.push(widget); }
  });

  // #view=<key>: open that view in 01 Measurements (the widget over every section).
  function openView() {
    if (location.hash.indexOf(HASH) !== 0) { return; }
    var key = decodeURIComponent(location.hash.slice(HASH.length));
    var target = null;
    widgets.forEach(function (w) { if (!target && w.figure.id === "chart-all") { target = w; } });
    if (target && target.show(key)) { target.figure.scrollIntoView({ block: "start" }); }
  }
  window.addEventListener("hashchange", openView);
  openView();
}());
