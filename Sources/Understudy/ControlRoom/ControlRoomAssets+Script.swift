/// The control room's script: one ES module, no dependencies. It reads the live feed, drives the admin API, and
/// runs a demo client against the public API so the audience sees what a fault does to an app.
extension ControlRoomAssets {
    static let script = #"""
const A = "/__understudy";
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_ROWS = 500;

const state = {
  token: sessionStorage.getItem("understudy-token") || "",
  tokenRequired: false,
  scope: "",
  rules: new Map(),
  sessions: [],
  rows: [],
  paused: false,
  missed: 0,
  lastId: 0,
  offlineUntil: 0,
  scenarios: [],
  // Requests the feed counted but did not send (a busy server): [{time, requests, errors}], for the chart.
  skipped: [],
};
let tokenReady = Promise.resolve();
let unlock = () => {};

// ---------- the admin API ----------
function adminHeaders(extra = {}) {
  const headers = { ...extra };
  if (state.token) headers["X-Understudy-Token"] = state.token;
  return headers;
}

async function admin(method, path, body) {
  const options = { method, headers: adminHeaders(body === undefined ? {} : { "Content-Type": "application/json" }) };
  if (body !== undefined) options.body = JSON.stringify(body);
  const reply = await fetch(A + path, options);
  const text = await reply.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (reply.status === 401) askForToken("The server refused the token.");
  return { status: reply.status, ok: reply.ok, json, text };
}

function askForToken(problem) {
  $("token-form").hidden = false;
  $("token-error").textContent = problem || "";
  setFeedStatus("locked: needs the admin token", "bad");
  tokenReady = new Promise((resolve) => { unlock = resolve; });
  $("token").focus();
}

$("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  state.token = $("token").value;
  const reply = await admin("GET", "/health");
  if (!reply.ok) { $("token-error").textContent = "That token was refused."; return; }
  sessionStorage.setItem("understudy-token", state.token);
  $("token-form").hidden = true;
  $("token-error").textContent = "";
  unlock();
  loadScenarios();
});

// ---------- the live feed ----------
// The feed is read with fetch() streaming rather than EventSource: EventSource cannot send headers, and with
// --admin-token the token must travel in X-Understudy-Token, never in a URL (URLs end up in logs and history).
// fetch() sends it, and Last-Event-ID, as headers; SSEParser keeps the SSE rules (sse.md) on the bytes.
class SSEParser {
  constructor(onEvent) { this.onEvent = onEvent; this.rest = ""; this.data = []; this.type = ""; this.lastEventId = ""; }
  push(text) {
    let all = this.rest + text;
    let hold = "";
    if (all.endsWith("\r")) { hold = "\r"; all = all.slice(0, -1); }  // a CRLF may be split across chunks
    const lines = all.split(/\r\n|\r|\n/);
    this.rest = lines.pop() + hold;
    for (const line of lines) this.line(line);
  }
  line(line) {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.type = value;
    else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
  }
  dispatch() {
    const data = this.data;
    const type = this.type || "message";
    this.data = [];
    this.type = "";
    if (data.length === 0) return;
    this.onEvent({ type, data: data.join("\n"), id: this.lastEventId });
  }
}

function setFeedStatus(text, kind) {
  const status = $("feed-status");
  status.textContent = text;
  status.className = "pill " + (kind || "");
}

async function runFeed() {
  let backoff = 500;
  for (;;) {
    await tokenReady;
    try {
      // The first connection asks for the journal's recent past (Last-Event-ID: 0); later ones resume.
      const headers = adminHeaders({ Accept: "text/event-stream", "Last-Event-ID": String(state.lastId) });
      const reply = await fetch(A + "/events", { headers, cache: "no-store" });
      if (reply.status === 401) { askForToken("The server asks for its admin token."); continue; }
      if (!reply.ok || !reply.body) throw new Error("the feed answered " + reply.status);
      setFeedStatus("live", "ok");
      backoff = 500;
      const parser = new SSEParser(onFeedEvent);
      const reader = reply.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(value);
      }
      setFeedStatus("feed ended; reconnecting…", "warn");
    } catch (error) {
      setFeedStatus("feed lost; reconnecting…", "warn");
    }
    await sleep(backoff);
    backoff = Math.min(backoff * 2, 5000);
  }
}

