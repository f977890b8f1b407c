/// The control room's script: one ES module, no dependencies. It reads the live feed, drives the admin API, and
/// runs a demo client against the public API so the audience sees what a fault does to an app.
extension ControlRoomAssets {
    /// The whole module: its parts in order, each in `ControlRoomAssets+Script<Part>.swift`.
    static let script = [coreScript, adminScript, feedScript, trafficScript, switchboardScript, stageScript,
                         demoClientScript, startScript].joined(separator: "\n")

    /// The module's constants and shared state.
    static let coreScript = #"""
const A = "/__understudy";
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_ROWS = 500;

const state = {
  token: sessionStorage.getItem("understudy-token") || "",
  tokenRequired: false,
  scope: "",
  rules: new Map(),
  sessions: [],
  rows: [],
  paused: false,
  missed: 0,
  lastId: 0,
  offlineUntil: 0,
  scenarios: [],
  // Requests the feed counted but did not send (a busy server): [{time, requests, errors}], for the chart.
  skipped: [],
};
let tokenReady = Promise.resolve();
let unlock = () => {};

"""#
}
