/* The scoring tablet: one page per table, in plain JavaScript over the REST API.
 *
 * - The device token sits in localStorage ("hangjack.device") and goes in an Authorization header;
 *   never in a URL, never in a cookie.
 * - Three small state machines (page, entry, queue) whose transitions are written in one table,
 *   TRANSITIONS, below; docs/pages.md ("Tablet states") has the same table. Every state shows at least
 *   one enabled action or a waiting message that says why.
 * - Start-up always reads the board first (the server, else the last state kept in localStorage,
 *   "hangjack.board"), then sends the queue (if any: an empty queue asks for no second read).
 * - Board reads are conditional: the ETag of the state shown goes in If-None-Match; a 304 keeps it.
 * - Every write (seating, hand, undo, confirmation, help call) goes through one ordered queue kept in
 *   localStorage ("hangjack.queue"), each entry with its own Idempotency-Key, sent one at a time. A
 *   network failure keeps them; a refusal stops the queue at that entry and shows Fix / Discard with the
 *   server's reason. A refusal no fix can mend (the pairing revoked, the round closed, the event
 *   finished) sends the entries to the organiser's inbox of late hands ("hangjack.late") and, for a
 *   revoked pairing, says "pair again".
 * - Check before send: online, Send is enabled only once the engine's reading (the preview) of the
 *   current entry is on screen next to it; offline the hand is queued as entered, "reading on sending".
 * - An offline shell: a service worker (/tablet/sw.js) keeps this page and its files; it takes a new
 *   version only when the queue is empty.
 * - The screen is kept awake with the Wake Lock API where the browser allows; the page says so when
 *   it cannot.
 */
