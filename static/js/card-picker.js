/* The card picker: a card-by-card hand entered by tapping cards, shared by the scoring tablet
 * (static/js/tablet.js) and the console's correction of a card-by-card hand (static/js/console-cards.js).
 *
 * window.HangJackDom.h(tag, attrs, kids) is the one DOM-building helper of the tablet and this picker
 * (tablet.js reuses it; this file loads first on both pages, so no page needs a third script).
 * window.HangJackCards gives the card helpers (cardText, legalCards, trickWinner, trickState) and
 * renderPlay(box, opts), which draws the two steps of a card-by-card hand into ``box``:
 *   1. the deal: for each seat the cards it held (the deal's six, then each run's cards), one seat at a
 *      time, as 52 card buttons (a card another seat holds or a kicked card is disabled);
 *   2. the tricks: the seat to play is worked out (the beggar leads, each trick's winner leads the next);
 *      its cards are offered, a card that would be a renege is marked (dashed, "✕") and recorded only on
 *      a second tap; "Take back the last card" undoes one card.
 * The state it edits is { hold: [[..], [..], [..], [..]], tricks: [[..], ..], seatEdit, armed }; after a
 * change it calls opts.changed() (which redraws), after a view-only change opts.redraw().
 * Element ids are opts.prefix + "hold-AH", "play-AH", "take-back", "seatedit-0" (the tablet has no prefix).
 * Rules of play: docs/rules.md section 4 (follow suit or trump, trump led must be followed, undertrump).
 */
