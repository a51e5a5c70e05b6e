/* Live fragments for public pages, in plain JavaScript (about 2 kB instead of a 50 kB library).
 *
 * Any element with data-poll-url is refreshed from that URL every data-poll-seconds seconds (0: never;
 * data-poll-now: once at load, e.g. the full pairings list behind a server-side search).
 * Requests revalidate with the browser cache (ETag), so an unchanged fragment costs a tiny 304.
 * Polling pauses while the page is hidden and backs off when the network fails.
 *
 * A form with data-filter-target="ID" filters the rows of #ID as the user types (rows carry
 * data-search), so the pairings search needs no round trip; the form still works without script.
 */
(function () {
  "use strict";

  // The note under a page's parts names the most frequent of their intervals (a large event's standings poll
  // their top every 15 s and the whole table every minute: "every 15 seconds").
  var intervals = [];

  function every() {
    return intervals.length ? "every " + Math.min.apply(null, intervals) + " seconds" : "every few seconds";
  }

  function note(text, offline) {
    var el = document.getElementById("poll-note");
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("offline", !!offline);
  }

  // A standings row a reader opened (<details>, keyed by its pair's link) stays open when the part is
  // replaced by a newer one.
  function rowKey(details) {
    var link = details.querySelector(".row-link a");
    return link ? link.getAttribute("href") : null;
  }

  function openRows(el) {
    var keys = {};
    el.querySelectorAll("details[open]").forEach(function (d) {
      var key = rowKey(d);
      if (key) keys[key] = true;
    });
    return keys;
  }

  function reopen(el, keys) {
    el.querySelectorAll("details").forEach(function (d) {
      if (keys[rowKey(d)]) d.open = true;
    });
  }

  function poll(el) {
    var seconds = parseFloat(el.getAttribute("data-poll-seconds") || "5");
    var now = el.hasAttribute("data-poll-now");
    if (!(seconds > 0) && !now) return;
    if (seconds > 0) intervals.push(seconds);
    var url = el.getAttribute("data-poll-url");
    var last = null;
    var failures = 0;
    var timer = null;

    function schedule() {
      clearTimeout(timer);
      if (!(seconds > 0)) return;
      var wait = seconds * 1000 * Math.min(8, Math.pow(2, failures));
      timer = setTimeout(tick, wait);
    }

    function tick() {
      if (document.hidden) { schedule(); return; }
      fetch(url, { cache: "no-cache", credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.text();
        })
        .then(function (html) {
          failures = 0;
          if (html !== last) {
            last = html;
            var focused = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
            var opened = openRows(el);
            el.innerHTML = html;
            reopen(el, opened);
            if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
            applyFilters();
          }
          note("Updated " + new Date().toLocaleTimeString() + ". This page updates itself " + every() + ".", false);
          schedule();
        })
        .catch(function () {
          failures += 1;
          note("Cannot reach the server; trying again. The figures shown may be out of date.", true);
          schedule();
        });
    }

    document.addEventListener("visibilitychange", function () { if (!document.hidden) tick(); });
    last = el.innerHTML;
    if (now) tick(); else schedule();
  }

  var filters = [];
  function applyFilters() {
    filters.forEach(function (f) { f(); });
  }

  function filterForm(form) {
    var target = document.getElementById(form.getAttribute("data-filter-target"));
    var input = form.querySelector("input[type=search]");
    var status = document.getElementById("search-status");
    if (!target || !input) return;
    function run() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var rows = target.querySelectorAll("[data-search]");
      var shown = 0;
      rows.forEach(function (row) {
        var text = row.getAttribute("data-search");
        var ok = words.every(function (w) { return text.indexOf(w) !== -1; });
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      if (status && words.length) status.textContent = shown + " of " + rows.length + " boards match.";
      else if (status) status.textContent = "";
    }
    input.addEventListener("input", run);
    filters.push(run);
  }

  document.querySelectorAll("form[data-filter-target]").forEach(filterForm);
  document.querySelectorAll("[data-poll-url]").forEach(poll);
})();
