// A tournament's page: standings and schedule, kept up to date by the server's events (no reload).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const base = location.pathname.replace(/\/tournaments\/[^/]*$/, "");

  function cell(row, content) {
    const td = document.createElement("td");
    if (content instanceof Node) { td.append(content); } else { td.textContent = String(content); }
    row.append(td);
  }

  function show(view) {
    const c = view.counts;
    $("progress").textContent = (view.finished ? "Finished. " : "Running. ") +
      c.finished + " finished, " + c.running + " playing, " + c.pending + " to come" + (c.abandoned ? ", " + c.abandoned + " abandoned" : "") + ".";
    $("standings").tBodies[0].replaceChildren(...view.standings.map((s, i) => {
      const tr = document.createElement("tr");
      [i + 1, s.player, s.games, s.wins, s.draws, s.nobody_won, s.losses,
        s.win_rate + "% (" + s.win_low + "–" + s.win_high + ")", s.mu + " ± " + s.sigma, s.ordinal].forEach((v) => cell(tr, v));
      return tr;
    }));
    $("schedule").tBodies[0].replaceChildren(...view.games.map((g) => {
      const tr = document.createElement("tr");
      cell(tr, g.slot);
      let who = g.players.join(" vs ");
      if (g.game_id) {
        const a = document.createElement("a");
        a.href = base + "/games/" + encodeURIComponent(g.game_id);
        a.textContent = who;
        cell(tr, a);
      } else { cell(tr, who); }
      cell(tr, g.status);
      cell(tr, g.result || "");
      return tr;
    }));
    document.body.dataset.finishedGames = String(c.finished);
  }

  let view = JSON.parse($("view-data").textContent);
  show(view);
  if (!view.finished && window.EventSource) {
    const events = new EventSource(location.pathname + "/events");
    $("live").hidden = false;
    events.addEventListener("tournament", (message) => {
      view = JSON.parse(message.data);
      show(view);
      if (view.finished) { events.close(); $("live").hidden = true; }
    });
  }
})();
