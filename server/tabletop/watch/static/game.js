// A game's page, kept up to date by the server's events (no reload); once the game is over, a replay control.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let view = JSON.parse($("view-data").textContent);
  let replayAt = null; // the move the replay shows, or null: the live position
  let fullSize = false; // the picture at its own size, moved sideways in its box (a wide map on a narrow screen)

  function sizePicture() { fitPicture($("board"), $("zoom"), fullSize); }  // render/static/picture.js

  function draw(svg) {  // a new picture, kept at the size and the sideways scroll the watcher chose
    const across = $("board").scrollLeft;
    $("board").innerHTML = svg || "<p>This game has no picture.</p>";
    sizePicture();
    $("board").scrollLeft = across;
  }

  function logItem(line) {
    const li = document.createElement("li");
    li.value = line.n;
    const who = document.createElement("b");
    who.textContent = line.who;
    li.append(who, ": " + line.move + (line.events.length ? " — " + line.events.join(" ") : ""));
    return li;
  }

  function show(next) {
    view = next;
    $("status").textContent = view.over ? "Game over" : (view.to_move.length ? "To move: " + view.to_move.join(", ") : "");
    $("result").textContent = view.result || "";
    $("result").hidden = !view.over;
    $("seed").hidden = view.seed === null;
    $("seed").querySelector("span").textContent = view.seed === null ? "" : String(view.seed);
    $("moves").textContent = String(view.moves);
    $("secret").hidden = !view.secret_setup;
    $("position").textContent = view.position;
    $("log").replaceChildren(...view.log.map(logItem));
    if (replayAt === null) { draw(view.svg); }
    $("replay").hidden = !view.over;
    $("ply").max = String(view.moves);
    if (replayAt === null) { $("ply").value = String(view.moves); label(view.moves, null); }
    document.body.dataset.moves = String(view.moves);
  }

  function label(ply, move) {
    $("replay-at").textContent = "after move " + ply + " of " + view.moves;
    $("replay-move").textContent = move ? move.n + ". " + move.who + ": " + move.move + (move.events.length ? " — " + move.events.join(" ") : "") : "";
  }

  async function replay(ply) {
    ply = Math.max(0, Math.min(view.moves, ply));
    const answer = await fetch(location.pathname + "/replay/" + ply, { credentials: "same-origin" });
    if (!answer.ok) { return; }
    const frame = await answer.json();
    replayAt = frame.ply;
    draw(frame.svg);
    $("ply").value = String(frame.ply);
    label(frame.ply, frame.move);
    document.body.dataset.replayAt = String(frame.ply);
  }

  $("zoom").onclick = () => { fullSize = !fullSize; sizePicture(); };
  window.addEventListener("resize", sizePicture);
  sizePicture();
  $("first").onclick = () => replay(0);
  $("back").onclick = () => replay((replayAt === null ? view.moves : replayAt) - 1);
  $("forward").onclick = () => replay((replayAt === null ? view.moves : replayAt) + 1);
  $("last").onclick = () => replay(view.moves);
  $("ply").oninput = () => replay(Number($("ply").value));

  if (!view.over && window.EventSource) {
    const events = new EventSource(location.pathname + "/events");
    $("live").hidden = false;
    events.addEventListener("game", (message) => {
      show(JSON.parse(message.data));
      if (view.over) { events.close(); $("live").hidden = true; }
    });
  }
  document.body.dataset.moves = String(view.moves);
})();
