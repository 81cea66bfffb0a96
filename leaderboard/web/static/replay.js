// hegemon replay viewer: draws the board from the data in #replay-data and steps through it.
// No network, no libraries: works from a file on disk.
(function () {
  "use strict";
  var el = document.getElementById("replay-data");
  if (!el) { return; }
  var D = JSON.parse(el.textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
  var CONTINENT = ["#f3e3c3", "#dcefd0", "#d8e4f2", "#f2dcc8", "#e9e0f0", "#f5d9e4", "#e0f0ee", "#eee"];
  var map = D.map, n = map.territories.length, steps = D.steps;
  // stacks[t]: [seat, armies] of the other seats sharing territory t (team games)
  var owner = [], armies = [], stacks = [], hands = [], pos = 0, timer = null;
  var $ = function (id) { return document.getElementById(id); };

  function node(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(e); }
    return e;
  }

  // ---- the board
  var svg = $("rp-map");
  svg.setAttribute("viewBox", "0 0 " + map.width + " " + map.height);
  var land = node("g", {"class": "land"}, svg), lines = node("g", {"class": "borders"}, svg);
  map.territories.forEach(function (t) {
    node("circle", {cx: t.x, cy: t.y, r: 44, fill: CONTINENT[t.continent % CONTINENT.length]}, land);
  });
  map.borders.forEach(function (b) {
    var p = map.territories[b[0]], q = map.territories[b[1]];
    if (Math.abs(p.x - q.x) > map.width / 2) {  // wraps round the world: two stubs
      var l = p.x < q.x ? p : q, r = p.x < q.x ? q : p;
      node("line", {x1: l.x, y1: l.y, x2: 0, y2: l.y}, lines);
      node("line", {x1: r.x, y1: r.y, x2: map.width, y2: r.y}, lines);
    } else {
      node("line", {x1: p.x, y1: p.y, x2: q.x, y2: q.y}, lines);
    }
  });
  var spots = map.territories.map(function (t, i) {
    var g = node("g", {"class": "territory", "data-index": i}, svg);
    var title = node("title", {}, g);
    var c = node("circle", {cx: t.x, cy: t.y, r: 15}, g);
    var a = node("text", {x: t.x, y: t.y + 5, "class": "armies"}, g);
    var label = node("text", {x: t.x, y: t.y + 28, "class": "name"}, g);
    label.textContent = t.name;
    return {g: g, circle: c, armies: a, title: title};
  });

  // ---- seats
  var seatSel = $("rp-seat");
  D.seats.forEach(function (name, i) {
    var o = document.createElement("option");
    o.value = i; o.textContent = name;
    seatSel.appendChild(o);
  });
  $("rp-scrub").max = steps.length;

  function colour(p) { return p < 0 ? "#bbb" : COLOURS[p % COLOURS.length]; }

  function reset() {
    owner = D.initial.owner.slice(); armies = D.initial.armies.slice();
    stacks = D.initial.stacks ? D.initial.stacks.slice() : owner.map(function () { return []; });
    hands = D.seats.map(function () { return []; });
    pos = 0;
  }
  function forward() {
    var s = steps[pos];
    s.ch.forEach(function (c) {
      owner[c[0]] = c[1]; armies[c[0]] = c[2];
      if (c.length > 3) { stacks[c[0]] = c[3]; }
    });
    if (s.h) { hands = s.h; }
    pos += 1;
  }
  function go(target) {
    target = Math.max(0, Math.min(steps.length, target));
    if (target < pos) { reset(); }
    while (pos < target) { forward(); }
    draw();
  }

  function eventText(e, viewer) {
    return (viewer >= 0 && e.r !== undefined && e.s !== viewer) ? e.r : e.t;
  }

  function draw() {
    var viewer = parseInt(seatSel.value, 10);
    for (var i = 0; i < n; i++) {
      var s = spots[i];
      var others = stacks[i] || [];
      s.circle.setAttribute("fill", colour(owner[i]));
      // a shared territory (team game): "3+2", ringed in the first other seat's colour
      s.armies.textContent = owner[i] < 0 ? "" :
        [armies[i]].concat(others.map(function (o) { return o[1]; })).join("+");
      s.armies.setAttribute("class", others.length ? "armies stacked" : "armies");
      s.circle.style.stroke = others.length ? colour(others[0][0]) : "";
      s.circle.style.strokeWidth = others.length ? "4" : "";
      s.g.setAttribute("data-owner", owner[i]);
      s.g.setAttribute("data-armies", armies[i]);
      s.g.setAttribute("data-stack", others.map(function (o) { return o[0] + ":" + o[1]; }).join(","));
      s.title.textContent = map.territories[i].name + ": " + (owner[i] < 0 ? "free" :
        [[owner[i], armies[i]]].concat(others).map(function (o) {
          return D.seats[o[0]] + ", " + o[1] + " armies";
        }).join("; "));
    }
    // seats: territories, armies, cards (own hand only in a seat's view)
    var table = $("rp-seats");
    table.textContent = "";
    var head = table.insertRow();
    ["seat", "terr.", "armies", "cards"].forEach(function (h) {
      var th = document.createElement("th"); th.textContent = h; head.appendChild(th);
    });
    D.seats.forEach(function (name, p) {
      var terr = 0, arm = 0;
      for (var i = 0; i < n; i++) {
        if (owner[i] === p) { terr += 1; arm += armies[i]; }
        (stacks[i] || []).forEach(function (o) { if (o[0] === p) { arm += o[1]; } });
      }
      var row = table.insertRow();
      row.className = "seat-row";
      var sw = row.insertCell();
      var dot = document.createElement("span"); dot.className = "dot"; dot.style.background = colour(p);
      sw.appendChild(dot); sw.appendChild(document.createTextNode(" " + name));
      row.insertCell().textContent = terr;
      row.insertCell().textContent = arm;
      var cards = row.insertCell();
      cards.className = "cards";
      var hand = hands[p] || [];
      cards.textContent = (viewer < 0 || viewer === p) ? (hand.join(", ") || "—") : hand.length + " cards";
    });
    // this decision
    var list = $("rp-events");
    list.textContent = "";
    var shown = pos === 0 ? D.opening : steps[pos - 1].ev;
    if (pos > 0) {
      var s = steps[pos - 1], li = document.createElement("li");
      li.className = "action";
      // a private action (a secret capital) reads as its redacted text to the other seats
      var said = (viewer >= 0 && s.ar !== undefined && s.p !== viewer) ? s.ar : s.a;
      li.textContent = D.seats[s.p] !== undefined ? D.seats[s.p] + ": " + said : said;
      list.appendChild(li);
    } else {
      var start = document.createElement("li"); start.className = "action";
      start.textContent = "set-up"; list.appendChild(start);
    }
    shown.forEach(function (e) {
      var li = document.createElement("li");
      li.className = "ev-" + e.k;
      li.textContent = eventText(e, viewer);
      list.appendChild(li);
    });
    if (pos === steps.length && D.result) {
      var end = document.createElement("li"); end.className = "result";
      end.textContent = "result: " + D.result.reason + " — places " + D.result.places.join(", ");
      list.appendChild(end);
    }
    $("rp-scrub").value = pos;
    var round = pos > 0 ? steps[pos - 1].r : 0;
    $("rp-pos").textContent = "decision " + pos + " / " + steps.length + " · round " + round;
  }

  function turnTarget(dir) {
    var i = pos + dir;
    while (i > 0 && i < steps.length && !steps[i - 1].turn) { i += dir; }
    return i;
  }
  function play() {
    if (timer) { clearInterval(timer); timer = null; $("rp-play").textContent = "play"; return; }
    if (pos >= steps.length) { go(0); }
    $("rp-play").textContent = "pause";
    timer = setInterval(function () {
      if (pos >= steps.length) { play(); return; }
      forward(); draw();
    }, parseInt($("rp-speed").value, 10));
  }

  $("rp-first").onclick = function () { go(0); };
  $("rp-last").onclick = function () { go(steps.length); };
  $("rp-prev").onclick = function () { go(pos - 1); };
  $("rp-next").onclick = function () { go(pos + 1); };
  $("rp-prev-turn").onclick = function () { go(turnTarget(-1)); };
  $("rp-next-turn").onclick = function () { go(turnTarget(1)); };
  $("rp-play").onclick = play;
  $("rp-scrub").oninput = function () { go(parseInt(this.value, 10)); };
  seatSel.onchange = draw;
  $("rp-speed").onchange = function () { if (timer) { play(); play(); } };
  document.addEventListener("keydown", function (ev) {
    if (ev.target && ev.target.tagName === "SELECT") { return; }
    var keys = {
      ArrowLeft: function () { go(ev.shiftKey ? turnTarget(-1) : pos - 1); },
      ArrowRight: function () { go(ev.shiftKey ? turnTarget(1) : pos + 1); },
      Home: function () { go(0); },
      End: function () { go(steps.length); },
      " ": play
    };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });
  window.hegemonReplay = {go: go, steps: steps.length, position: function () { return pos; }};
  reset();
  draw();
})();
