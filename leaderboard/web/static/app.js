// hegemon web pages: sortable tables, rating charts, and the live part of a running season's page.
(function () {
  "use strict";
  function cellValue(row, i) {
    var text = row.cells[i] ? row.cells[i].textContent.trim() : "";
    var num = parseFloat(text.replace(/^v/, ""));
    return isNaN(num) ? text.toLowerCase() : num;
  }
  function sortable(table) {
    var head = table.rows[0];
    if (!head) { return; }
    Array.prototype.forEach.call(head.cells, function (th, i) {
      th.addEventListener("click", function () {
        var rows = Array.prototype.slice.call(table.rows, 1);
        var dir = th.getAttribute("data-dir") === "asc" ? -1 : 1;
        th.setAttribute("data-dir", dir === 1 ? "asc" : "desc");
        rows.sort(function (a, b) {
          var x = cellValue(a, i), y = cellValue(b, i);
          return (x < y ? -1 : x > y ? 1 : 0) * dir;
        });
        rows.forEach(function (r) { r.parentNode.appendChild(r); });
      });
    });
  }

  // ---- charts: <figure class=chart data-chart='{"x": .., "y": .., "series": [{bot, points}]}'>
  // (y: the rating system, named in the figure's caption and the image's label)
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                 "#7f7f7f", "#bcbd22", "#17becf"];
  function svgNode(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    parent.appendChild(e);
    return e;
  }
  // Ticks a reader can take in at once: steps of 1, 2 or 5 times a power of ten, about `count`
  // of them, spanning [lo, hi] (widened to whole steps). `least`: the smallest step allowed.
  function roundTicks(lo, hi, count, least) {
    var raw = Math.max((hi - lo) / count, least || 0) || 1;
    var power = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10));
    var step = [1, 2, 5, 10].map(function (m) { return m * power; })
      .filter(function (s) { return s >= raw * 0.999; })[0];
    var first = Math.floor(lo / step), last = Math.ceil(hi / step);
    if (last === first) { last += 1; }
    var digits = Math.max(0, -Math.floor(Math.log(step) / Math.LN10 + 1e-9));
    var ticks = [];
    for (var i = first; i <= last; i++) { ticks.push(Number((i * step).toFixed(digits))); }
    return {lo: first * step, hi: last * step, ticks: ticks, digits: digits};
  }
  function drawChart(fig) {
    var data = JSON.parse(fig.getAttribute("data-chart"));
    var old = fig.querySelector("svg");
    if (old) { old.parentNode.removeChild(old); }
    var W = 900, H = 320, left = 56, right = 170, top = 12, bottom = 38;
    var xs = [], ys = [];
    data.series.forEach(function (s) {
      s.points.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); });
    });
    var yMin = Math.min.apply(null, ys), yMax = Math.max.apply(null, ys);
    if (yMax - yMin < 10) { yMin -= 5; yMax += 5; }  // one game, or ratings that barely moved
    var X = roundTicks(Math.min(0, Math.min.apply(null, xs)), Math.max.apply(null, xs), 8, 1);
    var Y = roundTicks(yMin, yMax, 5);
    var sx = function (x) { return left + (x - X.lo) / (X.hi - X.lo) * (W - left - right); };
    var sy = function (y) { return top + (Y.hi - y) / (Y.hi - Y.lo) * (H - top - bottom); };
    var svg = svgNode("svg", {"class": "chart", viewBox: "0 0 " + W + " " + H, role: "img",
      "aria-label": data.y + " after each " + data.x}, fig);
    Y.ticks.forEach(function (y) {
      svgNode("line", {x1: left, x2: W - right, y1: sy(y), y2: sy(y), "class": "grid"}, svg);
      svgNode("text", {x: left - 6, y: sy(y) + 4, "class": "tick tick-y"}, svg)
        .textContent = y.toFixed(Y.digits);
    });
    X.ticks.forEach(function (x) {
      svgNode("line", {x1: sx(x), x2: sx(x), y1: H - bottom, y2: H - bottom + 4, "class": "axis"}, svg);
      svgNode("text", {x: sx(x), y: H - bottom + 16, "class": "tick tick-x"}, svg)
        .textContent = x.toFixed(X.digits);
    });
    svgNode("line", {x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, "class": "axis"}, svg);
    svgNode("line", {x1: left, x2: left, y1: top, y2: H - bottom, "class": "axis"}, svg);
    svgNode("text", {x: (left + W - right) / 2, y: H - 4, "class": "axis-label"}, svg)
      .textContent = data.x;
    svgNode("text", {x: 12, y: (top + H - bottom) / 2, "class": "axis-label",
      transform: "rotate(-90 12 " + (top + H - bottom) / 2 + ")"}, svg).textContent = "rating";
    data.series.forEach(function (s, i) {
      var colour = COLOURS[i % COLOURS.length];
      var g = svgNode("g", {"class": "series", "data-bot": s.bot}, svg);
      svgNode("title", {}, g).textContent = s.bot;
      if (s.points.length > 1) {
        svgNode("polyline", {fill: "none", stroke: colour, "stroke-width": 2,
          points: s.points.map(function (p) { return sx(p[0]) + "," + sy(p[1]); }).join(" ")}, g);
      }
      // the latest rating as a dot: a series of one game is that dot alone
      var last = s.points[s.points.length - 1];
      if (last) {
        var dot = svgNode("circle", {cx: sx(last[0]), cy: sy(last[1]), r: 4, fill: colour,
          "class": "last"}, g);
        svgNode("title", {}, dot).textContent =
          s.bot + ": " + last[1].toFixed(0) + " after " + data.x + " " + last[0];
      }
      svgNode("text", {x: W - right + 10, y: top + 14 + 16 * i, style: "fill:" + colour,
        "class": "legend"}, svg)
        .textContent = s.bot;
    });
  }

  function init(root) {
    Array.prototype.forEach.call(root.querySelectorAll("table.sortable"), sortable);
    Array.prototype.forEach.call(root.querySelectorAll("figure.chart[data-chart]"), drawChart);
  }
  init(document);

  var live = document.getElementById("live");
  var url = live && live.getAttribute("data-live");
  if (url && window.fetch) {
    var timer = setInterval(function () {
      fetch(url, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (d) {
        live.innerHTML = d.html;
        init(live);
        live.setAttribute("data-updated", String(Date.now()));
        var status = document.querySelector(".status");
        if (status) { status.textContent = d.status; }
        if (d.status === "finished") { clearInterval(timer); }
      }).catch(function () { /* the server may be restarting: try again next time */ });
    }, 2000);
  }
})();