(function () {
  "use strict";

  var RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  var SUITS = [["S", "♠", "spades"], ["H", "♥", "hearts"], ["D", "♦", "diamonds"], ["C", "♣", "clubs"]];
  var SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var VALUE = { A: 14, K: 13, Q: 12, J: 11, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2 };
  var POINTS = { "10": 10, A: 4, K: 3, Q: 2, J: 1 };

  /* h("p", {text: "…", "class": "x", onclick: fn, disabled: true}, [child, "text"]): an element; a null,
   * undefined or false attribute is left out, true is an empty attribute, "on…" adds a listener. */
  function h(tag, attrs, kids) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === "text") el.textContent = v;
      else if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    });
    (kids || []).forEach(function (c) { if (c) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return el;
  }
  function cardText(c) {
    if (!c) return "";
    return String(c).slice(0, -1) + (SYMBOL[String(c).slice(-1)] || String(c).slice(-1));
  }
  function rankOf(c) { return String(c).slice(0, -1); }
  function suitOf(c) { return String(c).slice(-1); }
  function val(c) { return VALUE[rankOf(c)] || 0; }

  /* The cards a seat may play (docs/rules.md section 4); the others are marked, never disabled. */
  function legalCards(rules, trump, holding, trick) {
    rules = rules || {};
    if (!trick.length) return holding.slice();
    var led = suitOf(trick[0]);
    var trumps = holding.filter(function (c) { return suitOf(c) === trump; });
    if (led === trump) return trumps.length ? trumps : holding.slice();
    if (rules.follow === "trump_only") return holding.slice();
    var follow = holding.filter(function (c) { return suitOf(c) === led; });
    var ok = follow.length ? follow.concat(trumps) : holding.slice();
    if (rules.undertrump === "forbidden" && holding.some(function (c) { return suitOf(c) !== trump; })) {
      var top = 0;
      trick.forEach(function (c) { if (suitOf(c) === trump) top = Math.max(top, val(c)); });
      if (top) ok = ok.filter(function (c) { return !(suitOf(c) === trump && val(c) < top); });
    }
    return ok;
  }
  function trickWinner(trump, trick) {
    var best = 0;
    for (var i = 1; i < trick.length; i++) {
      var c = trick[i], b = trick[best];
      if ((suitOf(c) === trump && suitOf(b) !== trump) || (suitOf(c) === suitOf(b) && val(c) > val(b))) best = i;
    }
    return best;
  }
  /* Who leads each trick and who plays next: the beggar leads, each trick's winner leads the next. */
  function trickState(tricks, dealer, trump) {
    var leader = (dealer + 1) % 4, leaders = [];
    var played = [[], [], [], []];
    tricks.forEach(function (t) {
      leaders.push(leader);
      t.forEach(function (c, i) { played[(leader + i) % 4].push(c); });
      if (t.length === 4) leader = (leader + trickWinner(trump, t)) % 4;
    });
    var current = tricks.length && tricks[tricks.length - 1].length < 4 ? tricks[tricks.length - 1] : [];
    var lead = current.length ? leaders[leaders.length - 1] : leader;
    return { leaders: leaders, played: played, current: current, seat: (lead + current.length) % 4 };
  }

  function cardGrid(name, legend, isOn, isOff, onTap, marks) {
    var fs = h("fieldset", { "class": "cardgrid" }, [h("legend", { text: legend })]);
    SUITS.forEach(function (su) {
      var row = h("div", { "class": "cardrow" });
      RANKS.forEach(function (r) {
        var c = r + su[0];
        var mark = marks ? marks(c) : null;
        row.appendChild(h("button", {
          type: "button", id: name + "-" + c, "class": "cardbtn" + (su[0] === "H" || su[0] === "D" ? " red" : "") + (isOn(c) ? " on" : "") + (mark ? " " + mark : ""),
          "aria-pressed": isOn(c) ? "true" : "false", disabled: isOff(c) ? true : null,
          "aria-label": r + " of " + su[2] + (mark === "illegal" ? " (not allowed: a renege)" : mark === "armed" ? " (tap again to record the renege)" : ""),
          onclick: function () { onTap(c); }
        }, [r + su[1]]));
      });
      fs.appendChild(row);
    });
    return fs;
  }

  /* Radio buttons styled as big targets (the tablet's "chips"). */
  function chips(name, legend, options, value, onpick, extraClass) {
    var fs = h("fieldset", { "class": "chips " + (extraClass || "") }, [h("legend", { text: legend })]);
    options.forEach(function (o) {
      var id = name + "-" + String(o.value).replace(/[^A-Za-z0-9_-]/g, "_");
      fs.appendChild(h("input", { type: "radio", name: name, id: id, value: String(o.value),
        checked: value !== null && value !== undefined && String(value) === String(o.value), onchange: function () { onpick(o.value); } }));
      fs.appendChild(h("label", { "for": id, "class": o.cls || null }, [o.label]));
    });
    return fs;
  }
  function section(field, title, kids) {
    return h("div", { "class": "fsec", "data-field": field }, [title ? h("h3", { text: title }) : null].concat(kids));
  }

  /* Draw the deal and the tricks of a card-by-card hand into box. opts: state, need (cards per seat),
   * kicked (cards no seat can hold), dealer, trump, rules, seatName(seat), changed(), redraw(), flash(text),
   * prefix, and optionally chips/section (the tablet's own, with its field errors). */
  function renderPlay(box, opts) {
    var f = opts.state, need = opts.need, kicked = opts.kicked || [], trump = opts.trump, dealer = opts.dealer;
    var p = opts.prefix || "", mkChips = opts.chips || chips, mkSection = opts.section || section;
    var seatName = opts.seatName || function (s) { return "Seat " + (s + 1); };
    var flash = opts.flash || function () {};
    var owner = function (c) { for (var s = 0; s < 4; s++) if (f.hold[s].indexOf(c) !== -1) return s; return -1; };
    var incomplete = [0, 1, 2, 3].filter(function (s) { return f.hold[s].length !== need; });
    var editing = f.seatEdit !== null && f.seatEdit !== undefined ? f.seatEdit : (incomplete.length ? incomplete[0] : null);
    var dealKids = [mkChips(p + "seatedit", "Cards held (" + need + " each)", [0, 1, 2, 3].map(function (s) {
      return { value: s, label: "Seat " + (s + 1) + ": " + f.hold[s].length + "/" + need };
    }), editing, function (s) { f.seatEdit = s; opts.redraw(); }, "seats4")];
    if (editing !== null) {
      dealKids.push(cardGrid(p + "hold", "Tap the cards of " + seatName(editing), function (c) { return f.hold[editing].indexOf(c) !== -1; },
        function (c) { var o = owner(c); return kicked.indexOf(c) !== -1 || (o !== -1 && o !== editing) || f.tricks.length > 0; },
        function (c) {
          var i = f.hold[editing].indexOf(c);
          if (i !== -1) f.hold[editing].splice(i, 1);
          else if (f.hold[editing].length < need) f.hold[editing].push(c);
          if (f.hold[editing].length === need) f.seatEdit = null;
          opts.changed();
        }));
    }
    box.appendChild(mkSection("hand.deal", "The deal", dealKids));
    if (incomplete.length) return;
    var ts = trickState(f.tricks, dealer, trump);
    var done = f.tricks.length === need && f.tricks[need - 1].length === 4;
    var trickKids = [h("ol", { "class": "tricks" }, f.tricks.map(function (t, k) {
      var lead = ts.leaders[k];
      return h("li", {}, [t.map(function (c, i) { return "S" + ((lead + i) % 4 + 1) + " " + cardText(c); }).join(", ") +
        (t.length === 4 ? " → seat " + ((lead + trickWinner(trump, t)) % 4 + 1) : "")]);
    }))];
    if (!done) {
      var seat = ts.seat, holding = f.hold[seat].filter(function (c) { return ts.played[seat].indexOf(c) === -1; });
      var ok = legalCards(opts.rules, trump, holding, ts.current);
      trickKids.push(cardGrid(p + "play", "Trick " + (ts.current.length ? f.tricks.length : f.tricks.length + 1) + ": " + seatName(seat) + " plays",
        function () { return false; }, function (c) { return holding.indexOf(c) === -1; },
        function (c) {
          if (ok.indexOf(c) === -1 && f.armed !== c) { f.armed = c; opts.redraw(); flash("Not allowed: that would be a renege. Tap it again to record it."); return; }
          f.armed = null;
          if (!ts.current.length) f.tricks.push([]);
          f.tricks[f.tricks.length - 1].push(c);
          opts.changed();
        },
        function (c) { return holding.indexOf(c) === -1 ? null : c === f.armed ? "armed" : ok.indexOf(c) === -1 ? "illegal" : null; }));
    } else {
      trickKids.push(h("p", { "class": "ends", text: "All " + need + " tricks are in. Check the hand." }));
    }
    if (f.tricks.length) trickKids.push(h("button", { type: "button", id: p + "take-back", "class": "secondary", onclick: function () {
      var t = f.tricks[f.tricks.length - 1]; t.pop(); if (!t.length) f.tricks.pop(); f.armed = null; opts.changed();
    } }, ["Take back the last card"]));
    box.appendChild(mkSection("hand.tricks", "Tricks", trickKids));
  }

  window.HangJackDom = { h: h };
  window.HangJackCards = {
    RANKS: RANKS, SUITS: SUITS, SYMBOL: SYMBOL, VALUE: VALUE, POINTS: POINTS,
    h: h, cardText: cardText, rankOf: rankOf, suitOf: suitOf, val: val,
    legalCards: legalCards, trickWinner: trickWinner, trickState: trickState,
    cardGrid: cardGrid, chips: chips, renderPlay: renderPlay
  };
})();
