// ---------- the admin API ----------
function adminHeaders(extra = {}) {
  const headers = { ...extra };
  if (state.token) headers["X-Understudy-Token"] = state.token;
  return headers;
}

// Shows an admin reply in the <output> `id`: `success` when it went through, else the server's message.
function showReply(id, reply, success) {
  const output = $(id);
  output.textContent = reply.ok ? success : (reply.json && reply.json.message) || reply.text;
  output.className = reply.ok ? "stat" : "error";
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

// What the server serves (GET /health's `https`, `spec` and `contract`) is fixed for its life: asked once for every
// panel shown only on such a server, and asked again only after a failure (a token not given yet).
let serverHealth = null;
function serverSays(flag) {
  if (serverHealth === null) {
    serverHealth = admin("GET", "/health").then((reply) => {
      if (reply.ok && reply.json !== null) return reply.json;
      serverHealth = null;
      return {};
    });
  }
  return serverHealth.then((health) => health[flag] === true);
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
