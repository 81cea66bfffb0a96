// hegemon replay viewer: draws the board from the data in #replay-data and steps through it.
// No network, no libraries: works from a file on disk. The fragment #d=N names decision N: the
// page opens there, and moving through the game keeps it up to date (a link to the moment).
(function () {
  "use strict";
  var el = document.getElementById("replay-data");
  if (!el) { return; }
  var D = JSON.parse(el.textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
  // a team game: allies in shades of one hue (warm against cool), so a team reads at a glance
  var TEAM_COLOURS = [["#d62728", "#ff7f0e", "#e377c2"], ["#1f77b4", "#17becf", "#2ca02c"]];
  var DIE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
  var CONTINENT = ["#f3e3c3", "#dcefd0", "#d8e4f2", "#f2dcc8", "#e9e0f0", "#f5d9e4", "#e0f0ee", "#eee"];
  var map = D.map, n = map.territories.length, steps = D.steps, P = D.points, teams = D.teams;
  // stacks[t]: [seat, armies] of the other seats sharing territory t (team games)
  var owner = [], armies = [], stacks = [], hands = [], centres = [], pos = 0, timer = null;
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
  var defs = node("defs", {}, svg);
  var tip = node("marker", {id: "rp-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto"}, defs);
  node("path", {d: "M0,0 L10,5 L0,10 z"}, tip);
  var spots = map.territories.map(function (t, i) {
    var g = node("g", {"class": "territory", "data-index": i}, svg);
    var title = node("title", {}, g);
    var c = node("circle", {cx: t.x, cy: t.y, r: 15}, g);
    var a = node("text", {x: t.x, y: t.y + 5, "class": "armies"}, g);
    var label = node("text", {x: t.x, y: t.y + 28, "class": "name"}, g);
    label.textContent = t.name;
    // Risiko! Master: a production centre, a small square at the territory's top right
    var centre = node("rect", {x: t.x + 9, y: t.y - 19, width: 9, height: 9, "class": "centre"}, g);
    return {g: g, circle: c, armies: a, title: title, centre: centre};
  });
  // the attack of this decision, over everything else
  var arrow = node("line", {"class": "attack", "marker-end": "url(#rp-arrow)"}, svg);
  // a bot's marks on this decision (its notes: only in pages its owner sees), over the attack
  var MARK = {red: "#e41a1c", orange: "#ff7f00", yellow: "#e6c700", green: "#2ca02c",
    blue: "#1f78b4", purple: "#8e44ad", grey: "#777"};
  Object.keys(MARK).forEach(function (name) {
    var m = node("marker", {id: "rp-mark-" + name, viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 4, markerHeight: 4, orient: "auto"}, defs);
    node("path", {d: "M0,0 L10,5 L0,10 z", fill: MARK[name]}, m);
  });
  var markLayer = node("g", {"class": "marks"}, svg);

  // ---- seats
  var seatSel = $("rp-seat");
  D.seats.forEach(function (name, i) {
    var o = document.createElement("option");
    o.value = i; o.textContent = name;
    seatSel.appendChild(o);
  });
  $("rp-scrub").max = steps.length;

  function colour(p) {
    if (p < 0) { return "#bbb"; }
    if (!teams) { return COLOURS[p % COLOURS.length]; }
    var shades = TEAM_COLOURS[teams[p] % TEAM_COLOURS.length], k = 0;
    for (var q = 0; q < p; q++) { if (teams[q] === teams[p]) { k += 1; } }
    return shades[k % shades.length];
  }
  function teamName(t) { return "team " + String.fromCharCode(65 + t); }
  function teamMembers(t) {
    return D.seats.filter(function (name, p) { return teams[p] === t; });
  }

  function reset() {
    owner = D.initial.owner.slice(); armies = D.initial.armies.slice();
    stacks = D.initial.stacks ? D.initial.stacks.slice() : owner.map(function () { return []; });
    hands = D.seats.map(function () { return []; });
    centres = (D.initial.centres || []).slice();
    pos = 0;
  }
  function forward() {
    var s = steps[pos];
    s.ch.forEach(function (c) {
      owner[c[0]] = c[1]; armies[c[0]] = c[2];
      if (c.length > 3) { stacks[c[0]] = c[3]; }
    });
    if (s.h) { hands = s.h; }
    if (s.c) { centres = s.c; }
    pos += 1;
  }
  function go(target) {
    target = Math.max(0, Math.min(steps.length, target));
    if (target < pos) { reset(); }
    while (pos < target) { forward(); }
    draw();
  }

  // ---- the fragment: #d=N
  var hashTimer = null;
  function linked() {
    var m = /^#d=(\d+)$/.exec(window.location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  function writeHash() {
    hashTimer = null;
    var now = linked();
    // a replay opened at its start keeps its plain address until someone moves
    if (now !== pos && !(now === null && pos === 0) && window.history.replaceState) {
      // replace, not push: stepping through a game must not fill the back button's history
      window.history.replaceState(null, "", "#d=" + pos);
    }
  }
  function hashLater() {
    // at most a few writes a second: playing fast must not flood the browser's history
    if (hashTimer === null) { hashTimer = setTimeout(writeHash, 120); }
  }
  window.addEventListener("hashchange", function () {
    var d = linked();
    if (d !== null && d !== pos) { go(d); }
  });

  // ---- Master: points and quadrants of a seat
  function standing(p) {
    var points = 0, quadrants = 0, held = map.continents.map(function () { return true; });
    for (var i = 0; i < n; i++) {
      if (owner[i] === p) { points += P.values[i]; } else { held[map.territories[i].continent] = false; }
    }
    held.forEach(function (h) { if (h) { quadrants += 1; } });
    return {points: points, quadrants: quadrants};
  }

  function battles() {
    var shown = pos === 0 ? [] : steps[pos - 1].ev;
    return shown.filter(function (e) { return e.b; }).map(function (e) { return e.b; });
  }
  function drawAttack() {
    var all = battles(), box = $("rp-attack");
    spots.forEach(function (s) { s.g.classList.remove("source", "target"); });
    box.textContent = "";
    if (!all.length) { arrow.style.display = "none"; box.hidden = true; return; }
    var b = all[all.length - 1], from = map.territories[b[0]], to = map.territories[b[1]];
    var dx = to.x - from.x, dy = to.y - from.y, len = Math.sqrt(dx * dx + dy * dy) || 1;
    if (Math.abs(dx) > map.width / 2) {  // across the world's edge: point off the near side
      dx = dx > 0 ? -60 : 60; dy = 0; len = 60;
    }
    arrow.setAttribute("x1", from.x + dx / len * 17); arrow.setAttribute("y1", from.y + dy / len * 17);
    var stop = Math.abs(to.x - from.x) > map.width / 2 ? 60 : len - 19;
    arrow.setAttribute("x2", from.x + dx / len * stop); arrow.setAttribute("y2", from.y + dy / len * stop);
    arrow.style.display = "";
    spots[b[0]].g.classList.add("source");
    spots[b[1]].g.classList.add("target");
    box.hidden = false;
    var title = document.createElement("div"); title.className = "attack-title";
    title.textContent = D.seats[b[4]] + " attacks " + D.seats[b[5]] + ": " + from.name +
      " \u2192 " + to.name;
    box.appendChild(title);
    all.forEach(function (roll) {
      var line = document.createElement("div"); line.className = "roll";
      [["attack", roll[2]], ["defence", roll[3]]].forEach(function (side) {
        var span = document.createElement("span");
        span.className = "dice " + side[0];
        span.title = side[0] + " " + side[1].join("-");
        span.setAttribute("aria-label", span.title);
        span.textContent = side[1].map(function (d) { return DIE[d] || d; }).join("");
        line.appendChild(span);
        if (side[0] === "attack") { line.appendChild(document.createTextNode(" vs ")); }
      });
      box.appendChild(line);
    });
  }

  // this decision's notes a viewer is shown: in a seat's view only that seat's own
  function notesNow(viewer) {
    var all = pos === 0 ? [] : (steps[pos - 1].notes || []);
    return all.filter(function (note) { return viewer < 0 || note.s === viewer; });
  }
  function markLabel(x, y, text, colour) {
    if (!text) { return; }
    var label = node("text", {x: x, y: y, "class": "mark-label", fill: colour}, markLayer);
    label.textContent = text;
  }
  function drawMarks(notes) {
    markLayer.textContent = "";
    notes.forEach(function (note) {
      note.marks.forEach(function (m) {
        var c = MARK[m.colour] || MARK.yellow, from = map.territories[m.t];
        if (!from) { return; }
        var to = m.to === undefined ? null : map.territories[m.to];
        if (!to) {
          node("circle", {cx: from.x, cy: from.y, r: 23, stroke: c, "class": "mark-ring",
            "data-mark": m.t}, markLayer);
          markLabel(from.x, from.y - 27, m.label, c);
          return;
        }
        var dx = to.x - from.x, dy = to.y - from.y, len = Math.sqrt(dx * dx + dy * dy) || 1;
        if (Math.abs(dx) > map.width / 2) {  // across the world's edge: point off the near side
          dx = dx > 0 ? -60 : 60; dy = 0; len = 60;
        }
        node("line", {x1: from.x + dx / len * 18, y1: from.y + dy / len * 18,
          x2: from.x + dx / len * Math.max(len - 20, 30),
          y2: from.y + dy / len * Math.max(len - 20, 30), stroke: c,
          "class": "mark-arrow", "data-mark": m.t + ">" + m.to,
          "marker-end": "url(#rp-mark-" + (MARK[m.colour] ? m.colour : "yellow") + ")"}, markLayer);
        markLabel(from.x + dx / 2, from.y + dy / 2 - 6, m.label, c);
      });
    });
  }
  function noteItems(notes, list) {
    notes.forEach(function (note) {
      var li = document.createElement("li");
      li.className = "note";
      li.textContent = "note · " + D.seats[note.s] + ": " + (note.text || "(no text)");
      note.marks.forEach(function (m) {
        var span = document.createElement("span");
        span.className = "note-mark";
        span.style.borderColor = MARK[m.colour] || MARK.yellow;
        span.textContent = map.territories[m.t].name +
          (m.to === undefined ? "" : " \u2192 " + map.territories[m.to].name) +
          (m.label ? " \u00b7 " + m.label : "");
        li.appendChild(span);
      });
      (note.dropped || []).forEach(function (why) {
        var d = document.createElement("span"); d.className = "note-dropped";
        d.textContent = "dropped: " + why; li.appendChild(d);
      });
      list.appendChild(li);
    });
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
      var centre = centres.indexOf(i) >= 0;
      s.centre.style.display = centre ? "" : "none";
      s.g.classList.toggle("has-centre", centre);
      s.title.textContent = map.territories[i].name + ": " + (owner[i] < 0 ? "free" :
        [[owner[i], armies[i]]].concat(others).map(function (o) {
          return D.seats[o[0]] + ", " + o[1] + " armies";
        }).join("; ")) + (centres.indexOf(i) >= 0 ? " · production centre" : "") +
        (P && P.threshold ? " · " + P.values[i] + (P.values[i] === 1 ? " point" : " points") : "");
    }
    drawAttack();
    // seats: territories, armies, cards (own hand only in a seat's view)
    var table = $("rp-seats");
    table.textContent = "";
    var head = table.insertRow();
    var heads = ["seat", "terr.", "armies"];
    var tips = {"terr.": "territories", "quad.": "whole quadrants held",
      "points": "points toward the win", "centres": "production centres held"};
    // points: the territory values (half the territories to win: the count, already shown)
    var valued = P && P.threshold && P.victory === "values";
    if (valued) { heads.push("points"); }
    if (P && P.threshold) { heads.push("quad."); }
    if (P && P.centres) { heads.push("centres"); }
    heads.push("cards");
    heads.forEach(function (h) {
      var th = document.createElement("th"); th.textContent = h; head.appendChild(th);
      if (tips[h]) { th.title = tips[h]; }
    });
    // a team game lists each team together, under its name
    var order = D.seats.map(function (name, p) { return p; });
    if (teams) { order.sort(function (a, b) { return teams[a] - teams[b] || a - b; }); }
    var lastTeam = null;
    order.forEach(function (p) {
      var name = D.seats[p], terr = 0, arm = 0;
      for (var i = 0; i < n; i++) {
        if (owner[i] === p) { terr += 1; arm += armies[i]; }
        (stacks[i] || []).forEach(function (o) { if (o[0] === p) { arm += o[1]; } });
      }
      if (teams && teams[p] !== lastTeam) {
        lastTeam = teams[p];
        var band = table.insertRow();
        band.className = "team-row";
        var cell = band.insertCell();
        cell.colSpan = heads.length;
        cell.textContent = teamName(lastTeam) + ": " + teamMembers(lastTeam).join(" + ");
      }
      var row = table.insertRow();
      row.className = "seat-row";
      row.setAttribute("data-seat", p);
      var sw = row.insertCell();
      var dot = document.createElement("span"); dot.className = "dot"; dot.style.background = colour(p);
      sw.appendChild(dot); sw.appendChild(document.createTextNode(" " + name));
      row.insertCell().textContent = terr;
      row.insertCell().textContent = arm;
      if (P && P.threshold) {
        var st = standing(p);
        if (valued) { var pts = row.insertCell(); pts.className = "points"; pts.textContent = st.points; }
        var quad = row.insertCell(); quad.className = "quadrants"; quad.textContent = st.quadrants;
      }
      if (P && P.centres) {
        var own = row.insertCell(); own.className = "centres";
        own.textContent = centres.filter(function (t) { return owner[t] === p; }).length;
      }
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
    var notes = notesNow(viewer);
    drawMarks(notes);
    noteItems(notes, list);
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
    $("rp-link").href = "#d=" + pos;
    $("rp-link").textContent = "link to decision " + pos;
    // the owner's "try your bot here": the command that asks a new version this decision
    var tryIt = document.getElementById("rp-try");
    if (tryIt) {
      tryIt.textContent = "hegemon replay " + tryIt.dataset.game + " --at " +
        Math.min(pos, steps.length - 1) + " --bot PATH";
    }
    hashLater();
  }

  // what the game is played for: the teams, the points race
  (function rulesLine() {
    var parts = [];
    if (teams) {
      var names = [];
      teams.forEach(function (t) { if (names.indexOf(t) < 0) { names.push(t); } });
      parts.push(names.map(function (t) {
        return teamName(t) + " (" + teamMembers(t).join(" + ") + ")";
      }).join(" vs "));
    }
    if (P && P.threshold) {
      parts.push("wins with " + P.threshold + (P.victory === "values" ? " points" : " territories") +
        (P.quadrants ? " and " + P.quadrants + " whole quadrants" : ""));
    }
    if (P && P.centres) {
      parts.push("production centres (the small squares) add to their owner's armies");
    }
    $("rp-rules").textContent = parts.join(" · ");
    $("rp-rules").hidden = !parts.length;
  })();

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
  var start = linked();
  if (start !== null) { while (pos < Math.min(start, steps.length)) { forward(); } }
  draw();
})();
