// The board app's bridge to its host (MCP Apps, io.modelcontextprotocol/ui): JSON-RPC 2.0 over postMessage with the
// window that holds this one. It reads the answer it is shown with (the game, and a person's seat key if the answer
// has one), then runs the seat's table (play.js) with a link that calls this server's app-only tools through the
// host: the spectator's board, or the person's own seat once its key is exchanged for the seat's token, which stays
// in this page's memory. The arguments the model called the tool with are never used: a token there is the model's.
// The only thing it tells the model is the server's spectator's note after the person has played.
"use strict";
(function () {
  const META = "io.github.tabletop-mcp/board";
  const WAIT = 20;  // seconds one board_view call waits for the board to change
  const $ = (id) => document.getElementById(id);
  const calls = new Map();
  let nextId = 1;
  let host = {};         // the host's capabilities
  let gameId = null;     // the game shown
  let seat = null;       // the seat this view holds ({game_id, seat, name, token, page}), or null: a spectator's view
  let keys = [];         // the person seats' keys of the answer, not yet used
  let table = null;      // the running table (play.js)
  let running = 0;       // which start of the table the following belongs to
  let gone = false;      // the host tore this view down

  function send(message) { window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*"); }

  function request(method, params) {
    const id = nextId++;
    send({ id: id, method: method, params: params });
    return new Promise((resolve, reject) => calls.set(id, { resolve: resolve, reject: reject }));
  }

  function notify(method, params) { send({ method: method, params: params || {} }); }

  function status(text, state) {
    $("app-status").textContent = text || "";
    if (state) { document.body.dataset.app = state; }
  }

  function textOf(result) {
    return (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
  }

  async function tool(name, args) {  // one of this server's tools, through the host: its structured answer
    const result = await request("tools/call", { name: name, arguments: args });
    if (result.isError) { throw new Error(textOf(result).replace(/^Error executing tool \w+: /, "")); }
    return result.structuredContent || {};
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) { return; }
    const message = event.data;
    if (!message || message.jsonrpc !== "2.0") { return; }
    if (message.method === undefined) {  // an answer to one of ours
      const call = calls.get(message.id);
      if (!call) { return; }
      calls.delete(message.id);
      if (message.error) { call.reject(new Error(message.error.message || "The host refused")); } else { call.resolve(message.result); }
    } else if (message.id !== undefined) {  // the host asks
      if (message.method === "ui/resource-teardown") { stop(); }
      if (message.method === "ui/resource-teardown" || message.method === "ping") { send({ id: message.id, result: {} }); } else {
        send({ id: message.id, error: { code: -32601, message: "Method not found: " + message.method } });
      }
    } else {
      heard(message.method, message.params || {});
    }
  });

  function heard(method, params) {
    if (method === "ui/notifications/tool-result") { shown(params); }
    else if (method === "ui/notifications/host-context-changed") { context(params); }
    else if (method === "ui/notifications/tool-cancelled") { status("The call was cancelled: there is no board to show.", "cancelled"); }
  }

  function context(given) {  // the host's fonts and colours, where the style sheet asks for them
    const variables = (given.styles && given.styles.variables) || {};
    Object.entries(variables).forEach(([name, value]) => { if (value) { document.documentElement.style.setProperty(name, value); } });
  }

  function shown(result) {  // the answer this view is shown with
    if (result.isError) { status("Nothing to show: " + textOf(result).split("\n")[0], "error"); return; }
    const data = result.structuredContent || {};
    if (!data.game_id) { status("This answer names no game.", "error"); return; }
    gameId = data.game_id;
    keys = ((result._meta || {})[META] || {}).seats || [];
    if (!host.serverTools) { status("This host does not let apps call the server: the board cannot be shown here.", "error"); return; }
    if (keys.length === 1) { open(keys[0]); } else { watch(); offer(); }
  }

  function offer() {  // several people's seats in one answer (people sharing one screen): each picks theirs
    const box = $("app-seats");
    box.replaceChildren(...keys.map((key) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Play as " + key.name;
      button.onclick = () => open(key);
      return button;
    }));
    box.hidden = keys.length === 0;
  }

  async function open(key) {
    keys = keys.filter((k) => k !== key);
    offer();
    status("Opening " + key.name + "'s seat…");
    try {
      seat = await tool("board_open", { key: key.key });
    } catch (err) {
      status(err.message, "spectator");
      if (!table) { watch(); }
      return;
    }
    $("app-page").hidden = !(seat.page && host.openLinks);
    begin("seat");
  }

  function watch() { seat = null; begin("spectator"); }

  function asked() { return seat ? { game_id: gameId, token: seat.token } : { game_id: gameId }; }

  async function board(seen, wait) {
    return tool("board_view", Object.assign(asked(), { seen: seen || "", wait_seconds: wait }));
  }

  async function begin(state) {
    const mine = ++running;
    if (table) { table.close(); table = null; }
    let first;
    try {
      first = await board("", 0);
    } catch (err) {
      status(err.message, "error");
      return;
    }
    if (mine !== running || gone) { return; }
    status(seat ? "" : "Watching: the board follows the game.", state);
    table = window.TabletopTable.start(link(mine, first.digest), first.view);
  }

  function link(mine, digest) {
    let seen = digest;
    const stopped = () => mine !== running || gone;
    return {
      async send(moves, dryRun, expected) {
        const args = Object.assign(asked(), { moves: moves, dry_run: dryRun });
        if (expected !== undefined) { args.expected_ply = expected; }
        try {
          const answer = await tool("board_move", args);
          if (answer.public && host.updateModelContext) {  // what a spectator now knows, for the model's next turn
            request("ui/update-model-context", { content: [{ type: "text", text: answer.public }] }).catch(() => {});
          }
          return answer;
        } catch (err) {
          return { ok: false, text: err.message };
        }
      },
      async advice() {
        try { return await tool("board_advice", asked()); } catch (err) { return { ok: false, text: err.message }; }
      },
      async legal(focus) {
        try { return await tool("board_legal", Object.assign(asked(), { focus: focus })); } catch (err) { return { moves: [] }; }
      },
      async view() {
        try { return (await board("", 0)).view; } catch (err) { return null; }
      },
      follow(onView) {
        let closed = false;
        (async () => {
          while (!closed && !stopped()) {
            try {
              const next = await board(seen, WAIT);
              if (closed || stopped()) { break; }
              if (next.digest !== seen) { seen = next.digest; onView(next.view); }
            } catch (err) {
              await new Promise((resolve) => setTimeout(resolve, 3000));
            }
          }
        })();
        return { live: true, close() { closed = true; } };
      },
    };
  }

  function stop() { gone = true; running += 1; if (table) { table.close(); } }

  $("app-page").onclick = () => {
    if (seat && seat.page) { request("ui/open-link", { url: seat.page }).catch(() => {}); }
  };

  let sizing = null;
  let lastHeight = 0;
  new ResizeObserver(() => {  // the host sizes this view to its content
    clearTimeout(sizing);
    sizing = setTimeout(() => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height !== lastHeight) { lastHeight = height; notify("ui/notifications/size-changed", { height: height }); }
    }, 60);
  }).observe(document.documentElement);

  request("ui/initialize", {
    appInfo: { name: "tabletop-board", version: "1" },
    appCapabilities: { availableDisplayModes: ["inline"] },
    protocolVersion: "2026-01-26",
  }).then((answer) => {
    host = answer.hostCapabilities || {};
    context(answer.hostContext || {});
    notify("ui/notifications/initialized", {});
    status("Waiting for the game…", "waiting");
  }, (err) => status("The host did not start this view: " + err.message, "error"));
})();
