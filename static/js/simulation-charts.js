/* A simulation's two charts: the differences as bars, and the mean rating by month under the
   published and the simulated rules. The page's tables hold the same figures. */
(function () {
  "use strict";
  var source = document.getElementById("simulation-data");
  if (!source || !window.Chart) {
    return;
  }
  var data = JSON.parse(source.textContent);
  var bars = document.getElementById("difference-chart");
  if (bars) {
    new window.Chart(bars, {
      type: "bar",
      data: {
        labels: data.distribution.map(function (row) { return row[0]; }),
        datasets: [{ label: "Players", data: data.distribution.map(function (row) { return row[1]; }), backgroundColor: "#0b5394" }]
      },
      options: { responsive: true, maintainAspectRatio: false, plugins: { legend: { display: false } } }
    });
  }
  var lines = document.getElementById("months-chart");
  if (lines) {
    var months = data.months.map(function (row) { return row.month; });
    new window.Chart(lines, {
      type: "line",
      data: {
        labels: months,
        datasets: [
          { label: "Published", data: data.months.map(function (row) { return row.published; }), borderColor: "#0b5394", backgroundColor: "#0b5394", pointStyle: "circle" },
          { label: "Simulated", data: data.months.map(function (row) { return row.simulated; }), borderColor: "#a6470a", backgroundColor: "#a6470a", pointStyle: "rect", borderDash: [6, 4] }
        ]
      },
      options: { responsive: true, maintainAspectRatio: false }
    });
  }
})();
