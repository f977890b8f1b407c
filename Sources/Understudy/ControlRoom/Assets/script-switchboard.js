// ---------- switchboard ----------
const SWITCHES = [
  { label: "Latency", spec: () => `delay=${$("latency").value}ms`, same: (fault) => fault.startsWith("delay=") },
  { label: "Throttle", spec: () => `profile=${$("throttle").value}`, same: (fault) => fault.startsWith("profile=") },
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