(function () {
  "use strict";

  var app = document.getElementById("app");
  if (!app) return;
  var API = {};
  ["board", "seat", "preview", "hands", "undo", "confirm", "help", "late"].forEach(function (k) {
    API[k] = app.getAttribute("data-api-" + k);
  });
  var K_DEVICE = "hangjack.device", K_QUEUE = "hangjack.queue", K_DRAFT = "hangjack.draft", K_BOARD = "hangjack.board";
  var K_LATE = "hangjack.late", K_NOTICES = "hangjack.notices", K_JOURNAL = "hangjack.journal";
  var RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  var SUITS = [["S", "♠", "spades"], ["H", "♥", "hearts"], ["D", "♦", "diamonds"], ["C", "♣", "clubs"]];
  var SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var LETTER = ["A", "B"];

  // ---- the state machines ------------------------------------------------------------------------
  /* One table: [machine, from states, event, to state]. An event a state does not list changes nothing
   * (it is logged in window.hangjackTablet.log). docs/pages.md, "Tablet states", is this table in words. */
  var PLAYING = ["loading", "no_connection", "waiting_for_round", "seating", "board", "match_over", "forfeited"];
  var TRANSITIONS = [
    ["page", ["start"], "no_token", "unpaired"],
    ["page", ["start"], "token", "loading"],
    ["page", PLAYING, "board_unseated", "seating"],
    ["page", PLAYING, "board_in_play", "board"],
    ["page", PLAYING, "board_over", "match_over"],
    ["page", PLAYING, "board_forfeited", "forfeited"],
    ["page", PLAYING, "no_board", "waiting_for_round"],
    ["page", ["loading"], "unreachable_nothing_kept", "no_connection"],
    ["page", ["no_connection"], "retry", "loading"],
    ["page", PLAYING, "token_refused", "pair_again"],

    ["entry", ["entering"], "check_online", "checking"],
    ["entry", ["entering"], "check_offline", "ready_to_send"],
    ["entry", ["checking"], "reading", "ready_to_send"],
    ["entry", ["checking"], "refused", "entering"],
    ["entry", ["checking"], "unreachable", "ready_to_send"],
    ["entry", ["checking", "ready_to_send"], "changed", "entering"],
    ["entry", ["checking", "ready_to_send"], "board_moved", "entering"],
    ["entry", ["ready_to_send"], "send", "entering"],
    ["entry", ["entering", "checking", "ready_to_send"], "fix", "entering"],

    ["queue", ["idle", "waiting", "offline_queued"], "send_start", "sending"],
    ["queue", ["sending"], "sent", "idle"],
    ["queue", ["sending"], "gone_late", "idle"],
    ["queue", ["sending"], "busy", "waiting"],
    ["queue", ["sending", "idle", "waiting"], "unreachable", "offline_queued"],
    ["queue", ["idle"], "enqueued_offline", "offline_queued"],
    ["queue", ["sending", "idle"], "refused", "refused_fixable"],
    ["queue", ["refused_fixable"], "discarded", "idle"],
    ["queue", ["idle", "offline_queued", "waiting"], "emptied", "idle"],
    ["queue", ["refused_fixable"], "fixed", "idle"],
    ["queue", ["idle", "sending", "waiting", "offline_queued", "refused_fixable"], "token_refused", "refused_pair_again"]
  ];
  var state = { page: "start", entry: "entering", queue: "idle" };
  var debug = window.hangjackTablet = { state: state, log: [], transitions: TRANSITIONS };
  function go(machine, event) {
    for (var i = 0; i < TRANSITIONS.length; i++) {
      var t = TRANSITIONS[i];
      if (t[0] === machine && t[2] === event && t[1].indexOf(state[machine]) !== -1) {
        if (state[machine] !== t[3]) debug.log.push(machine + ": " + state[machine] + " -" + event + "-> " + t[3]);
        state[machine] = t[3];
        app.setAttribute("data-" + machine, t[3]);
        return true;
      }
    }
    debug.log.push(machine + ": " + state[machine] + " ignores " + event);
    if (debug.log.length > 300) debug.log.splice(0, 100);
    return false;
  }

  var device = load(K_DEVICE);
  var queue = load(K_QUEUE) || [];
  var late = load(K_LATE) || [];          // entries sent (or being sent) to the organiser's late hands
  var notices = load(K_NOTICES) || [];    // notices kept until the scorer taps OK
  var kept = load(K_BOARD);               // {device, at, state}: the last board state read
  var server = null;          // the board state as the server last gave it (or as kept)
  var serverAt = 0;           // when it was read (ms)
  var fromKept = false;       // the board shown is the kept copy (not read from the server this time)
  var reachable = true;       // what the last request told us
  var flushing = false;
  var writes = 0;             // successful writes: a board read started before one is stale
  var retryTimer = null, retryDelay = 2000;
  var preview = null;         // {sig, text, events, score, winner, offline}
  var fixing = null;          // key of the refused queue entry being fixed
  var fieldErrors = {};       // API error fields shown next to the form
  var undoArmed = 0;
  var swReg = null;
  var f = null;  // the hand being entered (restored from the draft below, once blankHand is defined)

  // ---- small helpers ---------------------------------------------------------------------------
  function $(id) { return document.getElementById(id); }
  function load(key) { try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; } }
  function store(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full: keep going */ } }
  function saveQueue() { store(K_QUEUE, queue); }
  function saveDraft() { store(K_DRAFT, f); }
  function saveLate() { store(K_LATE, late); }
  function clone(x) { return JSON.parse(JSON.stringify(x)); }
  function deviceId() { return device ? String(device.device || (device.token || "").slice(0, 8)) : ""; }
  /* What became of each entry, for the scorer's record and the chaos test: enqueued, sent, late, discarded. */
  function journal(item, fate) {
    var j = load(K_JOURNAL) || [];
    j.push({ key: item.key, kind: item.kind, fate: fate, at: Date.now() });
    if (j.length > 600) j = j.slice(-500);
    store(K_JOURNAL, j);
  }
  var h = window.HangJackDom.h;  // the DOM helper, defined once in card-picker.js (loaded first)
  function uuid() {
    if (window.crypto && crypto.randomUUID) { try { return crypto.randomUUID(); } catch (e) { /* insecure context */ } }
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var x = Array.prototype.map.call(b, function (n) { return (n + 256).toString(16).slice(1); }).join("");
    return x.slice(0, 8) + "-" + x.slice(8, 12) + "-" + x.slice(12, 16) + "-" + x.slice(16, 20) + "-" + x.slice(20);
  }
  function cardText(c) {
    if (!c) return "";
    return String(c).slice(0, -1) + (SYMBOL[String(c).slice(-1)] || String(c).slice(-1));
  }
  function rankOf(c) { return String(c).slice(0, -1); }
  function suitOf(c) { return String(c).slice(-1); }
  function boardUrl(tpl) { return tpl.replace("{id}", String(server.board)); }
  function flash(text) {
    var el = $("flash");
    el.textContent = text;
    el.hidden = !text;
    if (text) setTimeout(function () { if (el.textContent === text) el.hidden = true; }, 6000);
  }
  function clock(ms) { var d = new Date(ms); return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2); }

  // ---- the API ---------------------------------------------------------------------------------
  /* etag: sent as If-None-Match (the board read; fetch adds none by itself with cache "no-store"). */
  function call(method, url, body, key, etag) {
    var headers = { "Accept": "application/json", "Authorization": "Device " + device.token };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    if (etag) headers["If-None-Match"] = etag;
    return fetch(url, {
      method: method, headers: headers, cache: "no-store", credentials: "omit",
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (r) {
      return r.text().then(function (t) {
        var j = null;
        try { j = t ? JSON.parse(t) : null; } catch (e) { j = null; }
        return { status: r.status, body: j, etag: r.headers.get("ETag") };
      });
    });
  }

  function errorOf(res) {
    return (res.body && res.body.error) || { message: "The server answered " + res.status + "." };
  }

  // ---- rules and a local estimate (offline only; the engine's answer is the truth) ---------------
  function rules() { return (server && server.rules) || {}; }
  function target() { return rules().target || 14; }
  function kickPoints(card) {
    var kp = rules().kick_points || { A: 1, "6": 2, J: 3 };
    if (Array.isArray(kp)) { var o = {}; kp.forEach(function (p) { o[p[0]] = p[1]; }); kp = o; }
    return kp[rankOf(card)] || 0;
  }

  function estimate(score, rec) {
    if (rec.tricks) rec = playToTally(rec);
    var r = rules(), sc = score.slice(), winner = null, tgt = target();
    var dealer = rec.dealer, ds = dealer % 2, next = (dealer + 1) % 4;
    function add(side, pts) { if (winner !== null || !pts) return; sc[side] += pts; if (sc[side] >= tgt) winner = side; }
    if (rec.misdeal) {
      add(1 - ds, r.misdeal_points || 1);
      return { score: sc, winner: winner, next_dealer: r.misdeal_passes_deal ? next : dealer };
    }
    (rec.abandoned || []).forEach(function (d) { d.forEach(function (c) { add(ds, kickPoints(c)); }); });
    (rec.kicks || []).forEach(function (c) { add(ds, kickPoints(c)); });
    if (rec.beg === "give") add(1 - ds, r.gift_points || 1);
    var barred = [false, false], renege = r.renege || "two_tier";
    (rec.penalties || []).forEach(function (p) {
      var opp = 1 - p.side;
      var loses = p.kind === "undertrump" || renege === "lose_game" || (p.kind === "trump_revoke" && renege === "two_tier");
      if (loses) { if (winner === null) { sc[opp] = Math.max(sc[opp], tgt); winner = opp; } }
      else { add(opp, r.revoke_points || 1); if (r.revoke_bars_game !== false) barred[p.side] = true; }
    });
    if (rec.high) add(rec.high.side, 1);
    if (rec.low) add(rec.low.side, 1);
    if (rec.jack) add(rec.jack.won_by, rec.jack.held_by === rec.jack.won_by ? (r.jack_points || 1) : (r.hang_jack_points || 3));
    if (rec.game && rec.game[0] !== rec.game[1]) {
      var gs = rec.game[0] > rec.game[1] ? 0 : 1;
      if (!barred[gs]) add(gs, r.game_points || 1);
    }
    return { score: sc, winner: winner, next_dealer: next };
  }

  function decided(won) {
    var mf = (server && server.match_format) || { kind: "first_to", n: 2 };
    if (mf.kind === "games") return won[0] + won[1] >= (mf.n || 1);
    return Math.max(won[0], won[1]) >= (mf.n || 2);
  }

  /* Where the board stands once the waiting hands are counted (estimated): game, hand, score, dealer. */
  function view(upto) {
    var s = server;
    var res = s.result || {};
    var v = {
      game: s.game_number, hand: s.next_hand_number, dealer: s.next_dealer,
      score: (s.score || [0, 0]).slice(), won: (res.live_bullseyes || [0, 0]).slice(),
      over: !!res.decided || s.game_status === "finished", estimated: false
    };
    var items = queue.slice(0, upto === undefined ? queue.length : upto);
    var seat = seatQueued();
    if (!s.game_number && seat) { v.game = 1; v.hand = 1; v.dealer = seat.body.first_dealer; v.score = [0, 0]; v.over = false; v.estimated = true; }
    items.forEach(function (item) {
      if (item.kind !== "hand" || item.board !== s.board || item.refused) return;
      var est = estimate(v.score, item.body.hand);
      v.estimated = true;
      v.score = est.score; v.dealer = est.next_dealer; v.hand = item.body.number + 1;
      if (est.winner !== null) {
        v.won[est.winner] += 1;
        if (decided(v.won)) { v.over = true; } else { v.game = item.body.game + 1; v.hand = 1; v.score = [0, 0]; }
      }
    });
    return v;
  }

  function seatQueued() {
    return queue.filter(function (q) { return q.kind === "seat" && q.board === server.board && !q.refused; })[0] || null;
  }

  // ---- names -----------------------------------------------------------------------------------
  function pair(side) { return server.pairs[side === 0 ? "a" : "b"] || { name: "bye", players: [] }; }
  function playerName(id) {
    var all = pair(0).players.concat(pair(1).players);
    for (var i = 0; i < all.length; i++) if (all[i].id === id) return all[i].name;
    return "";
  }
  function seatName(seat) {
    var queued = seatQueued();
    var seating = server.seating || (queued && queued.body.seating) || {};
    var name = seating[String(seat)] !== undefined ? playerName(seating[String(seat)]) : "";
    return (name || "Seat " + (seat + 1)) + " (" + LETTER[seat % 2] + ")";
  }

  // ---- readings ----------------------------------------------------------------------------------
  /* One event of the engine's reading as a scorer says it; its side and points are shown beside it. */
  function eventLine(e, rec) {
    switch (e.kind) {
      case "kick": return "Kick " + cardText(e.card);
      case "gift": return "Gave one";
      case "misdeal": return "Misdeal";
      case "revoke": case "trump_revoke": return "Renege by " + LETTER[e.offender];
      case "undertrump": return "Undertrump by " + LETTER[e.offender];
      case "high": return "High" + (e.card ? " " + cardText(e.card) : "");
      case "low": return "Low" + (e.card ? " " + cardText(e.card) : "");
      case "jack": return "Jack";
      case "hang_jack": return "Hang jack";
      case "game": return "Game" + (rec && rec.game ? " (count " + rec.game[0] + "-" + rec.game[1] + ")" : "");
      default: return e.kind;
    }
  }
  function readingOf(events, rec) {
    var parts = (events || []).map(function (e) { return eventLine(e, rec) + " " + LETTER[e.side] + " +" + e.points; });
    return parts.length ? parts.join("; ") : "No points scored";
  }

  function asEntered(rec) {
    if (rec.misdeal) return "Misdeal";
    var parts = [];
    (rec.abandoned || []).forEach(function (d) { parts.push("Thrown in: " + d.map(cardText).join(" ")); });
    if (rec.kicks && rec.kicks.length) parts.push("Kick " + rec.kicks.map(cardText).join(", "));
    if (rec.beg) parts.push({ stand: "stood", give: "gave one", run: "ran the pack" }[rec.beg]);
    if (rec.tricks) {
      parts.push(rec.tricks.length + " tricks card by card");
      return parts.join("; ");
    }
    if (rec.high) parts.push("High " + LETTER[rec.high.side] + (rec.high.card ? " " + cardText(rec.high.card) : ""));
    if (rec.low) parts.push("Low " + LETTER[rec.low.side] + (rec.low.card ? " " + cardText(rec.low.card) : ""));
    if (rec.jack) parts.push(rec.jack.held_by === rec.jack.won_by ? "Jack " + LETTER[rec.jack.won_by] : "hang jack " + LETTER[rec.jack.won_by]);
    else if (rec.hasOwnProperty("jack")) parts.push("jack not in play");
    if (rec.game) parts.push("Game count " + rec.game[0] + "-" + rec.game[1]);
    (rec.penalties || []).forEach(function (p) { parts.push(penaltyWord(p.kind) + " by " + LETTER[p.side]); });
    return parts.join("; ");
  }
  function penaltyWord(kind) {
    return { revoke: "renege", trump_revoke: "renege (top-five trump)", undertrump: "undertrump" }[kind] || kind;
  }

  // ---- the hand being entered ----------------------------------------------------------------------
  function blankHand() {
    return {
      misdeal: false, abandoned: [], kicks: [{ r: null, s: null }], beg: null, noTrump: false,
      high: { side: null, r: null }, low: { side: null, r: null }, jack: null, game: ["", ""],
      penalties: [], pen: { kind: "revoke", side: null },
      mode: "tally", hold: [[], [], [], []], tricks: [], seatEdit: null, armed: null
    };
  }
  f = Object.assign(blankHand(), load(K_DRAFT) || {});

  function kickCard(k) { return k && k.r && k.s ? k.r + k.s : null; }
  function completeKicks() { return f.kicks.map(kickCard).filter(Boolean); }

  /* Where the deal stands: trump, whether the game ends during the deal, and what to ask next. */
  function dealState(v, dealer) {
    var st = { trump: null, endsAt: null, winner: null, runsNeeded: 0, exhausted: false };
    var sc = v.score.slice(), ds = dealer % 2, tgt = target();
    f.abandoned.forEach(function (d) { d.forEach(function (c) { sc[ds] += kickPoints(c); }); });
    if (sc[ds] >= tgt) { st.endsAt = "abandoned"; st.winner = ds; return st; }
    var kicks = completeKicks();
    for (var i = 0; i < kicks.length; i++) {
      sc[ds] += kickPoints(kicks[i]);
      if (sc[ds] >= tgt) { st.endsAt = "kick" + i; st.winner = ds; return st; }
    }
    if (!kicks.length) return st;
    if (f.beg === "stand") st.trump = suitOf(kicks[0]);
    if (f.beg === "give") {
      st.trump = suitOf(kicks[0]);
      if (rules().gift_can_win !== false && sc[1 - ds] + (rules().gift_points || 1) >= tgt) { st.endsAt = "gift"; st.winner = 1 - ds; }
    }
    if (f.beg === "run") {
      var first = suitOf(kicks[0]);
      var last = kicks.length > 1 ? suitOf(kicks[kicks.length - 1]) : null;
      if (kicks.length === f.kicks.length && last && last !== first) st.trump = last;
      else if (kicks.length === f.kicks.length && kicks.length >= 3 && last === first) st.exhausted = true;
      else if (kicks.length === f.kicks.length) st.runsNeeded = 1;
    }
    return st;
  }

  function toRecord(v, dealer) {
    if (f.misdeal) return { dealer: dealer, misdeal: true };
    var rec = { dealer: dealer };
    if (f.abandoned.length) rec.abandoned = clone(f.abandoned);
    var st = dealState(v, dealer);
    var kicks = completeKicks();
    if (st.endsAt && st.endsAt.indexOf("kick") === 0) {
      var upto = parseInt(st.endsAt.slice(4), 10) + 1;
      rec.kicks = kicks.slice(0, upto);
      if (upto > 1 && f.beg) rec.beg = f.beg;  // a later kick of a run won: the beg came before it
      return rec;
    }
    if (st.endsAt === "abandoned") { rec.kicks = kicks.slice(0, 1); return rec; }
    rec.kicks = kicks;
    if (f.beg) rec.beg = f.beg;
    if (st.endsAt === "gift") return rec;
    var trump = st.trump;
    if (f.mode === "cards") {
      var runs = Math.max(0, rec.kicks.length - 1), per = rules().run_cards || 3;
      rec.deal = f.hold.map(function (h) { return h.slice(0, 6); });
      if (runs) {
        rec.runs = [];
        for (var r = 0; r < runs; r++) rec.runs.push(f.hold.map(function (h) { return h.slice(6 + per * r, 6 + per * (r + 1)); }));
      }
      rec.tricks = clone(f.tricks);
      return rec;
    }
    if (f.noTrump) { rec.high = null; rec.low = null; rec.jack = null; }
    else {
      rec.high = f.high.side === null ? undefined : { side: f.high.side, card: f.high.r && trump ? f.high.r + trump : undefined };
      rec.low = f.low.side === null ? undefined : { side: f.low.side, card: f.low.r && trump ? f.low.r + trump : undefined };
      var j = { none: null, a: { held_by: 0, won_by: 0 }, b: { held_by: 1, won_by: 1 },
                hang_a: { held_by: 1, won_by: 0 }, hang_b: { held_by: 0, won_by: 1 } };
      if (f.jack !== null) rec.jack = j[f.jack];
    }
    var a = f.game[0] === "" ? NaN : Number(f.game[0]), b = f.game[1] === "" ? NaN : Number(f.game[1]);
    if (!isNaN(a) && !isNaN(b)) rec.game = [a, b];
    if (f.penalties.length) rec.penalties = clone(f.penalties);
    return JSON.parse(JSON.stringify(rec));
  }

  /* Choices the scorer has not made yet (the engine judges the rest). */
  function missing(v, dealer) {
    if (f.misdeal) return {};
    var m = {}, st = dealState(v, dealer);
    if (!completeKicks().length) m["hand.kicks"] = "Choose the kicked card: its rank and its suit.";
    if (st.endsAt) return m;
    if (!f.beg) m["hand.beg"] = "Did the beggar stand, or did the dealer give one or run the pack?";
    else if (f.beg === "run" && (st.runsNeeded || st.exhausted)) m["hand.kicks"] = st.exhausted
      ? "The pack ran out: record the redeal." : "Choose the next kicked card.";
    if (st.endsAt || m["hand.beg"] || m["hand.kicks"] || f.noTrump) {
      if (f.noTrump && (f.game[0] === "" || f.game[1] === "")) m["hand.game"] = "Enter both counts for game (0 if none).";
      return m;
    }
    if (f.mode === "cards") {
      var need = cardsPerSeat();
      if (f.hold.some(function (h) { return h.length !== need; })) m["hand.deal"] = "Enter the " + need + " cards of every seat.";
      else if (f.tricks.length !== need || f.tricks[need - 1].length !== 4) m["hand.tricks"] = "Enter every card of every trick.";
      return m;
    }
    if (f.high.side === null) m["hand.high"] = "Which side held High?";
    if (f.low.side === null) m["hand.low"] = "Which side held Low?";
    if (f.jack === null) m["hand.jack"] = "What happened to the jack of trumps?";
    if (f.game[0] === "" || f.game[1] === "") m["hand.game"] = "Enter both counts for game (0 if none).";
    return m;
  }

  // ---- card by card: the shared card picker (static/js/card-picker.js) --------------------------------
  var C = window.HangJackCards, POINTS = C.POINTS, val = C.val, trickWinner = C.trickWinner;
  function cardsPerSeat() {
    var runs = f.beg === "run" ? Math.max(0, completeKicks().length - 1) : 0;
    return 6 + runs * (rules().run_cards || 3);
  }
  function legalCards(trump, holding, trick) { return C.legalCards(rules(), trump, holding, trick); }
  function playToTally(rec) {
    var trump = suitOf(rec.kicks[rec.kicks.length - 1]), dealer = rec.dealer;
    var holds = rec.deal.map(function (d, s) { var h = d.slice(); (rec.runs || []).forEach(function (r) { h = h.concat(r[s]); }); return h; });
    var trumps = [];
    holds.forEach(function (h, s) { h.forEach(function (c) { if (suitOf(c) === trump) trumps.push([c, s]); }); });
    trumps.sort(function (a, b) { return val(b[0]) - val(a[0]); });
    var out = { dealer: dealer, kicks: rec.kicks, beg: rec.beg, high: null, low: null, jack: null, game: [0, 0], penalties: [] };
    if (trumps.length) {
      out.high = { side: trumps[0][1] % 2 }; out.low = { side: trumps[trumps.length - 1][1] % 2 };
    }
    var leader = (dealer + 1) % 4, remaining = holds.map(function (h) { return h.slice(); });
    rec.tricks.forEach(function (t) {
      t.forEach(function (c, i) {
        var seat = (leader + i) % 4;
        if (legalCards(trump, remaining[seat], t.slice(0, i)).indexOf(c) === -1) {
          var top5 = remaining[seat].some(function (x) { return suitOf(x) === trump && val(x) >= 10; });
          out.penalties.push({ kind: suitOf(t[0]) === trump && top5 ? "trump_revoke" : "revoke", side: seat % 2 });
        }
        remaining[seat].splice(remaining[seat].indexOf(c), 1);
      });
      var w = (leader + trickWinner(trump, t)) % 4;
      t.forEach(function (c, i) {
        out.game[w % 2] += POINTS[rankOf(c)] || 0;
        if (c === "J" + trump) out.jack = { held_by: ((leader + i) % 4) % 2, won_by: w % 2 };
      });
      leader = w;
    });
    return out;
  }

  function renderCards(box, dealer, trump) {
    C.renderPlay(box, {
      state: f, need: cardsPerSeat(), kicked: completeKicks().concat([].concat.apply([], f.abandoned)),
      dealer: dealer, trump: trump, rules: rules(), seatName: seatName, chips: chips, section: section, flash: flash,
      changed: changed, redraw: function () { saveDraft(); renderHand(); }
    });
  }

  // ---- rendering: chips (radio buttons styled as big targets) -----------------------------------------
  var uid = 0;
  function chips(name, legend, options, value, onpick, extraClass, field) {
    var fs = h("fieldset", { "class": "chips " + (extraClass || ""), "data-field": field || null }, [h("legend", { text: legend })]);
    options.forEach(function (o) {
      var id = name + "-" + String(o.value).replace(/[^A-Za-z0-9_-]/g, "_");
      var input = h("input", { type: "radio", name: name, id: id, value: String(o.value), checked: String(value) === String(o.value) && value !== null,
        onchange: function () { onpick(o.value); } });
      var label = h("label", { "for": id, "class": o.cls || null, "aria-label": o.aria || null }, [o.label]);
      fs.appendChild(input); fs.appendChild(label);
    });
    return fs;
  }
  function rankChips(name, legend, value, suit, onpick, exclude, field) {
    var opts = RANKS.filter(function (r) { return !(exclude || []).some(function (c) { return c === r + suit; }); })
      .map(function (r) {
        return { value: r, label: r + (suit ? SYMBOL[suit] : ""), cls: suit === "H" || suit === "D" ? "red" : null,
                 aria: suit ? r + " of " + ({ S: "spades", H: "hearts", D: "diamonds", C: "clubs" })[suit] : null };
      });
    return chips(name, legend, opts, value, onpick, "ranks", field);
  }
  function suitChips(name, legend, value, onpick) {
    return chips(name, legend, SUITS.map(function (s) {
      return { value: s[0], label: s[1], cls: "suit" + (s[0] === "H" || s[0] === "D" ? " red" : ""), aria: s[2] };
    }), value, onpick, "suits");
  }
  function sideChips(name, legend, value, onpick, field) {
    return chips(name, legend, [
      { value: 0, label: "A " + pair(0).name, cls: "side-a" }, { value: 1, label: "B " + pair(1).name, cls: "side-b" }
    ], value, onpick, "sides", field);
  }
  function errorFor(field) {
    var text = null;
    Object.keys(fieldErrors).forEach(function (k) {
      if (k === field || k.indexOf(field + ".") === 0 || k.indexOf(field + "[") === 0) text = fieldErrors[k];
    });
    return text;
  }
  function section(field, title, kids) {
    var err = errorFor(field);
    var id = "err-" + field.replace(/[^a-z0-9]/gi, "-");
    var box = h("div", { "class": "fsec" + (err ? " invalid" : ""), "data-field": field, "aria-describedby": err ? id : null }, [
      title ? h("h3", { text: title }) : null
    ].concat(kids));
    if (err) box.appendChild(h("p", { "class": "field-error", id: id, role: "alert", text: err }));
    return box;
  }
  function trimKicks() {
    // A run ends at the first kick of another suit: later kick slots no longer apply.
    var first = f.kicks[0] && f.kicks[0].s;
    for (var i = 1; i < f.kicks.length; i++) {
      if (kickCard(f.kicks[i]) && f.kicks[i].s !== first) { f.kicks = f.kicks.slice(0, i + 1); return; }
    }
  }
  function renderHand() {
    var form = $("hand-form");
    var at = entryPoint(), fixItem = at.fixItem, v = at.v;
    v.game = at.game; v.hand = at.number; v.dealer = at.dealer;
    var dealer = v.dealer;
    var focusId = document.activeElement && document.activeElement.id;
    var box = $("hand-fields");
    box.innerHTML = "";
    $("hand-h").textContent = (fixItem ? (fixItem.rebase ? "Enter again as " : "Fix ") : "") + "Game " + v.game + ", hand " + v.hand + (v.estimated ? " (score estimated until sent)" : "");
    box.appendChild(h("p", { "class": "dealer" }, [
      "Dealer: ", h("strong", { text: seatName(dealer) }), " · beggar: " + seatName((dealer + 1) % 4)
    ]));
    box.appendChild(chips("misdeal", "Misdeal?", [{ value: "no", label: "Hand played" }, { value: "yes", label: "Misdeal" }],
      f.misdeal ? "yes" : "no", function (x) { f.misdeal = x === "yes"; changed(); }, "pair-choice", "hand.misdeal"));
    if (!f.misdeal) {
      var st = dealState(v, dealer);
      // Kicks
      var kickKids = [];
      f.abandoned.forEach(function (d, i) {
        kickKids.push(h("p", { "class": "abandoned" }, ["Thrown-in deal: " + d.map(cardText).join(" ") + " (its kick points count) ",
          h("button", { type: "button", id: "abandoned-remove-" + i, "class": "small secondary", onclick: function () { f.abandoned.splice(i, 1); changed(); } }, ["Remove"])]));
      });
      f.kicks.forEach(function (k, i) {
        var label = i === 0 ? "Kick" : "Kick after run " + i;
        kickKids.push(h("div", { "class": "kick" }, [
          rankChips("k" + i + "r", label + ": rank", k.r, null, function (r) { f.kicks[i].r = r; changed(); }),
          suitChips("k" + i + "s", label + ": suit", k.s, function (s) { f.kicks[i].s = s; changed(); })
        ]));
      });
      if (st.endsAt && st.endsAt !== "gift") {
        kickKids.push(h("p", { "class": "ends" }, ["This kick takes " + LETTER[st.winner] + " to " + target() + ": the game ends here."]));
      }
      box.appendChild(section("hand.kicks", null, kickKids));
      if (!st.endsAt || st.endsAt === "gift") {
        box.appendChild(section("hand.beg", null, [chips("beg", "The beggar…", [
          { value: "stand", label: "Stood" }, { value: "give", label: "Begged: given one" }, { value: "run", label: "Begged: ran the pack" }
        ], f.beg, function (b) {
          f.beg = b;
          if (b === "run" && f.kicks.length < 2) f.kicks.push({ r: null, s: null });
          if (b !== "run") f.kicks = f.kicks.slice(0, 1);
          changed();
        })]));
        if (f.beg === "run" && st.runsNeeded && completeKicks().length === f.kicks.length) {
          f.kicks.push({ r: null, s: null }); saveDraft(); return renderHand();
        }
        if (st.exhausted) {
          box.appendChild(h("div", { "class": "fsec notice" }, [
            h("p", { text: "Three kicks of one suit: the pack ran out. The same dealer deals again; the kick points stay." }),
            h("button", { type: "button", id: "redeal", "class": "big", onclick: function () {
              f.abandoned.push(completeKicks()); f.kicks = [{ r: null, s: null }]; f.beg = null; changed();
            } }, ["Record the redeal"])
          ]));
        }
        if (st.endsAt === "gift") box.appendChild(h("p", { "class": "ends", text: "The gift takes " + LETTER[st.winner] + " to " + target() + ": the game ends here." }));
      }
      var cardMode = false;
      if (st.trump && !st.endsAt) {
        box.appendChild(h("p", { "class": "trump" }, ["Trump: ", h("strong", { "class": st.trump === "H" || st.trump === "D" ? "red" : null, text: SYMBOL[st.trump] + " " + ({ S: "spades", H: "hearts", D: "diamonds", C: "clubs" })[st.trump] })]));
        box.appendChild(chips("mode", "How to enter the play", [{ value: "tally", label: "Count it (tally)" }, { value: "cards", label: "Card by card" }],
          f.mode || "tally", function (m) { f.mode = m; changed(); }, "pair-choice"));
        cardMode = f.mode === "cards";
        if (cardMode) renderCards(box, dealer, st.trump);
      }
      if (st.trump && !st.endsAt && !cardMode) {
        var trump = st.trump, kicked = completeKicks();
        box.appendChild(chips("notrump", "Trumps in play?", [{ value: "yes", label: "Trumps were dealt" }, { value: "no", label: "No trump dealt" }],
          f.noTrump ? "no" : "yes", function (x) { f.noTrump = x === "no"; changed(); }, "pair-choice"));
        if (!f.noTrump) {
          box.appendChild(section("hand.high", "High", [
            sideChips("highs", "High: which side held it", f.high.side, function (s) { f.high.side = s; changed(); }),
            rankChips("highr", "High card (optional)", f.high.r, trump, function (r) { f.high.r = r; changed(); }, kicked)
          ]));
          box.appendChild(section("hand.low", "Low", [
            sideChips("lows", "Low: which side held it", f.low.side, function (s) { f.low.side = s; changed(); }),
            rankChips("lowr", "Low card (optional)", f.low.r, trump, function (r) { f.low.r = r; changed(); }, kicked)
          ]));
          var jackKicked = kicked.indexOf("J" + trump) !== -1;
          if (jackKicked && f.jack !== "none") { f.jack = "none"; saveDraft(); }
          box.appendChild(section("hand.jack", "Jack", [jackKicked ? h("p", { text: "The jack was kicked: not in play." }) :
            chips("jack", "The jack of trumps", [
              { value: "none", label: "Not dealt" },
              { value: "a", label: "Jack A (A kept it)" }, { value: "b", label: "Jack B (B kept it)" },
              { value: "hang_a", label: "Hang jack A (A caught B's)" }, { value: "hang_b", label: "Hang jack B (B caught A's)" }
            ], f.jack, function (j) { f.jack = j; changed(); }, "jack")]));
        }
      }
      if ((st.trump || f.noTrump) && !st.endsAt && !cardMode) {
        var inputs = [0, 1].map(function (side) {
          var id = "game-" + side;
          return h("p", { "class": "count" }, [
            h("label", { "for": id, text: "Count for " + LETTER[side] + " " + pair(side).name }),
            h("input", { id: id, type: "number", inputmode: "numeric", min: "0", max: "80", value: f.game[side],
              oninput: function (e) { f.game[side] = e.target.value; saveDraft(); invalidate(); } })
          ]);
        });
        box.appendChild(section("hand.game", "Game (card points in each side's tricks)", [h("div", { "class": "counts" }, inputs)]));
      }
      // Penalties (card by card, every illegal card is its own penalty: the engine finds them)
      if (!cardMode) {
      var penKids = f.penalties.map(function (p, i) {
        return h("p", { "class": "penalty" }, [penaltyWord(p.kind) + " by " + LETTER[p.side] + " ",
          h("button", { type: "button", id: "pen-remove-" + i, "class": "small secondary", onclick: function () { f.penalties.splice(i, 1); changed(); } }, ["Remove"])]);
      });
      var kinds = [{ value: "revoke", label: "Renege" }, { value: "trump_revoke", label: "Renege holding a top-five trump" }];
      if (rules().undertrump === "forbidden") kinds.push({ value: "undertrump", label: "Undertrump" });
      penKids.push(h("details", { open: f.penalties.length || f.penOpen ? true : null, ontoggle: function (e) { f.penOpen = e.target.open; } },
        [h("summary", { id: "pen-open", text: "Add a penalty (renege)" }),
        chips("penk", "Offence", kinds, f.pen.kind, function (k) { f.pen.kind = k; saveDraft(); }),
        sideChips("pens", "By which side", f.pen.side, function (s) { f.pen.side = s; saveDraft(); }),
        h("button", { type: "button", id: "pen-add", "class": "secondary", onclick: function () {
          if (f.pen.side === null) { flash("Choose the side that reneged."); return; }
          f.penalties.push({ kind: f.pen.kind, side: f.pen.side }); f.pen = { kind: "revoke", side: null }; changed();
        } }, ["Add this penalty"])
      ]));
      box.appendChild(section("hand.penalties", "Penalties", penKids));
      }
    }
    var other = Object.keys(fieldErrors).filter(function (k) { return !box.querySelector('[data-field="' + topField(k) + '"]'); });
    $("form-error").hidden = !other.length;
    $("form-error").textContent = other.map(function (k) { return fieldErrors[k]; }).join(" ");
    renderReading();
    if (focusId && $(focusId)) $(focusId).focus({ preventScroll: true });
    form.hidden = false;
  }
  function topField(path) {
    var m = /^(hand\.[a-z_]+)/.exec(path);
    return m ? m[1] : path;
  }

  function changed() { trimKicks(); fieldErrors = fixing ? fieldErrors : {}; saveDraft(); invalidate(true); }
  /* The entry changed: the reading on screen no longer applies, Send waits for a new check. */
  function invalidate(redraw) {
    preview = null;
    checkSeq++;
    go("entry", "changed");
    if (redraw) renderHand(); else renderReading();
  }

  // ---- check before send ---------------------------------------------------------------------------
  var checkSeq = 0;
  function currentFix() { return fixing ? queue.filter(function (q) { return q.key === fixing; })[0] || null : null; }
  /* Where the hand being entered goes: the next hand, or the refused entry being fixed (a hand the
   * engine refused keeps its place; a hand the board moved past is entered again as the next one). */
  function entryPoint() {
    var fixItem = currentFix();
    var v = fixItem ? view(queue.indexOf(fixItem)) : view();
    if (fixItem && !fixItem.rebase) {
      return { v: v, game: fixItem.body.game, number: fixItem.body.number, dealer: fixItem.body.hand.dealer, fixItem: fixItem };
    }
    return { v: v, game: v.game, number: v.hand, dealer: v.dealer, fixItem: fixItem };
  }

  function renderReading() {
    var r = $("reading"), checking = state.entry === "checking";
    r.innerHTML = "";
    if (checking) {
      r.appendChild(h("p", { "class": "waiting", "data-waiting": "", text: "Checking the hand with the engine…" }));
    } else if (!preview) {
      r.appendChild(h("p", { "class": "hint", text: "Check the hand: the engine's reading appears here, then Send." }));
    } else if (preview.offline) {
      r.appendChild(h("p", { "class": "asentered" }, [h("strong", { text: "As entered, reading on sending: " }), preview.text]));
      if (preview.why) r.appendChild(h("p", { "class": "why", text: preview.why }));
    } else {
      var list = h("ul", { "class": "events", "aria-label": "The engine's reading, event by event" });
      (preview.events || []).forEach(function (e) {
        list.appendChild(h("li", {}, [h("span", { text: eventLine(e, preview.rec) }),
          h("strong", { "class": "pts side-" + "ab"[e.side], text: LETTER[e.side] + " +" + e.points })]));
      });
      if (!(preview.events || []).length) list.appendChild(h("li", { text: "No points scored" }));
      r.appendChild(h("p", { "class": "engine" }, [h("strong", { text: "Engine's reading:" })]));
      r.appendChild(list);
    }
    if (preview && preview.score) {
      r.appendChild(h("p", { "class": "after" }, ["After this hand: A " + preview.score[0] + " – B " + preview.score[1] +
        (preview.winner !== null && preview.winner !== undefined ? " · game to " + LETTER[preview.winner] + "!" : "") +
        (preview.offline ? " (estimated)" : "")]));
    }
    r.hidden = false;
    $("check").disabled = checking;
    $("check").textContent = checking ? "Checking…" : preview ? "Check again" : "Check hand";
    $("check").className = "big" + (preview ? " secondary" : "");
    $("send").disabled = !(preview && state.entry === "ready_to_send");
    $("send").textContent = preview && preview.offline ? "Queue hand" : "Send hand";
  }

  function showErrors(err) {
    fieldErrors = err.fields || {};
    if (!err.fields) fieldErrors = { "hand": err.message };
    renderHand();
    var first = document.querySelector("#hand-fields .invalid") || $("form-error");
    if (first && first.scrollIntoView) first.scrollIntoView({ block: "center" });
  }

  function check() {
    if (state.entry === "checking" || !server) return;
    var at = entryPoint();
    var miss = missing(at.v, at.dealer);
    if (Object.keys(miss).length) { showErrors({ fields: miss, message: "" }); return; }
    // The last answer no longer applies, a refusal being fixed included: the engine answers this check.
    if (Object.keys(fieldErrors).length) { fieldErrors = {}; renderHand(); }
    var rec = toRecord(at.v, at.dealer);
    var sig = JSON.stringify(rec);
    var before = at.fixItem ? queue.indexOf(at.fixItem) : queue.length;
    var waitingBefore = queue.slice(0, before).length;
    function asEnteredOnly(why) {
      var est = estimate(at.v.score, rec);
      preview = { sig: sig, rec: rec, text: asEntered(rec), score: est.score, winner: est.winner, offline: true, why: why };
      fieldErrors = {};
    }
    if (waitingBefore > 0 || !reachable) {
      asEnteredOnly(waitingBefore > 0 ? "The entries before it are still waiting; the engine reads it once they are in."
        : "No connection: it is queued as entered and read by the engine when it is sent.");
      go("entry", "check_offline");
      renderHand();
      return;
    }
    var seq = ++checkSeq;
    go("entry", "check_online");
    renderReading();
    call("POST", boardUrl(API.preview), { game: at.game, hand: rec }).then(function (res) {
      if (seq !== checkSeq || state.entry !== "checking") return;  // the entry changed meanwhile
      setReachable(true);
      if (res.status === 200) {
        var result = res.body.result || {};
        preview = { sig: sig, rec: rec, events: result.events || [], text: readingOf(result.events, rec),
                    score: result.score, winner: result.winner, offline: false };
        fieldErrors = {};
        go("entry", "reading");
        renderHand();
      } else if (res.status === 401) {
        go("entry", "refused");
        tokenRefused(errorOf(res));
      } else if (res.status === 429 || res.status >= 500) {
        asEnteredOnly("The server is busy and did not check it: it is queued as entered.");
        go("entry", "unreachable");
        renderHand();
      } else {
        var err = errorOf(res);
        go("entry", "refused");
        if (err.current) applyBoard(err.current);
        showErrors(err);
        render();
      }
    }, function () {
      if (seq !== checkSeq || state.entry !== "checking") return;
      setReachable(false);
      asEnteredOnly("No connection: it is queued as entered and read by the engine when it is sent.");
      go("entry", "unreachable");
      renderHand();
    });
  }

  function send() {
    if (!preview || state.entry !== "ready_to_send" || !server) return;
    var at = entryPoint();
    var rec = JSON.parse(preview.sig);
    if (at.fixItem) {
      var item = at.fixItem;
      item.body.hand = rec;
      if (item.rebase) { item.body.game = at.game; item.body.number = at.number; }
      item.form = clone(f);
      item.label = "Game " + item.body.game + ", hand " + item.body.number + ": " + asEntered(rec);
      item.reading = preview.offline ? null : preview.text;
      delete item.refused; delete item.rebase;
      fixing = null;
      journal(item, "fixed");
      go("queue", "fixed");
    } else {
      enqueue("hand", API.hands, { game: at.game, number: at.number, hand: rec },
        "Game " + at.game + ", hand " + at.number + ": " + asEntered(rec), { form: clone(f), reading: preview.offline ? null : preview.text });
    }
    go("entry", "send");
    var mode = f.mode;
    f = blankHand(); f.mode = mode; preview = null; fieldErrors = {};
    saveDraft(); saveQueue();
    render();
    flush();
    window.scrollTo(0, 0);
  }

  // ---- the queue -----------------------------------------------------------------------------------
  function enqueue(kind, urlTpl, body, label, extra) {
    var item = { key: uuid(), kind: kind, board: server.board, dev: deviceId(), url: boardUrl(urlTpl), body: body, label: label, at: Date.now() };
    Object.keys(extra || {}).forEach(function (k) { item[k] = extra[k]; });
    queue.push(item);
    saveQueue();
    journal(item, "entered");
    if (!reachable) go("queue", "enqueued_offline");
    return item;
  }

  function setReachable(ok) {
    reachable = ok;
    renderNet();
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { flush(); }, retryDelay);
    retryDelay = Math.min(30000, retryDelay * 2);
  }

  /* Refusals no fix can mend: the board is no longer the table's (round closed, another table's board),
   * forfeited, or time was called before the game began. The entry goes to the organiser's late hands. */
  function cannotMend(status, err) {
    if (status === 403 || status === 404 && err.code === "no_current_board") return true;
    return status === 409 && ["stale_board", "board_forfeited", "time_called", "round_not_open"].indexOf(err.code) !== -1;
  }
  /* A hand the board moved past (another tablet or the organiser entered that hand): it can be entered
   * again as the board's next hand. */
  function canRebase(item, status, err) {
    return item.kind === "hand" && !!item.form && status === 409 && !!err.current && err.current.board === item.board &&
      ["stale_game", "hand_number_taken", "hand_number_ahead", "game_over"].indexOf(err.code) !== -1 &&
      !(err.current.result || {}).decided;
  }
  function fixable(item) {
    return !!item && !!item.refused && item.kind === "hand" && !!item.form && !!server && server.board === item.board &&
      (item.refused.status === 400 || !!item.refused.rebase);
  }

  function flush() {
    if (flushing || !device || ["start", "loading", "unpaired", "pair_again"].indexOf(state.page) !== -1) return;
    var item = queue[0];
    if (!item) { go("queue", "emptied"); shellUpdate(); refresh(); return; }
    if (item.refused) { go("queue", "refused"); render(); return; }
    flushing = true;
    go("queue", "send_start");
    renderNet();
    call("POST", item.url, item.body, item.key).then(function (res) {
      flushing = false;
      setReachable(true);
      if (queue[0] !== item) { render(); flush(); return; }  // discarded while on its way
      if (res.status >= 200 && res.status < 300) {
        retryDelay = 2000;
        writes++;
        if (kept) kept.etag = null;  // the state on screen is patched below: the next read is a full one
        queue.shift();
        saveQueue();
        journal(item, "sent");
        go("queue", "sent");
        sent(item, res.body);
        render();
        flush();
        return;
      }
      if (res.status === 401) { tokenRefused(errorOf(res)); return; }
      if (res.status === 429 || res.status >= 500) { go("queue", "busy"); scheduleRetry(); render(); return; }
      var err = errorOf(res);
      if (cannotMend(res.status, err)) {
        queue.shift();
        saveQueue();
        if (fixing === item.key) fixing = null;
        toLate([item], err);
        go("queue", "gone_late");
        flash(item.label.split(":")[0] + " could not be sent (" + err.message + "). It went to the organiser's late hands.");
        if (err.current && err.current.board) applyBoard(err.current);
        render();
        flush();
        return;
      }
      item.refused = { status: res.status, error: err, rebase: canRebase(item, res.status, err) };
      if (item.refused.rebase) item.rebase = true;
      saveQueue();
      go("queue", "refused");
      if (err.current && err.current.board) applyBoard(err.current);
      render();
    }, function () {
      flushing = false;
      setReachable(false);
      go("queue", "unreachable");
      scheduleRetry();
      render();
    });
  }

  function sent(item, body) {
    var here = server && item.board === server.board;
    if (item.kind === "hand" && body) {
      // The undo names the board's last hand: this one, even before the board is read again.
      if (here && body.id) { server.last_hand_id = body.id; server.can_undo = true; server.undo_reason = ""; }
      flash("Hand " + item.body.number + " of game " + item.body.game + " recorded: " + readingOf(body.events, item.body.hand) +
        (body.winner !== null && body.winner !== undefined ? ". Game to " + LETTER[body.winner] + "!" : ""));
    } else if (item.kind === "seat" || item.kind === "help") {
      if (body && body.board) applyBoard(body);
      if (item.kind === "help") flash("The organiser has been called to table " + (server ? server.table : "") + ".");
    } else if (item.kind === "undo") {
      if (here) { server.last_hand_id = null; server.can_undo = false; server.undo_reason = "Reading the board…"; }
      flash("Hand " + (body && body.number) + " undone.");
    } else if (item.kind === "confirm") {
      flash("Pair " + item.body.side.toUpperCase() + (item.body.agrees ? " confirmed" : " refused") + " game " + item.body.game + ".");
    }
  }

  /* The pairing is refused (revoked, or the event finished): every unsent entry goes to the late hands,
   * and the page says "pair again". */
  function tokenRefused(err) {
    var items = queue.splice(0, queue.length);
    saveQueue();
    fixing = null;
    go("queue", "token_refused");
    if (items.length) toLate(items, err);
    go("page", "token_refused");
    render();
  }

  // ---- late hands: the organiser's inbox -------------------------------------------------------------
  function toLate(items, err) {
    items.forEach(function (item) {
      if (late.some(function (l) { return l.key === item.key; })) return;
      late.push({ key: item.key, kind: item.kind, board: item.board, label: item.label, body: item.body,
                  reason: ((err.code ? err.code + ": " : "") + (err.message || "")).slice(0, 290), status: "sending", at: Date.now() });
      journal(item, "late");
    });
    saveLate();
    deliverLate();
  }
  var delivering = false, lateTimer = null;
  function deliverLate() {
    if (delivering || !device || !device.token) return;
    var todo = late.filter(function (l) { return l.status === "sending"; }).slice(0, 50);
    if (!todo.length) return;
    delivering = true;
    var body = { hands: todo.map(function (l) {
      var payload = { kind: l.kind, label: l.label };
      Object.keys(l.body || {}).forEach(function (k) { payload[k] = l.body[k]; });
      return { key: l.key, board: l.board || null, payload: payload, reason: l.reason };
    }) };
    call("POST", API.late, body).then(function (res) {
      delivering = false;
      if (res.status === 201) {
        var got = (res.body && res.body.received) || [], before = (res.body && res.body.already_on_server) || [];
        late.forEach(function (l) {
          if (got.indexOf(l.key) !== -1) { l.status = "delivered"; l.note = before.indexOf(l.key) !== -1 ? "it had reached the server" : ""; }
        });
        saveLate(); render(); deliverLate();
      } else if (res.status === 429 || res.status >= 500) {
        clearTimeout(lateTimer); lateTimer = setTimeout(deliverLate, 5000);
      } else {
        var err = errorOf(res);
        todo.forEach(function (l) { l.status = "undelivered"; l.note = err.message; });
        saveLate(); render();
      }
    }, function () {
      delivering = false;
      clearTimeout(lateTimer); lateTimer = setTimeout(deliverLate, 5000);
    });
  }

  // ---- board state -------------------------------------------------------------------------------
  function classify(s) {
    var res = s.result || {};
    if ((res.forfeited !== null && res.forfeited !== undefined) || s.status === "forfeited") return "board_forfeited";
    if (!s.game_number && !seatQueued()) return "board_unseated";
    if (view().over) return "board_over";
    return "board_in_play";
  }

  /* A correction that cleared a game's confirmations after this tablet saw them: the pairs confirm again. */
  function announceCorrections(prev, s) {
    if (!prev || prev.board !== s.board) return;
    (s.games || []).forEach(function (g) {
      var before = (prev.games || []).filter(function (p) { return p.number === g.number; })[0];
      if (!before || !(before.confirmed || (before.confirmations || []).length)) return;
      if (g.status !== "finished" || g.confirmed || (g.confirmations || []).length) return;
      var id = "confirm-again-" + s.board + "-" + g.number;
      if (notices.some(function (n) { return n.id === id; })) return;
      notices.push({ id: id, text: "The organiser corrected game " + g.number + ": its confirmations were cleared. " +
        "Both pairs confirm it again (below)." });
      store(K_NOTICES, notices);
    });
  }

  /* etag: the board read's ETag; any other source of a state (a write's answer, a 409's current) has none,
   * so the next read is a full one. */
  function applyBoard(s, etag) {
    var prev = server && server.board === s.board ? server
      : kept && kept.state && kept.device === deviceId() && kept.state.board === s.board ? kept.state : null;
    announceCorrections(prev, s);
    var moved = !server || server.board !== s.board || server.game_number !== s.game_number ||
      server.next_hand_number !== s.next_hand_number || server.next_dealer !== s.next_dealer;
    if (server && server.board !== s.board) { fixing = null; seatDraft = null; handSig = null; }
    server = s;
    serverAt = Date.now();
    fromKept = false;
    kept = { device: deviceId(), at: serverAt, state: s, etag: etag || null };
    store(K_BOARD, kept);
    if (moved && (state.entry === "checking" || state.entry === "ready_to_send") && !fixing) {
      preview = null; checkSeq++; go("entry", "board_moved");
    }
    go("page", classify(s));
  }

  function useKept() {
    if (kept && kept.state && kept.device === deviceId()) {
      server = kept.state; serverAt = kept.at; fromKept = true;
      go("page", classify(server));
    } else {
      go("page", "unreachable_nothing_kept");
    }
  }

  var refreshing = false, starting = true;
  function refresh() {
    if (!device || !device.token || refreshing || flushing || state.page === "pair_again" || state.page === "unpaired") return;
    refreshing = true;
    var before = writes;
    // The ETag of the state on screen (or, at start-up, of the state kept): 304 means it is still the board.
    var mine = kept && kept.etag && kept.device === deviceId() && kept.state &&
      (!server || server === kept.state) ? kept.etag : null;
    call("GET", API.board, undefined, undefined, mine).then(function (res) {
      refreshing = false;
      setReachable(true);
      if (res.status === 401) { tokenRefused(errorOf(res)); return; }
      if (before !== writes) { render(); setTimeout(refresh, 0); return; }  // a write landed meanwhile: read again
      if (res.status === 200) { applyBoard(res.body, res.etag); }
      else if (res.status === 304 && mine) { unchanged(); }
      else if (res.status === 404) { server = null; fromKept = false; go("page", "no_board"); }
      else if (state.page === "loading") { useKept(); }
      afterRead();
    }, function () {
      refreshing = false;
      setReachable(false);
      if (state.page === "loading") useKept();
      afterRead();
    });
  }
  /* 304: the board is as last read. The state and its reading time stay (the clock counts down from the
   * read that gave it); at start-up the state kept is the board, read at kept.at. */
  function unchanged() {
    if (!server) { server = kept.state; serverAt = kept.at; }
    fromKept = false;
    go("page", classify(server));
  }
  function afterRead() {
    render();
    // Start-up sends the queue once the board is read; an empty queue needs no second read of the board.
    if (starting) { starting = false; if (queue.length) flush(); else go("queue", "emptied"); deliverLate(); }
  }

  // ---- panels -----------------------------------------------------------------------------------------
  function renderNet() {
    var waiting = queue.length;
    var net = $("net");
    var text = !reachable ? "Offline" : state.queue === "sending" ? "Sending…" : state.queue === "waiting" ? "Server busy: retrying" : "Online";
    if (waiting) text += " · " + waiting + " waiting";
    net.textContent = text;
    net.className = "net " + (!reachable ? "off" : waiting ? "busy" : "on");
  }

  function show(id, yes) { $(id).hidden = !yes; }
  /* The title bar: the table (and round) always; the event's name only where there is room. */
  function where(text) {
    var el = $("where");
    el.textContent = text;
    if (device && device.tournament) el.appendChild(h("span", { "class": "tname", text: " · " + device.tournament.name }));
  }

  function render() {
    if (server && ["seating", "board", "match_over", "forfeited"].indexOf(state.page) !== -1) go("page", classify(server));
    var page = state.page;
    renderNet();
    renderNotices();
    renderRefused();
    renderQueue();
    renderLate();
    var paired = !!(device && device.token);
    where(paired ? "Table " + (device.table || "?") : "Scoring tablet");
    show("unpaired", page === "unpaired");
    show("pair-again", page === "pair_again");
    show("loading", page === "loading" || page === "no_connection" || page === "start");
    $("loading-text").textContent = page === "no_connection"
      ? "No connection, and this tablet has no board kept from before. Check the Wi-Fi, then try again."
      : "Loading the board from the server…";
    show("retry", page === "no_connection");
    show("waiting", page === "waiting_for_round");
    var onBoard = ["seating", "board", "match_over", "forfeited"].indexOf(page) !== -1 && !!server;
    show("board", onBoard);
    if (!onBoard) { $("clock").hidden = true; show("kept-note", false); return; }
    var s = server;
    where("Table " + s.table + " · round " + s.round);
    show("kept-note", fromKept);
    if (fromKept) $("kept-note").textContent = "Offline: the board as this tablet last read it at " + clock(serverAt) + ". Hands you enter are queued.";
    renderClock();
    var v = view();
    $("name-a").textContent = pair(0).name; $("name-b").textContent = pair(1).name;
    $("score-a").textContent = v.score[0]; $("score-b").textContent = v.score[1];
    $("games-a").textContent = "games " + v.won[0]; $("games-b").textContent = "games " + v.won[1];
    $("game-line").textContent = v.game ? "Game " + v.game + (v.over ? "" : " · hand " + v.hand) + " · to " + target() +
      (v.estimated ? " · score estimated until the waiting hands are sent" : "") + (s.help_called ? " · organiser called" : "") : "";

    renderConfirm();
    show("seating-panel", page === "seating");
    if (page === "seating") renderSeating();
    show("done-panel", page === "match_over" || page === "forfeited");
    if (page === "forfeited") {
      var who = (s.result || {}).forfeited;
      $("done-h").textContent = "Board forfeited";
      $("done-text").textContent = "The organiser recorded this board as a forfeit (" +
        (who === 2 ? "neither pair played" : "pair " + LETTER[who] + " (" + pair(who).name + ") did not play") +
        "). Nothing is entered here; this page moves to the next round's board by itself.";
    } else if (page === "match_over") {
      var res = s.result || {};
      $("done-h").textContent = "Board finished";
      $("done-text").textContent = (res.decided && res.winner !== null ? "Pair " + LETTER[res.winner] + " won the board " : "The board's match is decided ") +
        v.won[0] + "-" + v.won[1] + ". " + (res.all_confirmed ? "All games confirmed. Wait for the next round: this page moves to it by itself." : "Each pair confirms its games above.");
    }
    var refusedFirst = queue.length && queue[0].refused;
    if (page !== "board" || (refusedFirst && !fixing)) { $("hand-form").hidden = true; handSig = null; }
    else {
      var at = entryPoint();
      var sig = [s.board, at.game, at.number, at.dealer, at.v.score.join("-"), fixing, JSON.stringify(fieldErrors), state.entry].join("|");
      if (sig !== handSig || $("hand-form").hidden) { handSig = sig; renderHand(); }
    }
    renderHistory();
    renderUndo();
    show("undo", page === "board" || page === "match_over");
    show("undo-reason", (page === "board" || page === "match_over") && $("undo").disabled && !!$("undo-reason").textContent);
  }

  function renderUndo() {
    var queuedHand = queue.some(function (q) { return q.kind === "hand"; });
    var serverSays = server.can_undo === undefined ? !!server.last_hand_id : !!server.can_undo && !!server.last_hand_id;
    var pendingUndo = queue.some(function (q) { return q.kind === "undo" && !q.refused; });
    $("undo").disabled = !(queuedHand || (serverSays && !pendingUndo));
    $("undo-reason").textContent = $("undo").disabled
      ? (pendingUndo ? "An undo is waiting to be sent." : server.undo_reason || (server.last_hand_id ? "" : "No hand to undo yet.")) : "";
  }

  function renderClock() {
    var el = $("clock"), c = server && server.clock;
    if (!c || (!c.ends_at && !c.time_called)) { el.hidden = true; return; }
    el.hidden = false;
    var left = c.seconds_left === null || c.seconds_left === undefined ? null
      : Math.max(0, c.seconds_left - Math.floor((Date.now() - serverAt) / 1000));
    if (c.time_called || left === 0) {
      el.className = "clock called";
      el.textContent = "Time called: finish the hand in play. No new game starts.";
      return;
    }
    var m = Math.ceil(left / 60);
    el.className = "clock" + (m <= 5 ? " soon" : "");
    el.textContent = "Round ends " + (c.ends_local || "?") + " · " + (m >= 60 ? Math.floor(m / 60) + " h " + (m % 60) + " min" : m + " min") + " left";
  }

  function renderNotices() {
    var box = $("notices");
    box.innerHTML = "";
    notices.forEach(function (n) {
      box.appendChild(h("div", { "class": "notice", role: "status" }, [h("p", { text: n.text }),
        h("button", { type: "button", id: "notice-ok-" + n.id, "class": "small secondary", onclick: function () {
          notices = notices.filter(function (x) { return x.id !== n.id; }); store(K_NOTICES, notices); render();
        } }, ["OK"])]));
    });
    box.hidden = !notices.length;
  }

  function renderRefused() {
    var item = queue.length && queue[0].refused ? queue[0] : null;
    show("refused", !!item && fixing !== item.key);
    if (!item) return;
    var err = item.refused.error || {};
    var fields = err.fields ? Object.keys(err.fields).map(function (k) { return err.fields[k]; }).filter(function (m) { return m !== err.message; }) : [];
    $("refused-h").textContent = "Refused: " + item.label.split(":")[0];
    $("refused-text").textContent = (err.message || "refused") + (fields.length ? " " + fields.join(" ") : "") +
      " Nothing after it is sent until you fix or discard it.";
    var canFix = fixable(item);
    show("refused-fix", canFix);
    $("refused-fix").textContent = item.refused.rebase ? "Enter it again as the next hand" : "Fix it";
  }

  var confirmSig = null;
  function renderConfirm() {
    var list = $("confirm-list");
    var games = (server.games || []).filter(function (g) { return g.status === "finished" && !g.confirmed; });
    // Rebuild only when something changed, so a refusal reason being typed survives the polling.
    var sig = JSON.stringify([server.board, games, queue.filter(function (q) { return q.kind === "confirm"; }).map(function (q) { return q.body; })]);
    if (sig === confirmSig) return;
    confirmSig = sig;
    list.innerHTML = "";
    $("confirm-panel").hidden = !games.length;
    games.forEach(function (g) {
      var words = g.confirmations || [];
      var box = h("div", { "class": "confirm-game" }, [h("p", { "class": "big-line" }, [
        "Game " + g.number + ": A " + g.score[0] + " – B " + g.score[1] + (g.winner !== null && g.winner !== undefined ? ", bullseye to " + LETTER[g.winner] + "." : ".")])]);
      ["a", "b"].forEach(function (side) {
        var word = words.filter(function (w) { return w.party === side; })[0];
        var queued = queue.filter(function (q) { return q.kind === "confirm" && q.board === server.board && q.body.game === g.number && q.body.side === side; })[0];
        var name = pair(side === "a" ? 0 : 1).name;
        if (word || queued) {
          var agrees = word ? word.agrees : queued.body.agrees;
          box.appendChild(h("p", { "class": agrees ? "ok" : "bad" }, [
            "Pair " + side.toUpperCase() + " (" + name + ") " + (agrees ? "confirmed" : "refused") + (queued && !word ? " (waiting to send)" : "") + "."]));
          return;
        }
        var reasonId = "reason-" + g.number + "-" + side;
        var refuse = h("details", { "class": "refuse" }, [h("summary", { id: "refuse-open-" + g.number + "-" + side, text: "Pair " + side.toUpperCase() + ": refuse this result" }),
          h("p", {}, [h("label", { "for": reasonId, text: "What is wrong? (the organiser will come)" }),
            h("textarea", { id: reasonId, rows: "2", maxlength: "300" })]),
          h("button", { type: "button", id: "refuse-" + g.number + "-" + side, "class": "big danger", onclick: function () {
            var reason = $(reasonId).value.trim();
            if (!reason) { flash("Say what is wrong before refusing."); $(reasonId).focus(); return; }
            enqueue("confirm", API.confirm, { game: g.number, side: side, agrees: false, reason: reason }, "Pair " + side.toUpperCase() + " refuses game " + g.number);
            enqueue("help", API.help, undefined, "Call the organiser (game " + g.number + " refused)");
            render(); flush();
          } }, ["Refuse and call the organiser"])]);
        box.appendChild(h("div", { "class": "confirm-side" }, [
          h("button", { type: "button", id: "confirm-" + g.number + "-" + side, "class": "big go", onclick: function () {
            enqueue("confirm", API.confirm, { game: g.number, side: side, agrees: true }, "Pair " + side.toUpperCase() + " confirms game " + g.number);
            render(); flush();
          } }, ["Pair " + side.toUpperCase() + " (" + name + "): confirm game " + g.number]),
          refuse
        ]));
      });
      list.appendChild(box);
    });
  }

  var handSig = null;
  var seatDraft = null;
  var seatSig = null;
  function renderSeating() {
    var a = pair(0).players, b = pair(1).players;
    if (!seatDraft || seatDraft.board !== server.board) {
      seatDraft = { board: server.board, seats: [a[0] && a[0].id, b[0] && b[0].id, a[1] && a[1].id, b[1] && b[1].id], first: null };
    }
    var sig = JSON.stringify(seatDraft);
    if (sig === seatSig && $("seat-pickers").children.length) return;
    seatSig = sig;
    var box = $("seat-pickers");
    box.innerHTML = "";
    [0, 1, 2, 3].forEach(function (seat) {
      var players = seat % 2 === 0 ? a : b;
      var id = "seat-" + seat;
      box.appendChild(h("p", { "class": "seat" }, [
        h("label", { "for": id, text: "Seat " + (seat + 1) + " (pair " + LETTER[seat % 2] + ")" }),
        h("select", { id: id, onchange: function (e) {
          var pid = Number(e.target.value), partner = (seat + 2) % 4;
          seatDraft.seats[seat] = pid;
          if (seatDraft.seats[partner] === pid) seatDraft.seats[partner] = players.filter(function (p) { return p.id !== pid; })[0].id;
          renderSeating();
        } }, players.map(function (p) { return h("option", { value: String(p.id), selected: seatDraft.seats[seat] === p.id, text: p.name }); }))
      ]));
    });
    var fd = $("first-dealer");
    while (fd.children.length > 1) fd.removeChild(fd.lastChild);
    [0, 1, 2, 3].forEach(function (seat) {
      var id = "fd-" + seat;
      fd.appendChild(h("input", { type: "radio", name: "first_dealer", id: id, value: String(seat), checked: seatDraft.first === seat,
        onchange: function () { seatDraft.first = seat; seatSig = JSON.stringify(seatDraft); $("err-first_dealer").hidden = true; } }));
      fd.appendChild(h("label", { "for": id, text: "Seat " + (seat + 1) + ": " + (playerName(seatDraft.seats[seat]) || "?") }));
    });
  }

  function renderQueue() {
    var list = $("queue-list");
    list.innerHTML = "";
    $("queue-panel").hidden = !queue.length;
    queue.forEach(function (q, i) {
      var st = q.refused ? "refused: " + ((q.refused.error || {}).message || "see above")
        : i === 0 && flushing ? "sending" : reachable ? "waiting" : "waiting for the connection";
      if (!q.refused && q.kind === "hand" && !q.reading) st += " (reading on sending)";
      list.appendChild(h("li", { "class": q.refused ? "bad" : "", "data-key": q.key, "data-kind": q.kind }, [q.label + " — " + st]));
    });
  }

  function renderLate() {
    var list = $("late-list");
    list.innerHTML = "";
    $("late-panel").hidden = !late.length;
    if (!late.length) return;
    late.forEach(function (l) {
      var st = l.status === "delivered" ? (l.note ? "on the server: " + l.note : "with the organiser (late hands)")
        : l.status === "undelivered" ? "not delivered: " + (l.note || "refused") : "sending to the organiser…";
      var kids = [l.label + " — " + st];
      if (l.status === "undelivered") {
        kids.push(h("button", { type: "button", id: "late-retry-" + l.key.slice(0, 8), "class": "small", onclick: function () { l.status = "sending"; saveLate(); render(); deliverLate(); } }, ["Try again"]));
        kids.push(h("button", { type: "button", id: "late-discard-" + l.key.slice(0, 8), "class": "small secondary", onclick: function () {
          late = late.filter(function (x) { return x !== l; }); saveLate(); journal(l, "discarded"); render();
        } }, ["Discard"]));
      }
      list.appendChild(h("li", { "class": l.status === "delivered" ? "ok" : l.status === "undelivered" ? "bad" : "", "data-key": l.key,
        "data-late": l.status, "data-waiting": l.status === "sending" ? "" : null }, kids));
    });
    var done = late.filter(function (l) { return l.status === "delivered"; }).length;
    show("late-clear", done > 0);
  }

  function renderHistory() {
    var list = $("history");
    list.innerHTML = "";
    var hands = (server.hands || []).slice().reverse();
    queue.filter(function (q) { return q.kind === "hand" && !q.refused && q.board === server.board; }).slice().reverse().forEach(function (q) {
      list.appendChild(h("li", { "class": "pending" }, [h("strong", { text: "G" + q.body.game + " hand " + q.body.number + " (waiting): " }), asEntered(q.body.hand)]));
    });
    hands.forEach(function (hd) {
      list.appendChild(h("li", {}, [h("strong", { text: "Hand " + hd.number + ": " }), readingOf(hd.events, hd.record) +
        " → A " + hd.score_after[0] + " – B " + hd.score_after[1]]));
    });
    if (!list.children.length) list.appendChild(h("li", { text: "No hand yet." }));
  }

  // ---- actions ------------------------------------------------------------------------------------
  $("check").addEventListener("click", check);
  $("send").addEventListener("click", send);
  $("hand-form").addEventListener("submit", function (e) { e.preventDefault(); });
  $("retry").addEventListener("click", function () { go("page", "retry"); render(); refresh(); });
  $("check-now").addEventListener("click", function () { refresh(); });
  $("done-check").addEventListener("click", function () { refresh(); });
  $("late-clear").addEventListener("click", function () {
    late = late.filter(function (l) { return l.status !== "delivered"; }); saveLate(); render();
  });

  $("seating-form").addEventListener("submit", function (e) {
    e.preventDefault();
    if (seatDraft.first === null) { var el = $("err-first_dealer"); el.textContent = "Choose who deals first (highest cut)."; el.hidden = false; return; }
    var seating = {};
    seatDraft.seats.forEach(function (pid, seat) { if (pid) seating[String(seat)] = pid; });
    enqueue("seat", API.seat, { seating: seating, first_dealer: seatDraft.first }, "Seating and first dealer");
    render(); flush();
  });

  $("undo").addEventListener("click", function () {
    if ($("undo").disabled) return;
    var lastQueued = -1;
    queue.forEach(function (q, i) { if (q.kind === "hand") lastQueued = i; });
    var what = lastQueued >= 0 ? queue[lastQueued].label.split(":")[0] : "the last hand sent";
    if (Date.now() - undoArmed > 4000) {
      undoArmed = Date.now();
      $("undo").textContent = "Tap again to undo " + what;
      setTimeout(function () { $("undo").textContent = "Undo last hand"; }, 4000);
      return;
    }
    undoArmed = 0;
    $("undo").textContent = "Undo last hand";
    if (flushing && lastQueued === 0) { flash("That hand is being sent right now; tap Undo again in a moment."); return; }
    if (lastQueued >= 0 && (lastQueued === queue.length - 1 || queue[lastQueued].refused)) {
      var item = queue.splice(lastQueued, 1)[0];
      if (fixing === item.key) fixing = null;
      saveQueue();
      journal(item, "discarded");
      if (item.refused) go("queue", "discarded");
      flash(item.label.split(":")[0] + " removed before it was sent.");
      render(); flush();
      return;
    }
    if (!server.last_hand_id || server.can_undo === false) {
      flash(server.undo_reason || (refreshing || flushing ? "Reading the board; tap Undo again in a moment." : "There is no hand to undo."));
      return;
    }
    enqueue("undo", API.undo, { hand: server.last_hand_id }, "Undo the last hand");
    render(); flush();
  });

  $("help").addEventListener("click", function () {
    if (!server) return;
    enqueue("help", API.help, undefined, "Call the organiser");
    render(); flush();
  });

  $("refused-drop").addEventListener("click", function () {
    var item = queue.length && queue[0].refused ? queue[0] : null;
    if (!item) return;
    queue.shift();
    if (fixing === item.key) fixing = null;
    saveQueue();
    journal(item, "discarded");
    go("queue", "discarded");
    flash(item.label.split(":")[0] + " discarded.");
    render();
    if (!queue.length) refresh(); else flush();
  });

  $("refused-fix").addEventListener("click", function () {
    var item = queue.length && queue[0].refused ? queue[0] : null;
    if (!fixable(item)) return;
    fixing = item.key;
    f = Object.assign(blankHand(), clone(item.form));
    preview = null;
    checkSeq++;
    go("entry", "fix");
    fieldErrors = item.refused.rebase ? { hand: item.refused.error.message + " Check it again as the board's next hand." }
      : item.refused.error.fields || { hand: item.refused.error.message };
    render();
    var first = document.querySelector("#hand-fields .invalid") || $("hand-form");
    if (first && first.scrollIntoView) first.scrollIntoView({ block: "center" });
  });

  // ---- the screen stays awake -----------------------------------------------------------------------
  var lock = null;
  function wake() {
    var note = $("wake");
    if (!window.isSecureContext) {
      note.hidden = false;
      note.textContent = "The screen may go dark: keeping it awake needs a secure (https) address. Set this tablet's screen timeout to its longest.";
      return;
    }
    if (!("wakeLock" in navigator)) {
      note.hidden = false;
      note.textContent = "This browser cannot keep the screen awake. Set this tablet's screen timeout to its longest.";
      return;
    }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      note.hidden = true;
      l.addEventListener("release", function () { lock = null; });
    }, function (e) {
      note.hidden = false;
      note.textContent = "The screen could not be kept awake (" + (e && e.message ? e.message : "refused") + "). Tap the page, or set the screen timeout to its longest.";
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { if (!lock) wake(); tick(); }
  });
  document.addEventListener("click", function () { if (!lock && window.isSecureContext && "wakeLock" in navigator) wake(); }, { once: true });

  window.addEventListener("online", function () { retryDelay = 2000; setReachable(true); tick(); });
  window.addEventListener("offline", function () { setReachable(false); if (!flushing && queue.length) go("queue", "unreachable"); render(); });

  // ---- the offline shell: the service worker ----------------------------------------------------------
  function registerShell() {
    var url = app.getAttribute("data-sw"), scope = app.getAttribute("data-sw-scope");
    if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register(url, { scope: scope }).then(function (reg) {
      swReg = reg;
      reg.addEventListener("updatefound", function () {
        var w = reg.installing;
        if (w) w.addEventListener("statechange", shellUpdate);
      });
      shellUpdate();
    }, function () { /* no offline shell: the page still works online */ });
  }
  /* A new version of the shell waits until the queue is empty, then takes over (used from the next load). */
  function shellUpdate() {
    if (swReg && swReg.waiting && !queue.length && !flushing) {
      debug.log.push("shell: a new version takes over (the queue is empty)");
      swReg.waiting.postMessage("activate-now");
    }
  }

  // ---- start: the board first (the server, else the state kept), then the queue -----------------------
  function tick() {
    if (document.hidden || !device || !device.token) return;
    if (state.page === "pair_again") { deliverLate(); return; }
    if (queue.length && !queue[0].refused && !flushing) flush();
    else refresh();
    deliverLate();
  }
  go("page", device && device.token ? "token" : "no_token");
  app.setAttribute("data-entry", state.entry);
  app.setAttribute("data-queue", state.queue);
  render();
  wake();
  registerShell();
  if (device && device.token) {
    refresh();
    setInterval(tick, 10000);
    setInterval(function () { if (server && state.page !== "pair_again") renderClock(); }, 15000);
  }
})();
