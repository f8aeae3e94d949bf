/* benchproof report: draws the charts of "Weighed by your workload" (crossover, reference), of
 * "Per-request distributions" (ECDF, histogram) and of "Throughput against interactivity" in
 * place of their static SVG, fitted to the width of their figure. Every spec is embedded in
 * #workload-charts, #distribution-charts and #frontier-charts, numbers computed in Python: the
 * browser only draws.
 * Nothing is fetched from the network. */
(function () {
  "use strict";
  if (typeof window.vegaEmbed !== "function") { return; }
  const specs = {};
  ["workload-charts", "distribution-charts", "frontier-charts"].forEach(function (id) {
    const holder = document.getElementById(id);
    if (!holder) { return; }
    JSON.parse(holder.textContent).charts.forEach(function (chart) { specs[chart.key] = chart.spec; });
  });

  // The spec fitted to its figure: on a narrow screen its views narrow to the room left beside
  // the y axis (never a drawing scaled down below its text sizes), and its titles break into
  // lines rather than end in an ellipsis (assets/report.js's benchproofTitle).
  const AXIS = 80;   /* px beside a view for its y axis, its labels and its title */
  function roomOf(figure) {
    let shown = figure;   /* a figure in a closed fold has no width: the fold's is its own */
    while (shown.parentElement && !shown.clientWidth) { shown = shown.parentElement; }
    return Math.max(200, shown.clientWidth - 10);
  }

  // ``over``: how much wider than its room the chart was drawn the first time (an axis's
  // labels and title wider than AXIS): its views narrow by that much more.
  function fitted(spec, figure, over) {
    const room = roomOf(figure);
    const fit = JSON.parse(JSON.stringify(spec));
    const title = window.benchproofTitle;
    (fit.vconcat || [fit]).forEach(function (view) {
      if (typeof view.width === "number" && view.width > room - AXIS - over) {
        view.width = room - AXIS - over;
        /* words on a narrowed view (an arm's name, a share of requests) end in an ellipsis at
           half its width: two of them side by side never overlap, and the page's words above
           the chart say each in full */
        (view.layer || []).forEach(function (layer) {
          if (layer.mark && layer.mark.type === "text") { layer.mark.limit = Math.floor(view.width / 2); }
        });
      }
      if (view.title && title) { view.title = title(view.title, room, fit.config); }
    });
    if (fit.vconcat && fit.title && title) { fit.title = title(fit.title, room, fit.config); }
    return fit;
  }

  Array.prototype.forEach.call(document.querySelectorAll("figure[data-workload-chart]"), function (figure) {
    const key = figure.getAttribute("data-workload-chart");
    const spec = specs[key];
    const canvas = figure.querySelector(".chart-canvas");
    if (!spec || !canvas) { return; }
    draw(figure, canvas, key);
  });

  function draw(figure, canvas, key, over) {
    const spec = fitted(specs[key], figure, over || 0);
    figure.setAttribute("data-state", "loading");
    const target = document.createElement("div");
    window.vegaEmbed(target, spec, { actions: false, renderer: "svg", mode: "vega-lite" })
      .then(function () {
        const svg = target.querySelector("svg");
        const wider = svg ? Math.ceil(parseFloat(svg.getAttribute("width")) - roomOf(figure)) : 0;
        if (!over && wider > 0) { draw(figure, canvas, key, wider); return; }   /* once, narrower */
        canvas.textContent = "";
        canvas.appendChild(target);
        figure.setAttribute("data-state", "ready");
      })
      .catch(function (error) {
        figure.setAttribute("data-state", "error");   /* the static chart stays */
        console.error(error);
      });
  }
}());
