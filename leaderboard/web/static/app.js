// hegemon web pages: sortable tables, and the live part of a running season's page.
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
  function init(root) {
    Array.prototype.forEach.call(root.querySelectorAll("table.sortable"), sortable);
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
