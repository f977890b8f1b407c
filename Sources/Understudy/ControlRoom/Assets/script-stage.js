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
