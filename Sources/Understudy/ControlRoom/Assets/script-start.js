// ---------- stage settings ----------
function applyStage() {
  const root = document.documentElement;
  const large = localStorage.getItem("understudy-large") === "1";
  const dark = (localStorage.getItem("understudy-theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light")) === "dark";
  root.classList.toggle("large", large);
  root.classList.toggle("dark", dark);
  root.classList.toggle("light", !dark);
  $("large").setAttribute("aria-pressed", String(large));
  $("theme").setAttribute("aria-pressed", String(dark));
}
$("large").addEventListener("click", () => {
  localStorage.setItem("understudy-large", document.documentElement.classList.contains("large") ? "0" : "1");
  applyStage();
});
$("theme").addEventListener("click", () => {
  localStorage.setItem("understudy-theme", document.documentElement.classList.contains("dark") ? "light" : "dark");
  applyStage();
});

// ---------- start ----------
async function start() {
  applyStage();
  buildSwitches();
  renderRules();
  tickOffline();
  setInterval(drawChart, 1000);
  setInterval(tickOffline, 100);
  const config = await (await fetch(A + "/control-room.json", { cache: "no-store" })).json();
  state.tokenRequired = config.tokenRequired;
  if (state.tokenRequired && !state.token) askForToken("");
  else loadScenarios();
  runFeed();
}
start();