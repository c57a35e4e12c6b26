/* The player page's rating chart: a line per list, a point per month in which the rating
   changed. Selecting a point opens the page that shows how that rating was calculated. */
(function () {
  "use strict";
  var source = document.getElementById("chart-data");
  var canvas = document.getElementById("rating-chart");
  if (!source || !canvas || !window.Chart) {
    return;
  }
  var data = JSON.parse(source.textContent);
  // Dark enough for 3:1 against white, and told apart by point shape as well as colour.
  var colours = ["#0b5394", "#a6470a", "#18753c", "#7a2c9e", "#b0183f"];
  var shapes = ["circle", "rect", "triangle", "rectRot", "star"];

  function pointAt(element) {
    return data.datasets[element.datasetIndex].points[element.index];
  }

  var chart = new window.Chart(canvas, {
    type: "line",
    data: {
      labels: data.months,
      datasets: data.datasets.map(function (set, i) {
        return {
          label: set.label,
          data: set.points,
          borderColor: colours[i % colours.length],
          backgroundColor: colours[i % colours.length],
          pointStyle: shapes[i % shapes.length],
          pointRadius: 4,
          pointHoverRadius: 7,
          pointHitRadius: 10,
          spanGaps: true,
          tension: 0
        };
      })
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      // No movement for visitors who asked their system for less of it.
      animation: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? false : { duration: 300 },
      interaction: { mode: "nearest", intersect: true },
      scales: {
        x: { title: { display: true, text: "Month" } },
        y: { title: { display: true, text: "Rating" } }
      },
      plugins: {
        legend: { labels: { usePointStyle: true } },
        tooltip: {
          callbacks: {
            label: function (context) {
              var point = context.raw;
              return context.dataset.label + ": " + point.y + (point.partial ? "P" : "");
            },
            footer: function () {
              return "Select to see how it was calculated";
            }
          }
        }
      },
      onHover: function (event, elements) {
        canvas.style.cursor = elements.length ? "pointer" : "default";
      },
      onClick: function (event, elements) {
        if (elements.length) {
          window.location.href = pointAt(elements[0]).url;
        }
      }
    }
  });
  canvas.setAttribute("data-datasets", String(chart.data.datasets.length));
})();
