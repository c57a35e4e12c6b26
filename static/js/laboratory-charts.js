/* The laboratory's charts (a simulation's, the pool health's), drawn from the specs the page
   holds (laboratory/admin.py, chart): a "bar" or "line" chart per canvas, a series each. The
   page's tables hold the same figures. */
(function () {
  "use strict";
  var source = document.getElementById("chart-specs");
  if (!source || !window.Chart) {
    return;
  }
  // Dark enough for 3:1 against white, and told apart by point shape and dash as well as colour.
  var colours = ["#0b5394", "#a6470a"];
  var shapes = ["circle", "rect"];
  JSON.parse(source.textContent).forEach(function (spec) {
    var canvas = document.getElementById(spec.canvas);
    if (!canvas) {
      return;
    }
    new window.Chart(canvas, {
      type: spec.type,
      data: {
        labels: spec.labels,
        datasets: spec.series.map(function (series, i) {
          return {
            label: series.label,
            data: series.values,
            borderColor: colours[i % colours.length],
            backgroundColor: colours[i % colours.length],
            pointStyle: shapes[i % shapes.length],
            borderDash: i ? [6, 4] : []
          };
        })
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        // No movement for users who asked their system for less of it, as on the player page.
        animation: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? false : { duration: 300 },
        spanGaps: true,
        plugins: { legend: { display: spec.series.length > 1 } }
      }
    });
  });
})();