function onFeedEvent(event) {
  const data = JSON.parse(event.data);
  switch (event.type) {
    case "state":
      state.rules = new Map(data.rules.map((rule) => [rule.id, rule]));
      setOffline(data.offline);
      setSeed(data.seed);
      setSessions(data.sessions);
      renderRules();
      break;
    case "request":
      state.lastId = Math.max(state.lastId, Number(event.id) || data.id);
      addRequest(data);
      break;
    case "rule-added":
    case "rule-fired":
      state.rules.set(data.id, data);
      renderRules();
      break;
    case "rule-removed":
      state.rules.delete(data.id);
      renderRules();
      break;
    case "skipped":
      state.skipped.push({ time: Date.now(), requests: data.requests, errors: data.errors });
      while (state.skipped.length && state.skipped[0].time < Date.now() - 60000) state.skipped.shift();
      break;
    case "offline": setOffline(data); break;
    case "seed": setSeed(data.seed); break;
    case "sessions": setSessions(data.sessions); break;
  }
}

// ---------- traffic ----------
function inScope(entry) { return !state.scope || entry.session === state.scope; }
function isError(status) { return status === 0 || status >= 400; }

function passesFilters(entry) {
  if (!inScope(entry)) return false;
  const path = $("filter-path").value.trim();
  if (path && !globMatch(path, entry.path)) return false;
  const status = $("filter-status").value;
  if (status === "error") return isError(entry.status);
  if (status === "0") return entry.status === 0;
  if (status) return String(entry.status).startsWith(status) && entry.status >= 100;
  return true;
}

function globMatch(pattern, text) {
  if (!/[*?]/.test(pattern)) return text.includes(pattern);
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp("^" + source + "$").test(text);
}

function addRequest(entry) {
  state.rows.push(entry);
  if (state.rows.length > MAX_ROWS) state.rows.shift();
  if (!passesFilters(entry)) return;
  if (state.paused) {
    state.missed += 1;
    $("pause").textContent = `Resume (${state.missed} new)`;
    return;
  }
  const body = $("requests").tBodies[0];
  body.prepend(requestRow(entry));
  while (body.rows.length > MAX_ROWS) body.deleteRow(-1);
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function requestRow(entry) {
  const row = document.createElement("tr");
  row.className = "entry";
  row.tabIndex = 0;
  row.dataset.id = entry.id;
  row.dataset.status = entry.status;
  row.setAttribute("aria-expanded", "false");
  cell(row, entry.time.slice(11, 19)).title = entry.time;
  cell(row, entry.method);
  const path = cell(row, entry.path + (entry.query ? "?" + entry.query : ""), "path");
  path.title = path.textContent;
  cell(row, entry.status === 0 ? "—" : entry.status, "status s" + String(entry.status)[0]);
  cell(row, entry.fault || "", "fault");
  cell(row, entry.durationMs == null ? "" : Math.round(entry.durationMs));
  cell(row, entry.session || "");
  const toggle = () => {
    const next = row.nextElementSibling;
    if (next && next.classList.contains("detail")) {
      next.remove();
      row.setAttribute("aria-expanded", "false");
      return;
    }
    const detail = document.createElement("tr");
    detail.className = "detail";
    const td = detail.insertCell();
    td.colSpan = 7;
    const pre = document.createElement("pre");
    pre.textContent = JSON.stringify(entry, null, 2);
    td.append(pre);
    row.after(detail);
    row.setAttribute("aria-expanded", "true");
  };
  row.addEventListener("click", toggle);
  row.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
  });
  return row;
}

function renderRequests() {
  const body = $("requests").tBodies[0];
  body.replaceChildren(...state.rows.filter(passesFilters).reverse().map(requestRow));
}

