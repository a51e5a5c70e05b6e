/* Follow my pair (issue 17): built in the browser from the public JSON (rounds, each round's boards, the
 * standings); the pair picked stays in this browser's local storage. The page itself is the same file for
 * every reader. Refreshes every 20 s while the event runs (each JSON answers 304 when unchanged). */
(function () {
  "use strict";
  var root = document.getElementById("follow");
  var select = document.getElementById("follow-pair");
  var clear = document.getElementById("follow-clear");
  if (!root || !select) return;
  var key = "hangjack.follow." + root.getAttribute("data-slug");
  var timer = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }
  function getJSON(url) {
    return fetch(url, { cache: "no-cache", credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    });
  }
  function store(id) {
    try { if (id) localStorage.setItem(key, id); else localStorage.removeItem(key); } catch (e) { /* private mode */ }
  }
  function stored() {
    try { return localStorage.getItem(key) || ""; } catch (e) { return ""; }
  }
  var STATE = { published: "pairings out, play starts soon", in_play: "in play", closed: "finished" };

  function mine(board, id) {
    if (board.pair_a && board.pair_a.entry === id) return { side: 0, me: board.pair_a, them: board.pair_b };
    if (board.pair_b && board.pair_b.entry === id) return { side: 1, me: board.pair_b, them: board.pair_a };
    return null;
  }
  function names(p) {
    if (!p) return "";
    var players = (p.players || []).join(" & ");
    return p.name + (players && players !== p.name ? " (" + players + ")" : "") + (p.club ? " · " + p.club : "");
  }
  function outcome(board, side) {
    var f = board.games_won[side], a = board.games_won[1 - side];
    if (!board.pair_b) return "bye";
    if (board.status === "done" || board.forfeited !== null) {
      if (board.forfeited !== null) return board.result;
      return (f > a ? "won " : f < a ? "lost " : "drawn ") + f + "-" + a;
    }
    return "games " + f + "-" + a + " (" + (board.status || "").replace(/_/g, " ") + ")";
  }

  function render(id, rounds, boards, standings) {
    var planned = parseInt(root.getAttribute("data-planned"), 10) || 0;
    var finished = root.getAttribute("data-finished") === "1";
    var out = [];
    var option = select.querySelector('option[value="' + id + '"]');
    out.push(el("h2", { id: "follow-name" }, [option ? option.textContent : "Pair " + id]));
    // standing
    var row = (standings.rows || []).filter(function (r) { return r.entry === id; })[0];
    if (row) {
      var col = (standings.columns || []).filter(function (c) { return c.key !== "played"; })[0];
      out.push(el("p", { "class": "follow-standing" }, ["Place ", el("strong", {}, [String(row.rank)]),
        col ? " · " + col.short + " " + row.values[col.key] : "", " (confirmed games only)"]));
    }
    // now: the latest live round's board
    var live = rounds.filter(function (r) { return r.status === "in_play" || r.status === "published"; });
    var now = live.length ? live[live.length - 1] : null;
    var nowBoard = now ? boards[now.number] : null;
    var card = el("section", { "class": "follow-now", "aria-labelledby": "follow-now-h" }, []);
    if (now && nowBoard) {
      var m = mine(nowBoard, id);
      card.appendChild(el("h3", { id: "follow-now-h" }, ["Round " + now.number + ": " + STATE[now.status]]));
      if (!nowBoard.pair_b) {
        card.appendChild(el("p", {}, ["A bye this round: no table."]));
      } else {
        card.appendChild(el("p", { "class": "follow-table" }, [el("strong", {}, ["Table " + nowBoard.table]),
          " · you are " + (m.side ? "B (seats 2 and 4)" : "A (seats 1 and 3)")]));
        card.appendChild(el("p", {}, ["Against: ", el("strong", {}, [names(m.them)])]));
        var score = ["Games " + nowBoard.games_won[m.side] + "-" + nowBoard.games_won[1 - m.side]];
        if (nowBoard.current_score) {
          score.push(" · game " + nowBoard.current_game + ": " + nowBoard.current_score[m.side] + "-" +
            nowBoard.current_score[1 - m.side] + " (yours first)");
        }
        score.push(" · " + (nowBoard.status || "").replace(/_/g, " "));
        card.appendChild(el("p", { "class": "follow-score" }, score));
        card.appendChild(el("p", {}, [el("a", { href: root.getAttribute("data-board-url") + nowBoard.board + "/" }, ["The scorecard, hand by hand"])]));
      }
    } else if (now) {
      card.appendChild(el("h3", { id: "follow-now-h" }, ["Round " + now.number]));
      card.appendChild(el("p", {}, ["Not in this round."]));
    } else {
      card.appendChild(el("h3", { id: "follow-now-h" }, ["Now"]));
      card.appendChild(el("p", {}, [finished ? "The event is finished." : "No round is in play."]));
    }
    out.push(card);
    // next round
    var last = rounds.length ? rounds[rounds.length - 1].number : 0;
    var next;
    if (finished) next = "The event is finished: no next round.";
    else if (planned && last >= planned && (!now || now.number === last)) next = now ? "This is the last round." : "Every round is played.";
    else next = "Round " + (last + 1) + ": pairings are not out yet. This page shows them once they are.";
    out.push(el("section", { "class": "follow-next", "aria-labelledby": "follow-next-h" },
      [el("h3", { id: "follow-next-h" }, ["Next round"]), el("p", {}, [next])]));
    // history
    var items = rounds.filter(function (r) { return boards[r.number] && (!now || r.number !== now.number); }).map(function (r) {
      var b = boards[r.number], m = mine(b, id);
      var text = "Round " + r.number + ": " + (b.pair_b ? "table " + b.table + " v " + (m.them ? m.them.name : "") + " · " : "") + outcome(b, m.side);
      return el("li", {}, [b.pair_b ? el("a", { href: root.getAttribute("data-board-url") + b.board + "/" }, [text]) : text]);
    });
    out.push(el("section", { "class": "follow-history", "aria-labelledby": "follow-history-h" },
      [el("h3", { id: "follow-history-h" }, ["Every round so far"]),
       items.length ? el("ol", { "class": "plain" }, items) : el("p", {}, ["No round played yet."]),
       el("p", {}, [el("a", { href: root.getAttribute("data-pair-url") + id + "/" }, ["The pair's page"])])]));
    out.push(el("p", { "class": "small" }, ["Read at " + new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) + "; refreshes by itself."]));
    root.replaceChildren.apply(root, out);
  }

  function load() {
    clearTimeout(timer);
    var id = parseInt(select.value, 10);
    if (!id) { root.replaceChildren(el("p", { "class": "small" }, ["Choose a pair above."])); return; }
    getJSON(root.getAttribute("data-rounds-url")).then(function (rounds) {
      var base = root.getAttribute("data-round-url");
      return Promise.all([Promise.resolve(rounds), getJSON(root.getAttribute("data-standings-url")).catch(function () { return {}; })]
        .concat(rounds.map(function (r) { return getJSON(base + r.number + "/"); })));
    }).then(function (results) {
      var rounds = results[0], standings = results[1], boards = {};
      results.slice(2).forEach(function (data) {
        (data.boards || []).forEach(function (b) { if (mine(b, id)) boards[data.round.number] = b; });
      });
      if (parseInt(select.value, 10) === id) render(id, rounds, boards, standings);
    }).catch(function () {
      root.replaceChildren(el("p", { "class": "offline" }, ["Cannot reach the results just now; trying again."]));
    }).then(function () {
      if (root.getAttribute("data-finished") !== "1") timer = setTimeout(load, 20000);
    });
  }

  select.addEventListener("change", function () {
    store(select.value);
    if (clear) clear.hidden = !select.value;
    load();
  });
  if (clear) clear.addEventListener("click", function () { select.value = ""; store(""); clear.hidden = true; load(); });
  var saved = stored();
  if (saved && select.querySelector('option[value="' + saved + '"]')) {
    select.value = saved;
    if (clear) clear.hidden = false;
    load();
  }
})();
