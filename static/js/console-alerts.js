/* The console's alerts: a short sound and, when the organiser allowed them, a browser notification when a
 * table calls for help or a result is disputed (issue 16).
 *
 * The live board list (#console-live, refreshed by static/js/live.js) marks each such board's row with
 * data-alerts="help-<board> dispute-<board>" and data-table. This script watches the list; an alert key it
 * has not seen before (the ones on screen when the page opened are known already) plays a two-tone chime
 * made with the Web Audio API (no audio file) and, when Notification.permission is "granted", raises a
 * notification naming the table. Browsers let a page make sound only after a tap, and ask before
 * notifications: the button "Sound and notifications…" (shown only with this script) does both.
 * window.hangjackAlerts.alert(key, text) is the hook the browser test observes (with stubbed
 * window.Notification and AudioContext).
 */
(function () {
  "use strict";

  var live = document.getElementById("console-live");
  if (!live) return;
  var control = document.getElementById("alerts-control"), button = document.getElementById("alerts-on");
  var stateEl = document.getElementById("alerts-state");
  var AC = window.AudioContext || window.webkitAudioContext;
  var audio = null, seen = {};

  function ensureAudio() {
    if (!AC) return null;
    try { audio = audio || new AC(); } catch (e) { audio = null; }
    if (audio && audio.state === "suspended" && audio.resume) audio.resume();
    return audio;
  }
  /* Two short tones (880 Hz then 660 Hz), about half a second in all. */
  function chime() {
    var ctx = ensureAudio();
    if (!ctx) return false;
    var t = ctx.currentTime || 0;
    [[880, 0], [660, 0.22]].forEach(function (tone) {
      var o = ctx.createOscillator(), g = ctx.createGain();
      o.type = "sine";
      o.frequency.value = tone[0];
      g.gain.setValueAtTime(0.0001, t + tone[1]);
      g.gain.exponentialRampToValueAtTime(0.25, t + tone[1] + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t + tone[1] + 0.2);
      o.connect(g);
      g.connect(ctx.destination);
      o.start(t + tone[1]);
      o.stop(t + tone[1] + 0.21);
    });
    return true;
  }
  function notify(key, text) {
    if (!("Notification" in window) || window.Notification.permission !== "granted") return false;
    try {
      var n = new window.Notification("Hang Jack console", { body: text, tag: key });
      n.onclick = function () { window.focus(); };
      return true;
    } catch (e) { return false; }  // e.g. Android Chrome wants a service worker for notifications
  }
  function alert(key, text) {
    return { sound: chime(), notification: notify(key, text) };
  }

  function keys() {
    var out = [];
    Array.prototype.forEach.call(live.querySelectorAll("[data-alerts]"), function (row) {
      row.getAttribute("data-alerts").split(/\s+/).filter(Boolean).forEach(function (key) {
        var table = row.getAttribute("data-table");
        out.push([key, key.indexOf("help-") === 0 ? "Table " + table + " is calling for the organiser."
                                                  : "Table " + table + ": a result is disputed."]);
      });
    });
    return out;
  }
  function scan(announce) {
    var now = {};
    keys().forEach(function (k) {
      now[k[0]] = true;
      if (!seen[k[0]] && announce) window.hangjackAlerts.alert(k[0], k[1]);
    });
    seen = now;  // an answered call that comes back later is announced again
  }

  function describe() {
    if (!stateEl) return;
    var perm = "Notification" in window ? window.Notification.permission : "unsupported";
    stateEl.textContent = (audio && audio.state !== "suspended" ? "Sound on. " : "Sound after a tap on this button. ") +
      (perm === "granted" ? "Notifications on." : perm === "denied" ? "Notifications are blocked in this browser's settings."
        : perm === "unsupported" ? "This browser has no notifications." : "Notifications not allowed yet.");
  }
  if (control && button) {
    control.hidden = false;
    button.addEventListener("click", function () {
      ensureAudio();
      chime();  // a sample, and the tap that browsers want before a page plays sound
      if ("Notification" in window && window.Notification.permission === "default" && window.Notification.requestPermission) {
        var asked = window.Notification.requestPermission(describe);
        if (asked && asked.then) asked.then(describe);
      }
      describe();
    });
    describe();
  }

  window.hangjackAlerts = { alert: alert, scan: scan };
  scan(false);
  new MutationObserver(function () { scan(true); }).observe(live, { childList: true, subtree: true });
})();