$("filter-path").addEventListener("input", renderRequests);
$("filter-status").addEventListener("change", renderRequests);
$("clear-view").addEventListener("click", () => { state.rows = []; renderRequests(); });
$("pause").addEventListener("click", () => {
  state.paused = !state.paused;
  state.missed = 0;
  $("pause").setAttribute("aria-pressed", String(state.paused));
  $("pause").textContent = state.paused ? "Resume" : "Pause";
  if (!state.paused) renderRequests();
});

function drawChart() {
  const canvas = $("chart");
  const width = canvas.clientWidth || 900;
  canvas.width = width * devicePixelRatio;
  canvas.height = 90 * devicePixelRatio;
  const context = canvas.getContext("2d");
  context.scale(devicePixelRatio, devicePixelRatio);
  const now = Math.floor(Date.now() / 1000);
  const counts = new Array(60).fill(0);
  const errors = new Array(60).fill(0);
  for (const entry of state.rows) {
    if (!inScope(entry)) continue;
    const age = now - Math.floor(Date.parse(entry.time) / 1000);
    if (age < 0 || age >= 60) continue;
    counts[59 - age] += 1;
    if (isError(entry.status)) errors[59 - age] += 1;
  }
  if (!state.scope) {
    for (const batch of state.skipped) {
      const age = now - Math.floor(batch.time / 1000);
      if (age < 0 || age >= 60) continue;
      counts[59 - age] += batch.requests;
      errors[59 - age] += batch.errors;
    }
  }
  const style = getComputedStyle(document.documentElement);
  const peak = Math.max(5, ...counts);
  const step = width / 60;
  context.clearRect(0, 0, width, 90);
  for (let i = 0; i < 60; i++) {
    const ok = counts[i] - errors[i];
    context.fillStyle = style.getPropertyValue("--ok");
    context.fillRect(i * step + 1, 88 - (ok / peak) * 80, step - 2, (ok / peak) * 80);
    context.fillStyle = style.getPropertyValue("--bad");
    context.fillRect(i * step + 1, 88 - (counts[i] / peak) * 80, step - 2, (errors[i] / peak) * 80);
  }
  context.fillStyle = style.getPropertyValue("--muted");
  context.font = "11px system-ui";
  context.fillText(`peak ${peak}/s · last 60 s`, 6, 12);
  const total = counts.reduce((a, b) => a + b, 0);
  const failed = errors.reduce((a, b) => a + b, 0);
  const recent = counts.slice(-5).reduce((a, b) => a + b, 0) / 5;
  $("rates").textContent = `${recent.toFixed(1)} req/s · ${total ? Math.round((100 * failed) / total) : 0}% errors (last minute)`;
}

// ---------- switchboard ----------
const SWITCHES = [
  { label: "Latency", spec: () => `delay=${$("latency").value}ms`, same: (fault) => fault.startsWith("delay=") },
  { label: "401 expire-token", spec: () => "expire-token" },
  { label: "429 rate-limit", spec: () => "rate-limit=3/10s" },
  { label: "500", spec: () => "status=500" },
  { label: "503 + Retry-After", spec: () => "status=503; retry-after=2" },
  { label: "Truncate", spec: () => "truncate=50%" },
  { label: "Reset", spec: () => "reset" },
  { label: "Hang", spec: () => "hang" },
  { label: "Malformed", spec: () => "malformed" },
  { label: "Stream drop", spec: () => "drop-after=3" },
  { label: "Stream stall", spec: () => "stall-after=2" },
  { label: "Stream cut", spec: () => "cut-mid-event=2" },
];

function switchRules(entry) {
  const group = $("group").value;
  const session = state.scope || null;
  const same = entry.same || ((fault) => fault === entry.spec());
  return [...state.rules.values()].filter((rule) =>
    rule.match.path === group && !rule.match.method && (rule.session || null) === session && same(rule.fault));
}

function renderSwitches() {
  for (const button of $("switches").children) {
    const entry = SWITCHES[Number(button.dataset.index)];
    const rules = switchRules(entry);
    const on = rules.length > 0;
    button.setAttribute("aria-pressed", String(on));
    const fired = rules.reduce((sum, rule) => sum + rule.fired, 0);
    const left = rules.map((rule) => rule.remaining).filter((value) => value != null);
    button.querySelector(".count").textContent = on
      ? ` · fired ${fired}${left.length ? ` · left ${left.reduce((a, b) => a + b, 0)}` : ""}` : "";
  }
}

