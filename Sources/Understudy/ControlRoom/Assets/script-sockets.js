// ---------- WebSockets (/ws/echo, /ws/feed, /ws/chat) ----------
// The open sockets, asked for every second while the page is shown (a socket reaches the journal only once it has
// closed, so the feed cannot say when one opens): each with its path, session, room and messages, and buttons to
// close it with a code or drop it (no close frame). A message typed here is pushed to every open socket.
const SOCKET_CODES = [1000, 1001, 1011, 1012, 1013, 4000];

async function refreshSockets() {
  if (document.hidden) return;
  const reply = await admin("GET", "/sockets");
  if (reply.ok && reply.json) renderSockets(reply.json.sockets);
}

// Rows are kept by socket id and only their counts change: rebuilt every second, a row would lose the close code a
// presenter just picked (and close an open menu under their hand) before they reach its Close button.
function renderSockets(sockets) {
  $("sockets-empty").hidden = sockets.length > 0;
  const list = $("sockets-list");
  const open = new Set(sockets.map((socket) => socket.id));
  const shown = new Map();
  for (const item of [...list.children]) {
    if (open.has(item.dataset.socket)) shown.set(item.dataset.socket, item);
    else item.remove();
  }
  for (const socket of sockets) {
    const item = shown.get(socket.id);
    if (item) item.querySelector(".stat").textContent = socketCounts(socket);
    else list.append(socketRow(socket));
  }
}

function socketCounts(socket) {
  return `${socket.sent} sent, ${socket.received} received`;
}

function socketRow(socket) {
  const item = document.createElement("li");
  item.className = "row";
  item.dataset.socket = socket.id;
  const name = document.createElement("code");
  name.textContent = `${socket.id} ${socket.path}` + (socket.room ? ` #${socket.room}` : "") +
    (socket.session ? ` (${socket.session})` : "");
  const counts = document.createElement("span");
  counts.className = "stat";
  counts.textContent = socketCounts(socket);
  const code = document.createElement("select");
  code.setAttribute("aria-label", `Close code for ${socket.id}`);
  for (const value of SOCKET_CODES) code.append(new Option(String(value), String(value)));
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Close";
  close.addEventListener("click", () => closeSocket(socket.id, { code: Number(code.value) }));
  const drop = document.createElement("button");
  drop.type = "button";
  drop.textContent = "Drop";
  drop.title = "Reset the connection: no close frame (the client sees 1006)";
  drop.addEventListener("click", () => closeSocket(socket.id, { reset: true }));
  item.append(name, counts, code, close, drop);
  return item;
}

async function closeSocket(id, body) {
  const reply = await admin("POST", `/sockets/${encodeURIComponent(id)}/close`, body);
  showReply("sockets-result", reply, body.reset ? `Dropped ${id}` : `Closed ${id} with ${body.code}`);
  await refreshSockets();
}

$("sockets-send").addEventListener("click", async () => {
  const reply = await admin("POST", "/sockets/send", { text: $("sockets-text").value });
  showReply("sockets-result", reply, reply.ok ? `Sent to ${reply.json.sent} socket(s)` : "");
});

setInterval(refreshSockets, 1000);
