// A seat's table: the seat's view kept up to date, and its legal moves as controls. Every click is a dry run first;
// tried moves add up to a sequence, played as one with "Play it".
//
// The table talks to the server through a link: on the seat's page (below) plain requests and server-sent events
// with the seat's cookie; in the board app (apps/static/app.js) tool calls through the conversation's host. A view
// without a seat (the app's spectator view) shows the board and what just happened, with no controls.
//   link.send(moves, dryRun, expected) -> {ok, text, legal, your_turn, chance, over}
//   link.advice() -> {ok, text};  link.legal(focus) -> {moves};  link.view() -> the view, or null
//   link.follow(onView) -> a handle with close(): every newer view, in order
"use strict";
window.TabletopTable = (function () {
  const $ = (id) => document.getElementById(id);

  function start(link, first) {
    let view = first;
    let sequence = [];      // moves tried in order, not yet played
    let choices = null;     // the legal moves after the sequence (null: the view's own)
    let ended = false;      // the sequence cannot go on (a roll, or the turn passes): only "Play it"
    let busy = false;
    let picked = null;      // the place last clicked on the board (a War square): the moves through it are shown
    let focused = null;     // the engine's moves at that place, when none of the listed ones goes through it
    let wasMyTurn = view.your_turn;
    let heard = 0;          // views received from the link's following, which come in order
    let answeredAt = null;  // the move after which the answer shown was given: once others have moved, it goes
    let following = null;
    let fullSize = false;   // the picture at its own size, moved sideways in its box (a wide map on a narrow screen)

    function el(tag, text, attrs) {
      const node = document.createElement(tag);
      if (text !== undefined && text !== null) { node.textContent = text; }
      Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
      return node;
    }

    function logItem(line) {
      const li = el("li");
      li.value = line.n;
      if (line.mine) { li.className = "mine"; }
      li.append(el("b", line.who), ": " + line.move + (line.events.length ? " — " + line.events.join(" ") : ""));
      return li;
    }

    function say(text, refused) {
      $("answer").hidden = !text;
      $("answer").textContent = text || "";
      $("answer").classList.toggle("refused", !!refused);
      document.body.dataset.answer = refused ? "refused" : (text ? "ok" : "");
    }

    function renderMoves() {
      const groups = picked !== null && focused !== null ? focused : choices === null ? view.moves : choices;
      const box = $("moves");
      box.replaceChildren();
      const total = groups.reduce((n, g) => n + g.moves.length, 0);
      $("filter").hidden = total < 12;
      const wanted = $("filter").hidden ? "" : $("filter").value.trim().toLowerCase();
      const through = (m) => picked === null || words(m.notation).includes(picked);
      groups.forEach((group) => {
        const shown = group.moves.filter((m) => through(m) && (!wanted || (m.notation + " " + m.summary + " " + group.title).toLowerCase().includes(wanted)));
        if (!shown.length) { return; }
        const set = el("fieldset", null, { class: "group" });
        set.append(el("legend", group.title));
        shown.forEach((m) => {
          const button = el("button", m.notation, { type: "button", class: "move", title: m.summary, "data-move": m.notation });
          if (m.summary && m.summary !== m.notation) { button.append(el("span", m.summary.startsWith(m.notation) ? m.summary.slice(m.notation.length).replace(/^[:\s]+/, "") : m.summary, { class: "summary" })); }
          button.onclick = () => tryMove(m.notation);
          set.append(button);
        });
        box.append(set);
      });
      if (picked !== null) {
        const clear = el("button", "Show all moves (not only through " + picked + ")", { type: "button", id: "unpick" });
        clear.onclick = () => pick(null);
        box.prepend(clear);
      }
      if (ended) { box.append(el("p", "Nothing more can be added to this sequence: play it, or take a move back.", { class: "quiet" })); }
      document.body.dataset.choices = String(total);
    }

    function sizePicture() { fitPicture($("board"), $("zoom"), fullSize); }  // render/static/picture.js

    function words(notation) { return notation.toLowerCase().split(/[^a-z0-9]+/); }

    function pick(name) {  // show the moves through a place of the board, and frame it
      picked = name;
      if (name === null) { focused = null; }
      document.querySelectorAll("#board .spot.picked").forEach((r) => r.classList.remove("picked"));
      if (name !== null) {
        const spot = document.querySelector('#board [data-spot="' + CSS.escape(name) + '"]');
        if (spot) { spot.classList.add("picked"); }
      }
      document.body.dataset.picked = name || "";
      renderMoves();
    }

    async function clickBoard(name) {  // first a unit's place, then where it goes: the one move through both is tried
      if (!view.your_turn || busy) { return; }
      const listedNow = (choices === null ? view.moves : choices).flatMap((g) => g.moves.map((m) => m.notation));
      if (picked !== null && picked !== name) {
        const both = listedNow.filter((n) => words(n).includes(picked) && words(n).includes(name));
        if (both.length === 1) { pick(null); await tryMove(both[0]); return; }
      }
      focused = null;
      if (!listedNow.some((n) => words(n).includes(name))) {  // none listed: ask the engine (a War placement there)
        const found = await link.legal(name);
        if (found.moves.length) { focused = found.moves; }  // read on the position before the sequence: each is tried
      }
      pick(name);
    }

    function renderSequence() {
      $("compose").hidden = sequence.length === 0;
      $("sequence").replaceChildren(...sequence.map((m) => el("li", m)));
      document.body.dataset.sequence = String(sequence.length);
    }

    async function tryMove(move) {
      if (busy || ended || !view.your_turn) { return; }
      busy = true;
      try {
        const answer = await link.send(sequence.concat([move]), true);
        if (!answer.ok) { say(answer.text, true); return; }
        sequence.push(move);
        picked = null;
        ended = !answer.your_turn || answer.chance || answer.over;
        choices = ended ? [] : answer.legal;
        say(answer.text, false);
        renderSequence();
        renderMoves();
        $("play").focus();
      } finally { busy = false; }
    }

    async function again(moves) {  // the dry run of a shortened sequence, to get its next choices back
      if (!moves.length) { choices = null; ended = false; say(""); return; }
      const answer = await link.send(moves, true);
      if (!answer.ok) { sequence = []; choices = null; ended = false; say(answer.text, true); return; }
      ended = !answer.your_turn || answer.chance || answer.over;
      choices = ended ? [] : answer.legal;
      say(answer.text, false);
    }

    async function playSequence() {
      if (busy || !sequence.length) { return; }
      busy = true;
      let answer;
      try { answer = await link.send(sequence, false, view.ply + 1); } finally { busy = false; }
      say(answer.text, !answer.ok);
      // Not busy while the view is fetched: the following may show the new position first, and a move clicked on it
      // then must be tried, not dropped.
      if (answer.ok) { reset(); await refresh(); answeredAt = view.ply; }
    }

    function reset() { sequence = []; choices = null; ended = false; picked = null; renderSequence(); renderMoves(); }

    async function refresh() {  // the view after the seat's own move, unless the following has brought a newer one
      const before = heard;
      const next = await link.view();
      if (next && (heard === before || next.ply > view.ply)) { show(next); }
    }

    function chime() {
      if (!$("sound").checked || !window.AudioContext) { return; }
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    }

    function show(next) {
      const moved = next.ply !== view.ply || next.your_turn !== view.your_turn;
      const sameMoves = JSON.stringify(next.moves) === JSON.stringify(view.moves);
      view = next;
      if (moved) { sequence = []; choices = null; ended = false; }
      if (moved && answeredAt !== null && next.ply > answeredAt) { answeredAt = null; say(""); }
      const seated = view.seat !== null && view.seat !== undefined;
      const turn = $("turn");
      turn.textContent = view.over ? "Game over: " + view.result + (view.you_won ? " You won." : "")
        : view.your_turn ? "Your move." : view.waiting || "";
      turn.classList.toggle("mine", view.your_turn);
      document.title = (view.your_turn ? "Your move · " : view.over ? "Game over · " : "") + view.title + " · " + view.you;
      if (view.your_turn && !wasMyTurn) { chime(); }
      wasMyTurn = view.your_turn;
      $("you").textContent = view.you;
      $("game-title").textContent = view.title;
      $("game-id").textContent = view.id;
      $("players").textContent = view.players.join(" · ");
      $("since-title").textContent = seated ? "Since your last move" : "Just played";
      const across = $("board").scrollLeft;
      $("board").innerHTML = view.svg || "<p>This game has no picture.</p>";
      sizePicture();
      $("board").scrollLeft = across;
      if (moved) { picked = null; }
      if (picked !== null) { const spot = document.querySelector('#board [data-spot="' + CSS.escape(picked) + '"]'); if (spot) { spot.classList.add("picked"); } }
      $("position").textContent = view.position;
      $("since").replaceChildren(...view.since.map(logItem));
      $("since-none").hidden = view.since.length > 0;
      $("log").replaceChildren(...view.log.map(logItem));
      $("count").textContent = view.log_cut ? "(the last " + view.log.length + " of " + (view.log.length + view.log_cut) + ")" : "";
      $("note").hidden = !view.note;
      $("note").textContent = view.note || "";
      $("act").hidden = !view.your_turn;
      $("advice").hidden = !(view.advice && view.your_turn);
      $("seed").hidden = view.seed === null;
      $("seed").textContent = view.seed === null ? "" : "Seed (for replays): " + view.seed;
      if (moved || !sameMoves || !document.querySelector("#moves fieldset")) {  // the buttons stay put otherwise
        renderSequence();
        renderMoves();
      }
      document.body.dataset.ply = String(view.ply);
      document.body.dataset.yourTurn = view.your_turn ? "yes" : "no";
      document.body.dataset.over = view.over ? "yes" : "no";
      document.body.dataset.seated = seated ? "yes" : "no";
    }

    $("board").onclick = (event) => {
      const spot = event.target.closest("[data-spot]");
      if (spot) { clickBoard(spot.dataset.spot); }
    };
    $("zoom").onclick = () => { fullSize = !fullSize; sizePicture(); };
    window.addEventListener("resize", sizePicture);
    $("play").onclick = playSequence;
    $("undo").onclick = async () => { if (busy) { return; } busy = true; try { sequence.pop(); await again(sequence); renderSequence(); renderMoves(); } finally { busy = false; } };
    $("clear").onclick = () => { say(""); reset(); };
    $("filter").oninput = renderMoves;
    $("typed").onsubmit = (event) => {
      event.preventDefault();
      const move = $("typed-move").value.trim();
      if (move) { tryMove(move).then(() => { if (document.body.dataset.answer === "ok") { $("typed-move").value = ""; } }); }
    };
    $("advice").onclick = async () => { const answer = await link.advice(); say(answer.text, !answer.ok); };

    say("");
    show(view);
    if (!view.over) {
      following = link.follow((next) => {
        heard += 1;
        show(next);
        if (view.over) { following.close(); $("live").hidden = true; }
      });
      $("live").hidden = !following.live;
    }
    return { close() { if (following) { following.close(); } window.removeEventListener("resize", sizePicture); } };
  }

  // The seat's page: requests to the page's own address with its cookie, and its event stream.
  function pageLink(base) {
    function post(path, body) {
      return fetch(base + path, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json().catch(() => ({ ok: false, text: "The server answered " + r.status })));
    }
    return {
      send(moves, dryRun, expected) {
        const body = { moves: moves, dry_run: dryRun };
        if (expected !== undefined) { body.expected = expected; }
        return post("/moves", body);
      },
      advice() { return post("/advice", {}); },
      async legal(focus) {
        const answer = await fetch(base + "/legal?focus=" + encodeURIComponent(focus), { credentials: "same-origin" });
        return answer.ok ? answer.json() : { moves: [] };
      },
      async view() {
        const answer = await fetch(base + "/view", { credentials: "same-origin" });
        return answer.ok ? answer.json() : null;
      },
      follow(onView) {
        if (!window.EventSource) { return { live: false, close() {} }; }
        const events = new EventSource(base + "/events");
        events.addEventListener("seat", (message) => onView(JSON.parse(message.data)));
        return { live: true, close() { events.close(); } };
      },
    };
  }

  return { start: start, pageLink: pageLink };
})();

if (document.getElementById("view-data")) {
  window.TabletopTable.start(window.TabletopTable.pageLink(location.pathname), JSON.parse(document.getElementById("view-data").textContent));
}