function ruleBody(fault) {
  const body = { match: { path: $("group").value }, fault };
  const times = $("times").value.trim();
  if (times) body.times = Number(times);
  const probability = Number($("probability").value);
  if ($("probability").value !== "" && probability !== 1) body.probability = probability;
  if (state.scope) body.session = state.scope;
  return body;
}

async function addRule(fault) {
  const reply = await admin("POST", "/faults", ruleBody(fault));
  $("spec-error").textContent = reply.ok ? "" : (reply.json && reply.json.message) || reply.text;
  if (reply.ok) { state.rules.set(reply.json.id, reply.json); renderRules(); }
  return reply.ok;
}

async function removeRule(id) {
  const reply = await admin("DELETE", "/faults/" + encodeURIComponent(id));
  if (reply.ok || reply.status === 404) { state.rules.delete(id); renderRules(); }
}

function buildSwitches() {
  SWITCHES.forEach((entry, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.index = index;
    button.dataset.fault = entry.spec();
    button.setAttribute("aria-pressed", "false");
    const label = document.createElement("span");
    label.textContent = entry.label;
    const count = document.createElement("span");
    count.className = "count";
    button.append(label, count);
    button.addEventListener("click", async () => {
      const rules = switchRules(entry);
      if (rules.length) {
        for (const rule of rules) await removeRule(rule.id);
      } else {
        await addRule(entry.spec());
      }
    });
    $("switches").append(button);
  });
}

