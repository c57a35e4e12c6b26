/* The pool health page's charts: calibration by rating difference, and the drift of the players
   on consecutive lists. The page's tables hold the same figures. */
(function () {
  "use strict";
  var source = document.getElementById("health-data");
  if (!source || !window.Chart) {
    return;
  }
  var data = JSON.parse(source.textContent);
  var calibration = document.getElementById("calibration-chart");
  if (calibration) {
    new window.Chart(calibration, {
      type: "line",
      data: {
        labels: data.calibration.map(function (row) { return row.group; }),
        datasets: [
          { label: "Expected", data: data.calibration.map(function (row) { return row.expected; }), borderColor: "#0b5394", backgroundColor: "#0b5394", pointStyle: "circle" },
          { label: "Actual", data: data.calibration.map(function (row) { return row.actual; }), borderColor: "#a6470a", backgroundColor: "#a6470a", pointStyle: "rect", borderDash: [6, 4] }
        ]
      },
      options: { responsive: true, maintainAspectRatio: false, spanGaps: true }
    });
  }
  var drift = document.getElementById("drift-chart");
  if (drift) {
    new window.Chart(drift, {
      type: "line",
      data: {
        labels: data.months.map(function (row) { return row.month; }),
        datasets: [
          { label: "Mean before", data: data.months.map(function (row) { return row.mean_before; }), borderColor: "#0b5394", backgroundColor: "#0b5394", pointStyle: "circle" },
          { label: "Mean after", data: data.months.map(function (row) { return row.mean_after; }), borderColor: "#a6470a", backgroundColor: "#a6470a", pointStyle: "rect", borderDash: [6, 4] }
        ]
      },
      options: { responsive: true, maintainAspectRatio: false, spanGaps: true }
    });
  }
})();
