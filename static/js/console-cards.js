/* The console's correction of a card-by-card hand with the tablet's card picker (static/js/card-picker.js).
 *
 * Each correction form marked data-play (templates/console/board.html) holds the card form's text fields
 * (web/play_form.py): kicks, beg, thrown-in deals, the cards each seat held and the tricks. This script
 * draws the picker above them and writes every tap back into those fields, so the form posts the same
 * either way; the typed fields stay under "Type the cards instead". "Check the reading" asks the server
 * for the engine's reading (POST data-reading-url, the same engine call as saving, nothing stored) and
 * shows each event with its points; Save is enabled only once the reading of what is on screen is shown.
 * Without JavaScript the fields are typed and the buttons post as they are.
 */
(function () {
  "use strict";

  var C = window.HangJackCards;
  if (!C) return;
  var h = C.h;

  function cards(text) {
    return String(text || "").split(/[\s,]+/).filter(Boolean).map(function (c) {
      c = c.toUpperCase(); return c.charAt(0) === "T" ? "10" + c.slice(1) : c;
    });
  }

  function setup(form) {
    var p = form.getAttribute("data-prefix");
    var box = form.querySelector("[data-picker]"), typed = form.querySelector("[data-typed]");
    var readingBox = form.querySelector("[data-reading]");
    var check = form.querySelector("[data-check]"), save = form.querySelector("[data-save]");
    var dealer = parseInt(form.getAttribute("data-dealer"), 10) || 0;
    var rules = { run_cards: parseInt(form.getAttribute("data-run-cards"), 10) || 3,
                  follow: form.getAttribute("data-follow"), undertrump: form.getAttribute("data-undertrump") };
    function field(name) { return form.elements[p + name]; }
    var state = {
      hold: [0, 1, 2, 3].map(function (s) { return cards(field("held_" + s).value); }),
      tricks: String(field("tricks").value || "").split(/\n/).map(cards).filter(function (t) { return t.length; }),
      seatEdit: null, armed: null
    };
    var note = h("p", { "class": "small picker-note", role: "status" });
    var current = false;  // the reading on screen is that of the fields as they are

    function kicks() { return cards(field("kicks").value); }
    function need() {
      var runs = field("beg").value === "run" ? Math.max(0, kicks().length - 1) : 0;
      return 6 + runs * rules.run_cards;
    }
    function trump() { var k = kicks(); return k.length ? C.suitOf(k[k.length - 1]) : null; }
    function writeBack() {
      state.hold.forEach(function (cs, s) { field("held_" + s).value = cs.join(" "); });
      field("tricks").value = state.tricks.map(function (t) { return t.join(" "); }).join("\n");
    }
    function stale() {
      current = false;
      if (save) { save.disabled = true; save.title = "Check the reading first"; }
      if (readingBox && !readingBox.hidden) readingBox.classList.add("stale");
    }
    function draw() {
      box.textContent = "";
      var t = trump();
      if (!t) { box.appendChild(h("p", { text: "Enter the kicks first: the cards follow from the trump." })); return; }
      box.appendChild(h("p", { "class": "trump" }, ["Trump: ", h("strong", { "class": t === "H" || t === "D" ? "red" : null,
        text: C.SYMBOL[t] + " " + { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[t] })]));
      C.renderPlay(box, {
        state: state, need: need(), kicked: kicks().concat(cards(String(field("abandoned").value).replace(/\//g, " "))),
        dealer: dealer, trump: t, rules: rules, prefix: p,
        seatName: function (s) { var l = form.querySelector("label[for=id_" + p + "held_" + s + "]"); return l ? l.textContent.replace(/^Cards held: /, "") : "Seat " + (s + 1); },
        flash: function (text) { note.textContent = text; },
        changed: function () { note.textContent = ""; writeBack(); stale(); draw(); },
        redraw: draw
      });
      box.appendChild(note);
    }
    function showReading(r) {
      readingBox.textContent = "";
      readingBox.classList.remove("stale");
      readingBox.appendChild(h("p", {}, [h("strong", { text: "The engine reads hand " + r.hand + ":" }), " " + r.score_before[0] + "-" + r.score_before[1] + " → ",
        h("strong", { text: r.score[0] + "-" + r.score[1] }), r.winner ? " · the game ends: bullseye to " + r.winner : ""]));
      var ul = h("ul", { "class": "events" });
      (r.events.length ? r.events : [null]).forEach(function (e) {
        ul.appendChild(h("li", { text: e ? e.text + ": " + e.side + " +" + e.points : "No points scored" }));
      });
      readingBox.appendChild(ul);
      readingBox.hidden = false;
    }
    function showRefusal(err) {
      readingBox.textContent = "";
      readingBox.classList.remove("stale");
      var kids = [h("p", {}, [h("strong", { text: "Not a hand the engine can read: " }), err.message || "refused"])];
      Object.keys(err.fields || {}).forEach(function (k) { if (err.fields[k] !== err.message) kids.push(h("p", { "class": "field-error", text: err.fields[k] })); });
      kids.forEach(function (k) { readingBox.appendChild(k); });
      readingBox.hidden = false;
    }
    function askReading() {
      var body = new FormData(form);
      body.set("action", "check_hand");
      check.disabled = true;
      fetch(form.getAttribute("data-reading-url"), { method: "POST", body: body, credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, j: j }; }); })
        .then(function (res) {
          if (res.ok && res.j.reading) { showReading(res.j.reading); current = true; if (save) { save.disabled = false; save.title = ""; } }
          else { showRefusal((res.j && res.j.error) || {}); stale(); }
        })
        .catch(function () { showRefusal({ message: "The server could not be reached: try again." }); })
        .then(function () { check.disabled = false; });
    }

    // The typed fields stay, folded away, for a card the picker cannot show (or to read the whole hand).
    var fold = h("details", { "class": "typed-fold" }, [h("summary", { text: "Type the cards instead" })]);
    typed.parentNode.insertBefore(fold, typed);
    fold.appendChild(typed);
    typed.addEventListener("change", function () {
      state.hold = [0, 1, 2, 3].map(function (s) { return cards(field("held_" + s).value); });
      state.tricks = String(field("tricks").value || "").split(/\n/).map(cards).filter(function (t) { return t.length; });
      stale(); draw();
    });
    ["kicks", "beg", "abandoned"].forEach(function (n) { field(n).addEventListener("change", function () { stale(); draw(); }); });
    check.addEventListener("click", function (e) { e.preventDefault(); askReading(); });
    form.addEventListener("submit", function (e) {
      var by = e.submitter;
      if (by && by === save && !current) { e.preventDefault(); askReading(); }
    });
    box.hidden = false;
    draw();
    if (!readingBox.hidden) { current = true; } else { stale(); }
  }

  Array.prototype.forEach.call(document.querySelectorAll("form[data-play]"), setup);
})();
