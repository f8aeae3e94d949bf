/* benchproof report: unfolds the audit finding a marker leads to, and turns each static chart
 * into the interactive bar-plus-dot chart.
 * Every view's Vega-Lite spec is embedded in #chart-views (aggregated in Python: the
 * browser draws, it never computes a median). Nothing is fetched from the network. */
(function () {
  "use strict";
  // A marker links to a finding (#finding-…): unfold its places when it is the target.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var fold = target && target.querySelector ? target.querySelector("details.places-fold") : null;
    if (fold) { fold.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
}());
(function () {
  "use strict";
  var holder = document.getElementById("chart-views");
  if (!holder || typeof window.vegaEmbed !== "function") { return; }
  var views = JSON.parse(holder.textContent).views;
  if (!views.length) { return; }

  function matches(view, state) {
    if (view.section !== state.section || view.metric !== state.metric) { return false; }
    return Object.keys(view.point).every(function (k) { return state.dims[k] === view.point[k]; });
  }

  function setUp(figure) {
    var form = figure.querySelector(".chart-controls");
    var canvas = figure.querySelector(".chart-canvas");
    var empty = figure.querySelector(".chart-empty");
    var drawing = 0;
    var current = null;

    function state() {
      var s = { section: figure.getAttribute("data-section") || views[0].section, metric: null, dims: {} };
      Array.prototype.forEach.call(form.querySelectorAll("select"), function (select) {
        if (select.name === "section") { s.section = select.value; }
        else if (select.name === "metric") { s.metric = select.value; }
        else if (select.name.indexOf("dim:") === 0) { s.dims[select.name.slice(4)] = select.value; }
      });
      return s;
    }

    function draw() {
      var token = ++drawing;
      var s = state();
      var view = null;
      for (var i = 0; i < views.length && !view; i++) { if (matches(views[i], s)) { view = views[i]; } }
      if (current) { current.finalize(); current = null; }
      canvas.textContent = "";
      empty.hidden = Boolean(view);
      figure.setAttribute("data-view", view ? view.key : "");
      if (!view) { figure.setAttribute("data-state", "empty"); return; }
      var spec = JSON.parse(JSON.stringify(view.spec));
      spec.width = "container";
      spec.autosize = { type: "fit-x", contains: "padding" };
      if (figure.clientWidth < 560) {  /* a phone: leave room for the bars */
        spec.config.axisY = Object.assign({}, spec.config.axisY, { labelLimit: Math.round(figure.clientWidth * 0.42) });
      }
      figure.setAttribute("data-state", "loading");
      window.vegaEmbed(canvas, spec, { actions: false, renderer: "svg", mode: "vega-lite" })
        .then(function (result) {
          if (token !== drawing) { result.finalize(); return; }
          current = result;
          figure.setAttribute("data-state", "ready");
        })
        .catch(function (error) {
          figure.setAttribute("data-state", "error");
          canvas.textContent = "This chart could not be drawn; the table above has the same numbers.";
          console.error(error);
        });
    }

    form.hidden = false;
    form.addEventListener("change", draw);
    draw();
  }

  Array.prototype.forEach.call(document.querySelectorAll("figure[data-chart]"), setUp);
}());
