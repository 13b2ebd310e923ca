// A test host for MCP Apps, built on the official host bridge (@modelcontextprotocol/ext-apps, AppBridge and
// PostMessageTransport), bundled by esbuild (tests/apps/conftest.py). It does what a web host does with a tool that
// names a ui:// resource: calls the tool for the model, reads the resource, renders it in a sandboxed iframe of its
// own (opaque) origin under the spec's default content security policy (no network), sends the tool's input and
// result to it, and proxies the app's calls: tools/call to app-visible tools only, ui/update-model-context and
// ui/message recorded as what reaches the model. Its MCP connection to the server is the test's relay (/rpc/...),
// a Python MCP client that advertises the Apps extension.
import {
  AppBridge,
  PostMessageTransport,
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  isToolVisibilityModelOnly,
} from "@modelcontextprotocol/ext-apps/app-bridge";

// The spec's restrictive default for a resource that declares no domains ('self' means nothing in an opaque origin).
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; " +
  "connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'";

async function rpc(op, body) {
  const answer = await fetch("/rpc/" + op, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { throw new Error(data.error || "relay error " + answer.status); }
  return data;
}

let listed = null;
async function tools() {
  if (!listed) { listed = (await rpc("list_tools", {})).tools; }
  return listed;
}

// The policy, and a watch on it: whatever the policy blocks is noted on the view's root element for the test to read.
const WATCH = "<script>document.addEventListener('securitypolicyviolation', (e) => { const root = document.documentElement; " +
  "root.dataset.blocked = (root.dataset.blocked || '') + e.violatedDirective + ' ' + e.blockedURI + '\\n'; });<\/script>";

function withPolicy(html) {
  const meta = '<meta http-equiv="Content-Security-Policy" content="' + CSP + '">';
  return html.replace(/<head>/i, "<head>" + meta + WATCH);
}

const views = [];

window.testHost = {
  views: views,
  // Call `name` for the model and, if it names an app, show the app with its answer: the view's number, or -1.
  async show(name, args, width) {
    const all = await tools();
    const tool = all.find((t) => t.name === name);
    if (!tool || isToolVisibilityAppOnly(tool)) { throw new Error("the model is not given " + name); }
    const result = (await rpc("call", { name: name, arguments: args, caller: "model" })).result;
    const uri = getToolUiResourceUri(tool);
    if (!uri) { return -1; }
    const html = (await rpc("read", { uri: uri })).contents[0].text;
    const index = views.length;
    const frame = document.createElement("iframe");
    frame.id = "view-" + index;
    frame.setAttribute("sandbox", "allow-scripts");
    frame.style.width = width + "px";
    frame.style.height = "120px";
    document.getElementById("views").append(frame);
    const view = { index: index, name: name, initialized: false, sizes: [], links: [], logs: [], appInfo: null };
    views.push(view);
    const bridge = new AppBridge(
      null,
      { name: "tabletop-test-host", version: "1.0.0" },
      { serverTools: {}, updateModelContext: { text: {} }, message: { text: {} }, openLinks: {}, logging: {} },
      { hostContext: { theme: "light", displayMode: "inline", availableDisplayModes: ["inline"], platform: "web",
        containerDimensions: { width: width, maxHeight: 6000 }, locale: "en-GB" } },
    );
    bridge.oncalltool = async (params) => {
      const called = all.find((t) => t.name === params.name);
      if (!called || isToolVisibilityModelOnly(called)) { throw new Error("this app may not call " + params.name); }
      return (await rpc("call", { name: params.name, arguments: params.arguments || {}, caller: "app", view: index })).result;
    };
    bridge.onupdatemodelcontext = async (params) => { await rpc("told", { view: index, kind: "ui/update-model-context", params: params }); return {}; };
    bridge.onmessage = async (params) => { await rpc("told", { view: index, kind: "ui/message", params: params }); return {}; };
    bridge.onopenlink = async (params) => { view.links.push(params.url); return {}; };
    bridge.onloggingmessage = (params) => { view.logs.push(params); };
    bridge.onsizechange = (size) => {
      view.sizes.push(size);
      if (size.height != null) { frame.style.height = size.height + "px"; }
    };
    bridge.oninitialized = () => {
      view.initialized = true;
      view.appInfo = bridge.getAppVersion();
      bridge.sendToolInput({ arguments: args });
      bridge.sendToolResult(result);
    };
    await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
    view.bridge = bridge;
    frame.srcdoc = withPolicy(html);
    return index;
  },
  // Tear a view down as a host does (ui/resource-teardown, answered before the frame goes).
  async close(index) {
    await views[index].bridge.teardownResource({ reason: "test" });
    document.getElementById("view-" + index).remove();
  },
};
document.body.dataset.host = "ready";
