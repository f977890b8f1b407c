// ---------- recording ----------
// Shown only when the server forwards to an upstream or replays a recording (GET /recording says which). The feed
// carries no recording events, so the status is asked for again when the feed (re)connects, after each button, and
// (at most every 500 ms) while requests arrive.
let recordingTimer = 0;

async function refreshRecording() {
  recordingTimer = 0;
  const reply = await admin("GET", "/recording");
  if (reply.ok && reply.json) renderRecording(reply.json);
}

function scheduleRecordingRefresh() {
  if (!state.recording || recordingTimer) return;
  recordingTimer = setTimeout(refreshRecording, 500);
}

// A recording may hold thousands of routes: the list shows the first 200 and says how many more there are.
const MAX_ROUTES = 200;

function routeItems(routes) {
  const items = routes.slice(0, MAX_ROUTES).map((route) => {
    const item = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = route;
    item.append(code);
    return item;
  });
  if (routes.length > MAX_ROUTES) {
    const more = document.createElement("li");
    more.className = "stat";
    more.textContent = `… and ${routes.length - MAX_ROUTES} more`;
    items.push(more);
  }
  return items;
}

function renderRecording(status) {
  const shown = status.upstream !== null || status.replayedRoutes !== null;
  state.recording = shown ? status : null;
  $("recording").hidden = !shown;
  $("requests").classList.toggle("proxied", status.upstream !== null);
  if (!shown) return;
  $("recording-upstream-row").hidden = status.upstream === null;
  $("recording-upstream").textContent = status.upstream || "";
  // Without an upstream there is nothing to record (the server answers 409), so only the replay is shown.
  $("recording-form").hidden = status.upstream === null;
  const toggle = $("recording-toggle");
  toggle.textContent = status.recording ? "Stop recording" : "Start recording";
  toggle.setAttribute("aria-pressed", String(status.recording));
  if (status.recording && document.activeElement !== $("recording-directory")) $("recording-directory").value = status.directory;
  const pending = status.pendingBytes ? ` · ${status.pendingBytes} bytes to write` : "";
  const skipped = status.skipped ? ` · ${status.skipped} skipped` : "";
  $("recording-state").textContent = status.recording
    ? `recording into ${status.directory}${status.redacted ? "" : " (secrets kept)"}${skipped}${pending}`
    : "not recording";
  $("recording-state").className = "pill " + (status.recording ? "bad" : "");
  $("recorded-count").textContent = `(${status.recordedRoutes.length})`;
  $("recorded-routes").replaceChildren(...routeItems(status.recordedRoutes));
  $("replay").hidden = status.replayedRoutes === null;
  if (status.replayedRoutes !== null) {
    $("replayed-count").textContent = `(${status.replayedRoutes.length})`;
    $("replayed-routes").replaceChildren(...routeItems(status.replayedRoutes));
  }
  $("miss-count").textContent = String(status.misses);
  $("recent-misses").replaceChildren(...routeItems([...status.recentMisses].reverse()));
}

$("recording-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const recording = state.recording && state.recording.recording;
  const reply = recording
    ? await admin("DELETE", "/recording")
    : await admin("POST", "/recording", { directory: $("recording-directory").value.trim() });
  showReply("recording-result", reply, "");
  await refreshRecording();
});

$("recording-snapshot").addEventListener("click", async () => {
  const reply = await admin("POST", "/recording/snapshot", { directory: $("recording-directory").value.trim() });
  showReply("recording-result", reply, reply.ok ? `Snapshot: ${reply.json.exchanges} exchange(s) into ${reply.json.directory}` : "");
  await refreshRecording();
});
