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
