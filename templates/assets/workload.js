/* benchproof report: draws the charts of "Weighed by your workload" (crossover, reference), of
 * "Per-request distributions" (ECDF) and of "Throughput against interactivity" in place of their
 * static SVG. Every spec is embedded in
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

  Array.prototype.forEach.call(document.querySelectorAll("figure[data-workload-chart]"), function (figure) {
    const spec = specs[figure.getAttribute("data-workload-chart")];
    const canvas = figure.querySelector(".chart-canvas");
    if (!spec || !canvas) { return; }
    figure.setAttribute("data-state", "loading");
    const target = document.createElement("div");
    window.vegaEmbed(target, spec, { actions: false, renderer: "svg", mode: "vega-lite" })
      .then(function () {
        canvas.textContent = "";
        canvas.appendChild(target);
        figure.setAttribute("data-state", "ready");
      })
      .catch(function (error) {
        figure.setAttribute("data-state", "error");   /* the static chart stays */
        console.error(error);
      });
  });
}());
