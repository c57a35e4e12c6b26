/* The integrity watch's charts: for each flag, the ratings used month by month of the players
   it concerns (a line each), from the data its scan stored beside the canvas. */
(function () {
  "use strict";
  if (!window.Chart) {
    return;
  }
  // Dark enough for 3:1 against white, and told apart by point shape as well as colour.
  var colours = ["#b0183f", "#0b5394", "#a6470a", "#18753c", "#7a2c9e", "#5c5c5c", "#00707a", "#8a6d00"];
  var shapes = ["star", "circle", "rect", "triangle", "rectRot", "crossRot", "rectRounded", "cross"];
  var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  document.querySelectorAll("canvas[data-flag-chart]").forEach(function (canvas) {
    var source = document.getElementById(canvas.getAttribute("data-flag-chart"));
    if (!source) {
      return;
    }
    var data = JSON.parse(source.textContent);
    new window.Chart(canvas, {
      type: "line",
      data: {
        labels: data.months,
        datasets: data.series.map(function (series, i) {
          return {
            label: series.name,
            data: series.ratings,
            borderColor: colours[i % colours.length],
            backgroundColor: colours[i % colours.length],
            pointStyle: shapes[i % shapes.length],
            pointRadius: i === 0 ? 5 : 3,
            borderWidth: i === 0 ? 3 : 1.5,
            spanGaps: true,
            tension: 0
          };
        })
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: still ? false : { duration: 300 },
        scales: { y: { title: { display: true, text: "Rating used" } } },
        plugins: { legend: { labels: { usePointStyle: true, boxWidth: 8 } } }
      }
    });
  });
})();
