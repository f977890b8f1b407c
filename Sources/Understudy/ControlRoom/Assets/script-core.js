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
  // GET /recording's last answer, while the server has an upstream or a replay (null otherwise).
  recording: null,
  // Requests the feed counted but did not send (a busy server): [{time, requests, errors}], for the chart.
  skipped: [],
};
let tokenReady = Promise.resolve();
let unlock = () => {};
