// The auditor dashboard's charts: weekly percent-of-hold by site, table and dealer; a click on
// a point opens the figures behind it. Addresses come from the #charts element's data- attributes.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  const charts = document.getElementById("charts");
  const siteId = charts.dataset.site;
  const dataUrl = charts.dataset.dataUrl + "?site=" + siteId;
  const quarterUrl = charts.dataset.quarterUrl;
  const dealerUrl = charts.dataset.dealerUrl;
  const palette = ["#0d6efd", "#dc3545", "#198754", "#fd7e14", "#6f42c1", "#20c997", "#6c757d", "#d63384", "#0dcaf0", "#ffc107"];
  function quarterOf(day) { const d = new Date(day + "T00:00:00"); return d.getFullYear() + "Q" + (Math.floor(d.getMonth() / 3) + 1); }
  function draw(canvasId, weeks, rows, label, link) {
    const canvas = document.getElementById(canvasId);
    if (!canvas) return;  // a site whose revenue is not a drop has no table or dealer hold to chart
    const chart = new Chart(canvas, {
      type: "line",
      data: {
        labels: weeks.map(w => w.end),
        datasets: rows.map((row, i) => ({
          label: label(row), spanGaps: true, borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length],
          data: row.points.map(p => p.hold_percent === null ? null : Number(p.hold_percent)),
        })),
      },
      options: {
        animation: false, responsive: true,
        scales: { y: { title: { display: true, text: "hold %" } }, x: { title: { display: true, text: "week ending" } } },
        plugins: { legend: { display: rows.length <= 12 } },
        onClick: (event, elements) => { if (elements.length) { const e = elements[0]; window.location = link(rows[e.datasetIndex], weeks[e.index]); } },
      },
    });
    document.getElementById(canvasId).dataset.ready = "true";
    return chart;
  }
  if (!charts.querySelector("canvas")) return;  // no site of the user's has a hold to chart
  fetch(dataUrl, { credentials: "same-origin" }).then(r => r.json()).then(data => {
    draw("chart-sites", data.weeks, data.sites, r => r.name, (r, w) => quarterUrl + "?site=" + r.id + "&quarter=" + quarterOf(w.end));
    draw("chart-tables", data.weeks, data.tables, r => r.label, (r, w) => quarterUrl + "?site=" + siteId + "&quarter=" + quarterOf(w.end));
    draw("chart-dealers", data.weeks, data.dealers, r => r.name, (r, w) => dealerUrl.replace("/0/", "/" + r.id + "/") + "?site=" + siteId + "&start=" + w.start + "&end=" + w.end);
  });
});
