/* Tablet pairing: trade the code from /tablet/pair/<code> (or typed in) for a device token.
 *
 * The code leaves the address bar at once (history.replaceState); the token is kept in localStorage
 * under "hangjack.device" and never put in a URL. Then the page goes to /tablet/.
 */
(function () {
  "use strict";
  var root = document.getElementById("pair-app");
  if (!root) return;
  var api = root.getAttribute("data-api-pair");
  var tabletUrl = root.getAttribute("data-tablet-url");
  var formUrl = root.getAttribute("data-form-url");
  var form = document.getElementById("pair-form");
  var input = document.getElementById("pair-code");
  var status = document.getElementById("pair-status");

  var match = location.pathname.match(/\/tablet\/pair\/([^/?#]+)/);
  var code = match ? decodeURIComponent(match[1]) : "";
  if (code) history.replaceState(null, "", formUrl);

  function say(text, bad) {
    status.textContent = text;
    status.className = bad ? "status bad" : "status";
  }

  function pair(value) {
    value = (value || "").trim();
    if (!value) { say("Type the code printed for this table.", true); input.focus(); return; }
    say("Pairing this tablet…");
    form.querySelector("button").disabled = true;
    fetch(api, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      credentials: "omit",
      cache: "no-store",
      body: JSON.stringify({ code: value, label: "Scoring tablet" })
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      form.querySelector("button").disabled = false;
      if (res.status === 201 && res.body.token) {
        var device = res.body.device || {};
        localStorage.setItem("hangjack.device", JSON.stringify({
          token: res.body.token, table: device.table, device: device.id,
          tournament: res.body.tournament || null, paired_at: new Date().toISOString()
        }));
        say("Paired with table " + device.table + ". Opening the scoring page…");
        location.replace(tabletUrl);
        return;
      }
      var err = (res.body && res.body.error) || {};
      say(err.message || ("Pairing failed (" + res.status + "). Ask the organiser for a new code."), true);
      input.focus();
    }).catch(function () {
      form.querySelector("button").disabled = false;
      say("No connection to the server. Check the Wi-Fi and try again.", true);
    });
  }

  /* Entries still on this tablet (not sent yet, or on their way to the organiser's late hands) stay
   * visible here too; the scoring page sends them after pairing (docs/pages.md, "Tablet states"). */
  function waiting() {
    var box = document.getElementById("pair-waiting"), list = document.getElementById("pair-waiting-list");
    if (!box) return;
    var items = [];
    try {
      (JSON.parse(localStorage.getItem("hangjack.queue") || "[]") || []).forEach(function (q) { items.push([q.key, q.label, "waiting to be sent"]); });
      (JSON.parse(localStorage.getItem("hangjack.late") || "[]") || []).forEach(function (l) {
        if (l.status !== "delivered") items.push([l.key, l.label, "for the organiser's late hands"]);
      });
    } catch (e) { items = []; }
    list.innerHTML = "";
    items.forEach(function (it) {
      var li = document.createElement("li");
      li.setAttribute("data-key", it[0]);
      li.textContent = it[1] + " — " + it[2];
      list.appendChild(li);
    });
    box.hidden = !items.length;
  }
  waiting();

  form.addEventListener("submit", function (e) { e.preventDefault(); pair(input.value); });
  if (code) { input.value = code; pair(code); }
})();
