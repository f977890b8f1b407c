// ---------- contract checks (--upstream URL --spec FILE) ----------
// Shown only when the server holds its upstream to a document (GET /health says `"contract": true`, `serverSays`;
// asking /violations of another server would log its 409 in the console). The report is asked for when the feed
// (re)connects and, while shown, after the requests the feed brings (at most every 500 ms): each operation seen with
// what it broke, and the last broken exchanges with each violation and the bytes that broke it.
let contractShown = false;
let contractTimer = 0;

async function refreshContract() {
  contractTimer = 0;
  contractShown = await serverSays("contract");
  $("contract").hidden = !contractShown;
  if (!contractShown) return;
  const reply = await admin("GET", "/violations");
  if (reply.ok && reply.json) renderContract(reply.json);
}

function scheduleContractRefresh() {
  if (contractShown && !contractTimer) contractTimer = setTimeout(refreshContract, 500);
}

function renderContract(report) {
  $("contract-title").textContent = report.document;
  $("contract-counts").textContent = `${report.exchanges} exchanges, ${report.violations} violations, ${report.mocked} mocked`;
  $("contract-counts").className = report.violations > 0 ? "pill bad" : "pill ok";
  $("contract-operations").replaceChildren(...report.operations.map(contractOperation));
  $("contract-recent").replaceChildren(...[...report.recent].reverse().map(contractBroken));
  $("contract-recent-empty").hidden = report.recent.length > 0;
}

function contractOperation(tally) {
  const item = document.createElement("li");
  item.className = "row";
  const name = document.createElement("code");
  name.textContent = `${tally.method} ${tally.path}`;
  const counts = document.createElement("span");
  counts.className = tally.violations > 0 ? "pill bad" : "stat";
  counts.textContent = `${tally.exchanges} seen, ${tally.violations} violations` + (tally.mocked ? `, ${tally.mocked} mocked` : "");
  item.append(name, counts);
  return item;
}

function contractBroken(broken) {
  const item = document.createElement("li");
  const title = document.createElement("code");
  title.textContent = `${new Date(broken.time * 1000).toISOString().slice(11, 23)} ${broken.method} ${broken.target} → ${broken.status}`;
  const violations = document.createElement("ul");
  for (const violation of broken.violations) {
    const line = document.createElement("li");
    line.textContent = `${violation.location.join(".")}${violation.pointer ? "#" + violation.pointer : ""} ` +
      `(${violation.keyword}): ${violation.message}`;
    violations.append(line);
  }
  item.append(title, violations);
  if (broken.body !== null) {
    const bytes = document.createElement("pre");
    bytes.className = "bytes";
    bytes.textContent = broken.body;
    item.append(bytes);
  }
  return item;
}

$("contract-clear").addEventListener("click", async () => {
  const reply = await admin("DELETE", "/violations");
  showReply("contract-result", reply, reply.ok ? `Cleared ${reply.json.deleted} violation(s)` : "");
  await refreshContract();
});
