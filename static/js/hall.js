/* The hall display (issue 17): a TV or projector shows pairings, live boards and standings in turn, a
 * screenful at a time, with the round clock counting down; nobody touches it. The page is re-read every
 * data-refresh-seconds (the same file for every screen, 304 when unchanged) and its panels swapped in. */
(function () {
  "use strict";
  var hall = document.getElementById("hall");
  if (!hall) return;
  var cycle = (parseFloat(hall.getAttribute("data-cycle-seconds")) || 15) * 1000;
  var refresh = (parseFloat(hall.getAttribute("data-refresh-seconds")) || 20) * 1000;
  var ids = ["hall-pairings", "hall-boards", "hall-standings"];
  var index = 0;
  document.documentElement.classList.add("hall-cycling");

  function panels() { return ids.map(function (id) { return document.getElementById(id); }); }
  function show() {
    var list = panels();
    list.forEach(function (p, i) { if (p) p.classList.toggle("hall-current", i === index); });
    var step = document.getElementById("hall-step");
    var current = list[index];
    if (step && current) {
      var h = current.querySelector("h2");
      var pages = Math.max(1, Math.ceil(current.scrollHeight / Math.max(1, current.clientHeight)));
      var page = Math.floor(current.scrollTop / Math.max(1, current.clientHeight)) + 1;
      step.textContent = (index + 1) + " of " + list.length + ": " + (h ? h.textContent : "") + (pages > 1 ? " (screen " + page + " of " + pages + ")" : "");
    }
  }
  function advance() {
    var current = panels()[index];
    // a long list pages through a screenful at a time before the next panel
    if (current && current.scrollTop + current.clientHeight < current.scrollHeight - 4) {
      current.scrollTop += current.clientHeight - 40;
    } else {
      if (current) current.scrollTop = 0;
      index = (index + 1) % ids.length;
    }
    show();
  }

  function tick() {
    var clock = document.getElementById("hall-clock");
    if (!clock || clock.getAttribute("data-called") === "1") return;
    var ends = Date.parse(clock.getAttribute("data-ends-at") || "");
    var left = clock.querySelector(".left");
    if (!left || isNaN(ends)) return;
    var s = Math.max(0, Math.round((ends - Date.now()) / 1000));
    var text = s <= 0 ? "time is up" : Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2) + " left";
    left.textContent = "(" + text + ")";
    clock.classList.toggle("hall-clock-low", s > 0 && s <= 300);
  }

  function reload() {
    fetch(location.href, { cache: "no-cache", credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      ["hall-pairings", "hall-boards", "hall-standings"].forEach(function (id) {
        var fresh = doc.getElementById(id), old = document.getElementById(id);
        if (fresh && old && fresh.innerHTML !== old.innerHTML) old.innerHTML = fresh.innerHTML;
      });
      var freshHead = doc.querySelector(".hall-head"), oldHead = document.querySelector(".hall-head");
      if (freshHead && oldHead) {
        ["hall-state"].forEach(function (cls) {
          var a = freshHead.querySelector("." + cls), b = oldHead.querySelector("." + cls);
          if (a && b) b.innerHTML = a.innerHTML;
        });
        var fc = doc.getElementById("hall-clock"), oc = document.getElementById("hall-clock");
        if (fc && oc) { oc.outerHTML = fc.outerHTML; } else if (fc && !oc) { oldHead.appendChild(fc); } else if (oc && !fc) { oc.remove(); }
      }
      tick();
      show();
    }).catch(function () { /* keep showing what we have; try again at the next refresh */ });
  }

  show();
  tick();
  setInterval(tick, 1000);
  setInterval(advance, cycle);
  setInterval(reload, refresh);
})();
