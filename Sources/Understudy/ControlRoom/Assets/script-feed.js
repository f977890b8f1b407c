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
      refreshRecording();
      refreshTLSFaults();
      refreshSpec();
      refreshContract();
      refreshSockets();
      break;
    case "request":
      state.lastId = Math.max(state.lastId, Number(event.id) || data.id);
      addRequest(data);
      scheduleRecordingRefresh();
      scheduleContractRefresh();
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
