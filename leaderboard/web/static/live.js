// hegemon live game: follows a game in play over server-sent events and hands each new
// decision to the replay viewer (replay.js); when the game ends, the page becomes its replay.
(function () {
  "use strict";
  var status = document.getElementById("live-status");
  if (!status || !window.hegemonReplay || !window.EventSource) { return; }
  var viewer = window.hegemonReplay;
  if (!/^#d=\d+$/.test(window.location.hash)) { viewer.go(viewer.steps); }
  var url = status.dataset.events + "?from=" + status.dataset.from;
  var source = new EventSource(url);
  source.addEventListener("steps", function (ev) {
    var got = JSON.parse(ev.data);
    var known = viewer.steps - got.from;  // a stream opened again sends what we have
    if (known >= 0 && known < got.steps.length) { viewer.extend(got.steps.slice(known)); }
  });
  source.addEventListener("end", function (ev) {
    var got = JSON.parse(ev.data);
    source.close();
    status.textContent = got.message;
    if (got.url) { window.location.replace(got.url + "#d=" + viewer.position()); }
  });
  source.onerror = function () {
    if (source.readyState === EventSource.CLOSED) {
      status.textContent = "live: disconnected; reload to follow the game again";
    }
  };
})();
