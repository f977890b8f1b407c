// ---------- a served OpenAPI document ----------
// Shown only when the server serves one (GET /health says `"spec": true`, `serverSays`; asking /spec of another
// server would log its 409 in the console). Each operation gets a status (its documented codes; a range or
// `default` as a code in it) and an example to force, through PUT /spec/operations/{id}; a forced one shows what it
// is and can be cleared.
async function refreshSpec() {
  const shown = await serverSays("spec");
  $("openapi").hidden = !shown;
  if (!shown) return;
  const reply = await admin("GET", "/spec");
  if (reply.ok && reply.json) renderSpec(reply.json);
}

// A documented response's code as a status to force: `4XX` is 400, `default` 500.
function specStatus(code) {
  if (/^[1-5][0-9][0-9]$/.test(code)) return Number(code);
  if (/^[1-5]XX$/i.test(code)) return Number(code[0]) * 100;
  return code === "default" ? 500 : null;
}

function specOption(value, text) {
  const option = document.createElement("option");
  option.value = value;
  option.textContent = text;
  return option;
}

function specOperation(operation) {
  const item = document.createElement("li");
  item.className = "row";
  item.dataset.operation = operation.id;
  const name = document.createElement("code");
  name.textContent = `${operation.method} ${operation.path}`;
  const summary = document.createElement("span");
  summary.className = "stat";
  summary.textContent = operation.summary || operation.id;
  const status = document.createElement("select");
  status.setAttribute("aria-label", `Status for ${operation.id}`);
  status.append(specOption("", "status: as documented"));
  for (const response of operation.responses) {
    const code = specStatus(response.code);
    if (code !== null) status.append(specOption(String(code), `${code}${response.code === String(code) ? "" : " (" + response.code + ")"}`));
  }
  const example = document.createElement("select");
  example.setAttribute("aria-label", `Example for ${operation.id}`);
  example.append(specOption("", "example: the first"));
  for (const name of new Set(operation.responses.flatMap((response) => response.examples))) example.append(specOption(name, name));
  example.hidden = example.options.length === 1;
  const force = document.createElement("button");
  force.type = "button";
  force.textContent = "Force";
  force.addEventListener("click", async () => {
    const body = { code: status.value ? Number(status.value) : null, example: example.value || null };
    const reply = await admin("PUT", "/spec/operations/" + encodeURIComponent(operation.id), body);
    showReply("openapi-result", reply, `${operation.id}: ${describePreference(reply.json && reply.json.preference)}`);
    await refreshSpec();
  });
  item.append(name, summary, status, example, force);
  if (operation.preference) {
    const forced = document.createElement("span");
    forced.className = "pill";
    forced.textContent = describePreference(operation.preference);
    const clear = document.createElement("button");
    clear.type = "button";
    clear.textContent = "Clear";
    clear.addEventListener("click", async () => {
      const reply = await admin("DELETE", "/spec/operations/" + encodeURIComponent(operation.id));
      showReply("openapi-result", reply, `${operation.id}: as documented`);
      await refreshSpec();
    });
    item.append(forced, clear);
  }
  return item;
}

function describePreference(preference) {
  if (!preference) return "as documented";
  const parts = [];
  if (preference.code !== null) parts.push(`status ${preference.code}`);
  if (preference.example !== null) parts.push(`example ${preference.example}`);
  if (preference.dynamic !== null) parts.push(preference.dynamic ? "generated" : "examples");
  if (preference.seed !== null) parts.push(`seed ${preference.seed}`);
  return "forced " + parts.join(", ");
}

function renderSpec(served) {
  $("openapi-title").textContent = `${served.title} (OpenAPI ${served.version}, ${served.operations.length} operations)`;
  $("openapi-operations").replaceChildren(...served.operations.map(specOperation));
}

$("openapi-reset").addEventListener("click", async () => {
  const reply = await admin("DELETE", "/spec/state");
  showReply("openapi-result", reply, "Stored data cleared: the document's own again");
});
