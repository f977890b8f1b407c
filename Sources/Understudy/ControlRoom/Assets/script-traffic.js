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
  upstreamCell(row, entry.upstream);
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
    td.colSpan = 8;
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

// A forwarded request's upstream: its status and time, or why it gave none (the column shows with an upstream).
function upstreamCell(row, upstream) {
  const td = cell(row, "", "upstream");
  if (!upstream) return;
  const time = upstream.ms == null ? "" : ` · ${Math.round(upstream.ms)} ms`;
  td.textContent = upstream.failure ? (upstream.status ? `${upstream.status} · failed` : "failed") : upstream.status + time;
  td.classList.add(upstream.failure ? "s0" : "s" + String(upstream.status)[0]);
  td.title = upstream.failure ? `upstream: ${upstream.failure}` : `upstream answered ${upstream.status} in ${upstream.ms} ms`;
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
