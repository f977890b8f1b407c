// ---------- TLS faults ----------
// Shown only when the server serves HTTPS (GET /health says `"https": true`; asking /tls-faults of a plain server
// would log its 409 in the console). A handshake that fails on purpose never becomes a request, so the feed says
// nothing of it: the list is asked for again when the feed (re)connects, after each button, and every 2 s while
// the panel is shown.
let tlsTimer = 0;

async function refreshTLSFaults() {
  const reply = tlsTimer || await serverSays("https") ? await admin("GET", "/tls-faults") : null;
  const shown = reply !== null && reply.ok && reply.json !== null;
  $("tls").hidden = !shown;
  if (shown) renderTLSFaults(reply.json);
  if (shown && !tlsTimer) tlsTimer = setInterval(refreshTLSFaults, 2000);
  if (!shown && tlsTimer) { clearInterval(tlsTimer); tlsTimer = 0; }
}

function tlsItem(text) {
  const item = document.createElement("li");
  const code = document.createElement("code");
  code.textContent = text;
  item.append(code);
  return item;
}

function renderTLSFaults(status) {
  // Faults set for an SNI name (by a scenario or the admin API) take every handshake for it until cleared.
  const named = status.byServerName || [];
  $("tls-queued").replaceChildren(...status.tlsFaults.map((fault) => tlsItem(`${fault.fault} × ${fault.remaining}`)),
    ...named.map((fault) => tlsItem(`${fault.fault} for SNI ${fault.serverName}`)));
  $("tls-queued-empty").hidden = status.tlsFaults.length + named.length > 0;
  $("tls-presented-count").textContent = String(status.presented);
  $("tls-presented").replaceChildren(...[...status.recent].reverse().map((presented) =>
    tlsItem(`${presented.time.slice(11, 23)} ${presented.fault}${presented.serverName ? " (SNI " + presented.serverName + ")" : ""}`)));
}

$("tls-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const times = Number($("tls-times").value || "1");
  const reply = await admin("POST", "/tls-faults", { fault: $("tls-fault").value, times });
  showReply("tls-result", reply, reply.ok ? `Queued ${reply.json.fault} for the next ${reply.json.remaining} handshake(s)` : "");
  await refreshTLSFaults();
});

$("tls-clear").addEventListener("click", async () => {
  const reply = await admin("DELETE", "/tls-faults");
  showReply("tls-result", reply, reply.ok ? `Dropped ${reply.json.deleted} queued fault(s)` : "");
  await refreshTLSFaults();
});