function renderRules() {
  const list = $("rules");
  const rules = [...state.rules.values()].filter((rule) => !state.scope || rule.session === state.scope || !rule.session);
  list.replaceChildren(...rules.map((rule) => {
    const item = document.createElement("li");
    item.dataset.rule = rule.id;
    const text = document.createElement("span");
    text.className = "grow";
    const where = [rule.match.method, rule.match.path].filter(Boolean).join(" ") || "every request";
    text.textContent = `${rule.id}: ${where} → ${rule.fault}${rule.session ? ` (session ${rule.session})` : ""}`;
    const counters = document.createElement("span");
    counters.className = "stat counters";
    counters.textContent = `fired ${rule.fired}` + (rule.remaining == null ? "" : ` · remaining ${rule.remaining}`)
      + (rule.probability !== 1 ? ` · p=${rule.probability}` : "");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove ${rule.id}`);
    remove.addEventListener("click", () => removeRule(rule.id));
    item.append(text, counters, remove);
    return item;
  }));
  if (!rules.length) {
    const item = document.createElement("li");
    item.textContent = "No rules: every request is answered normally.";
    list.append(item);
  }
  renderSwitches();
}

$("group").addEventListener("change", renderSwitches);
$("latency").addEventListener("input", () => { $("latency-value").textContent = $("latency").value + " ms"; });
$("spec-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const spec = $("spec").value.trim();
  if (!spec) return;
  if (await addRule(spec)) $("spec").value = "";
});

// ---------- scenarios, offline, seed, reset ----------
async function loadScenarios() {
  const reply = await admin("GET", "/scenarios");
  if (!reply.ok) return;
  $("scenario-list").replaceChildren(...reply.json.scenarios.map((scenario) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = scenario.name;
    button.title = scenario.description;
    button.dataset.scenario = scenario.name;
    button.addEventListener("click", async () => {
      const body = { name: scenario.name };
      if (state.scope) body.session = state.scope;
      const result = await admin("POST", "/scenarios", body);
      $("scenario-result").textContent = result.ok
        ? `Loaded ${scenario.name}: ${result.json.rules.length} rule(s). ${scenario.description}`
        : (result.json && result.json.message) || result.text;
    });
    return button;
  }));
}

function setOffline(offline) {
  state.offlineUntil = offline.active ? Date.now() + offline.secondsLeft * 1000 : 0;
  tickOffline();
}

function tickOffline() {
  const left = state.offlineUntil - Date.now();
  const output = $("offline-countdown");
  if (left > 0) {
    output.textContent = `offline · ${(left / 1000).toFixed(1)} s left`;
    output.className = "pill bad";
  } else {
    output.textContent = "online";
    output.className = "pill ok";
  }
}

$("offline-go").addEventListener("click", async () => {
  const seconds = Number($("offline-seconds").value);
  const reply = await admin("POST", "/offline", { seconds });
  if (reply.ok) setOffline({ active: true, secondsLeft: seconds });
  else $("scenario-result").textContent = (reply.json && reply.json.message) || reply.text;
});

function setSeed(seed) {
  if (document.activeElement !== $("seed")) $("seed").value = seed;
}

$("seed-go").addEventListener("click", async () => {
  const reply = await admin("PUT", "/seed", { seed: Number($("seed").value) });
  $("scenario-result").textContent = reply.ok ? `Seed ${reply.json.seed}` : (reply.json && reply.json.message) || reply.text;
});

$("reset").addEventListener("click", async () => {
  const reply = await admin("POST", "/reset");
  if (reply.ok) {
    state.rules.clear();
    state.rows = [];
    renderRules();
    renderRequests();
    $("scenario-result").textContent = "Rules, sessions and the journal are cleared.";
  }
});

// ---------- sessions ----------
function setSessions(sessions) {
  state.sessions = sessions;
  const select = $("scope");
  const current = state.scope;
  select.replaceChildren(new Option("all traffic", ""), ...sessions.map((session) => new Option(session.id, session.id)));
  select.value = sessions.some((session) => session.id === current) ? current : "";
  if (select.value !== current) setScope(select.value);
  $("session-list").replaceChildren(...sessions.map((session) => {
    const item = document.createElement("li");
    const text = document.createElement("span");
    text.className = "grow";
    text.textContent = `${session.id} (seed ${session.seed})`;
    const scope = document.createElement("button");
    scope.type = "button";
    scope.textContent = state.scope === session.id ? "Scoped" : "Scope";
    scope.setAttribute("aria-pressed", String(state.scope === session.id));
    scope.setAttribute("aria-label", `Scope every panel to ${session.id}`);
    scope.addEventListener("click", () => setScope(state.scope === session.id ? "" : session.id));
    const end = document.createElement("button");
    end.type = "button";
    end.textContent = "End";
    end.setAttribute("aria-label", `End session ${session.id}`);
    end.addEventListener("click", () => admin("DELETE", "/sessions/" + encodeURIComponent(session.id)));
    item.append(text, scope, end);
    return item;
  }));
}

function setScope(scope) {
  state.scope = scope;
  $("scope").value = scope;
  renderRequests();
  renderRules();
  setSessions(state.sessions);
}

$("scope").addEventListener("change", () => setScope($("scope").value));
$("session-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = $("session-id").value.trim();
  const reply = await admin("POST", "/sessions", id ? { id } : {});
  if (reply.ok) { $("session-id").value = ""; setScope(reply.json.id); }
});

// ---------- the demo client ----------
const client = { skip: 0, limit: 5, accessToken: "", refreshToken: "", busy: false };

function clientLog(text, kind) {
  const item = document.createElement("li");
  item.textContent = `${new Date().toISOString().slice(11, 19)} ${text}`;
  if (kind) item.className = kind;
  const log = $("client-log");
  log.prepend(item);
  while (log.children.length > 60) log.lastChild.remove();
}

function setClientStatus(text, kind) {
  const status = $("client-status");
  status.textContent = text;
  status.className = "pill " + (kind || "");
}

// A client as an app would write it: a 5 s timeout per attempt; 5xx, 429, a dropped connection and a body that is
// not JSON are retried up to 5 attempts; Retry-After is honoured when sent, else exponential backoff.
async function clientFetch(label, url, options = {}) {
  const attempts = 5;
  for (let attempt = 1; ; attempt++) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000);
    const headers = { ...(options.headers || {}) };
    if (state.scope) headers["X-Understudy-Session"] = state.scope;
    let reply = null;
    let problem = "";
    try {
      reply = await fetch(url, { ...options, headers, signal: controller.signal, cache: "no-store" });
      const text = await reply.text();
      if (reply.status < 500 && reply.status !== 429) {
        let json;
        try { json = JSON.parse(text); } catch { throw new Error("a body that is not JSON"); }
        clearTimeout(timer);
        clientLog(`${label}: attempt ${attempt} → ${reply.status}`, reply.ok ? "ok" : "warn");
        return { status: reply.status, json, attempts: attempt };
      }
      problem = String(reply.status);
    } catch (error) {
      problem = error.name === "AbortError" ? "no answer in 5 s" : (error.message || String(error));
    }
    clearTimeout(timer);
    if (attempt >= attempts) {
      clientLog(`${label}: attempt ${attempt} → ${problem}; giving up`, "bad");
      throw new Error(`${problem} after ${attempt} attempts`);
    }
    const retryAfter = reply && /^\d+$/.test(reply.headers.get("Retry-After") || "") ? Number(reply.headers.get("Retry-After")) : null;
    const wait = retryAfter != null ? retryAfter * 1000 : 250 * 2 ** (attempt - 1);
    clientLog(`${label}: attempt ${attempt} → ${problem}; ${retryAfter != null ? `Retry-After: ${retryAfter} honoured` : "backoff"}, retry in ${wait} ms`, "warn");
    setClientStatus(`${label}: retrying, attempt ${attempt + 1} in ${wait} ms`, "warn");
    await sleep(wait);
  }
}

async function loadProducts() {
  if (client.busy) return;
  client.busy = true;
  setClientStatus("loading…");
  try {
    const result = await clientFetch("products", `/products?limit=${client.limit}&skip=${client.skip}&select=title,price`);
    if (result.status !== 200 || !Array.isArray(result.json.products)) throw new Error(`answered ${result.status}`);
    $("products").replaceChildren(...result.json.products.map((product) => {
      const item = document.createElement("li");
      item.textContent = `${product.title} — $${product.price}`;
      return item;
    }));
    $("page").textContent = `page ${client.skip / client.limit + 1} of ${Math.ceil(result.json.total / client.limit)}`;
    setClientStatus(`loaded after ${result.attempts} attempt${result.attempts === 1 ? "" : "s"}`, "ok");
  } catch (error) {
    setClientStatus(`failed: ${error.message}`, "bad");
  } finally {
    client.busy = false;
  }
}

$("load").addEventListener("click", loadProducts);
$("next").addEventListener("click", () => { client.skip += client.limit; loadProducts(); });
$("prev").addEventListener("click", () => { client.skip = Math.max(0, client.skip - client.limit); loadProducts(); });

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const result = await clientFetch("login", "/auth/login", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: $("login-user").value, password: $("login-pass").value, expiresInMins: 30 }),
    });
    if (result.status !== 200) throw new Error(result.json.message || `answered ${result.status}`);
    client.accessToken = result.json.accessToken;
    client.refreshToken = result.json.refreshToken;
    $("login-result").textContent = `logged in as ${result.json.firstName} ${result.json.lastName}`;
  } catch (error) {
    $("login-result").textContent = `login failed: ${error.message}`;
  }
});

// GET /auth/me; a 401 "Token Expired!" refreshes the token once and tries again, as an app's client would.
$("me").addEventListener("click", async () => {
  if (!client.accessToken) { $("login-result").textContent = "log in first"; return; }
  const me = () => clientFetch("me", "/auth/me", { headers: { Authorization: `Bearer ${client.accessToken}` } });
  try {
    let result = await me();
    if (result.status === 401) {
      clientLog(`me: ${result.json.message} → refreshing the token`, "warn");
      const refreshed = await clientFetch("refresh", "/auth/refresh", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refreshToken: client.refreshToken, expiresInMins: 30 }),
      });
      if (refreshed.status !== 200) throw new Error("refresh failed");
      client.accessToken = refreshed.json.accessToken;
      client.refreshToken = refreshed.json.refreshToken;
      result = await me();
    }
    $("login-result").textContent = result.status === 200
      ? `you are ${result.json.username} (${result.json.email})` : `me: ${result.json.message}`;
  } catch (error) {
    $("login-result").textContent = `me failed: ${error.message}`;
  }
});

// The ticker is a plain EventSource, as a web app would use: it reconnects by itself after the stream's retry
// time and sends Last-Event-ID, and the stream resumes after it.
const ticker = { source: null, lastId: 0, reconnects: 0, resumed: "" };

function setTickerStatus() {
  const live = ticker.source && ticker.source.readyState === EventSource.OPEN;
  const text = !ticker.source ? "stopped"
    : `${live ? "live" : "reconnecting"} · last #${ticker.lastId} · ${ticker.reconnects} reconnect${ticker.reconnects === 1 ? "" : "s"}${ticker.resumed}`;
  const status = $("ticker-status");
  status.textContent = text;
  status.className = "pill " + (!ticker.source ? "" : live ? "ok" : "warn");
}

function startTicker() {
  const source = new EventSource("/products/stream?interval=600&retry=800&heartbeat=5000");
  ticker.source = source;
  let dropped = false;
  source.addEventListener("open", setTickerStatus);
  source.addEventListener("product-update", (event) => {
    const id = Number(event.lastEventId);
    if (dropped) {
      ticker.resumed = id === ticker.lastId + 1 ? ` · resumed at #${id}, no gap` : ` · resumed at #${id}, gap after #${ticker.lastId}`;
      clientLog(`ticker: back, ${ticker.resumed.slice(3)}`, "ok");
      dropped = false;
    }
    ticker.lastId = id;
    const data = JSON.parse(event.data);
    const item = document.createElement("li");
    item.className = "fresh";
    item.textContent = `#${id} product ${data.id}: $${data.price} · ${data.note}`;
    $("ticker").prepend(item);
    setTimeout(() => item.classList.remove("fresh"), 400);
    while ($("ticker").children.length > 6) $("ticker").lastChild.remove();
    setTickerStatus();
  });
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) {
      clientLog("ticker: the server said stop", "bad");
    } else {
      ticker.reconnects += 1;
      dropped = true;
      clientLog(`ticker: dropped after #${ticker.lastId}; reconnecting with Last-Event-ID: ${ticker.lastId}`, "warn");
    }
    setTickerStatus();
  });
}

$("ticker-toggle").addEventListener("click", () => {
  if (ticker.source) {
    ticker.source.close();
    ticker.source = null;
  } else {
    ticker.reconnects = 0;
    ticker.resumed = "";
    startTicker();
  }
  $("ticker-toggle").setAttribute("aria-pressed", String(!!ticker.source));
  $("ticker-toggle").textContent = ticker.source ? "Stop ticker" : "Start ticker";
  setTickerStatus();
});

// ---------- stage settings ----------
function applyStage() {
  const root = document.documentElement;
  const large = localStorage.getItem("understudy-large") === "1";
  const dark = (localStorage.getItem("understudy-theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light")) === "dark";
  root.classList.toggle("large", large);
  root.classList.toggle("dark", dark);
  root.classList.toggle("light", !dark);
  $("large").setAttribute("aria-pressed", String(large));
  $("theme").setAttribute("aria-pressed", String(dark));
}
$("large").addEventListener("click", () => {
  localStorage.setItem("understudy-large", document.documentElement.classList.contains("large") ? "0" : "1");
  applyStage();
});
$("theme").addEventListener("click", () => {
  localStorage.setItem("understudy-theme", document.documentElement.classList.contains("dark") ? "light" : "dark");
  applyStage();
});

// ---------- start ----------
async function start() {
  applyStage();
  buildSwitches();
  renderRules();
  tickOffline();
  setInterval(drawChart, 1000);
  setInterval(tickOffline, 100);
  const config = await (await fetch(A + "/control-room.json", { cache: "no-store" })).json();
  state.tokenRequired = config.tokenRequired;
  if (state.tokenRequired && !state.token) askForToken("");
  else loadScenarios();
  runFeed();
}
start();
"""#
}
