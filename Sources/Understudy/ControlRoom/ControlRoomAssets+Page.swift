/// The control room's HTML. Every control has a label and is reachable with the keyboard; the script
/// (`ControlRoomAssets+Script*.swift`) fills in the rest. No inline script or style: the page's Content-Security-
/// Policy allows neither.
extension ControlRoomAssets {
    static let page = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Understudy control room</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__understudy/control-room.css">
<script type="module" src="/__understudy/control-room.js"></script>
</head>
<body>
<header class="bar">
  <h1>Understudy <span class="sub">control room</span></h1>
  <p id="feed-status" class="pill" role="status" aria-live="polite">connecting…</p>
  <label class="inline">Scope
    <select id="scope" aria-describedby="scope-help"><option value="">all traffic</option></select>
  </label>
  <span id="scope-help" class="visually-hidden">Scopes every panel, and the demo client, to one session</span>
  <button id="large" type="button" aria-pressed="false">Large type</button>
  <button id="theme" type="button" aria-pressed="false">Dark</button>
</header>

<form id="token-form" class="token" hidden>
  <p>This Understudy was started with <code>--admin-token</code>. Enter the token; it is kept in this tab only.</p>
  <label>Admin token <input id="token" type="password" autocomplete="off" required></label>
  <button id="token-go" type="submit">Unlock</button>
  <output id="token-error" role="alert"></output>
</form>

<main class="grid">
<section id="traffic" class="panel wide" aria-labelledby="traffic-h">
  <h2 id="traffic-h">Traffic</h2>
  <div class="row">
    <label>Path <input id="filter-path" type="search" placeholder="/products*"></label>
    <label>Status
      <select id="filter-status">
        <option value="">any</option><option value="2">2xx</option><option value="3">3xx</option>
        <option value="4">4xx</option><option value="5">5xx</option><option value="0">no reply</option>
        <option value="error">errors</option>
      </select>
    </label>
    <button id="pause" type="button" aria-pressed="false">Pause</button>
    <button id="clear-view" type="button">Clear view</button>
    <span id="rates" class="stat" aria-live="off">0 req/s · 0% errors</span>
  </div>
  <canvas id="chart" width="900" height="90" role="img" aria-label="Requests per second and error rate over the last minute"></canvas>
  <div class="scroll">
  <table id="requests">
    <caption class="visually-hidden">Requests as they happen; press Enter on a row to see its journal entry</caption>
    <thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Fault</th><th scope="col">ms</th><th scope="col">Session</th></tr></thead>
    <tbody></tbody>
  </table>
  </div>
</section>

<section id="switchboard" class="panel" aria-labelledby="switchboard-h">
  <h2 id="switchboard-h">Switchboard</h2>
  <div class="row">
    <label>Routes
      <select id="group">
        <option value="/products*">/products*</option>
        <option value="/auth/*">/auth/*</option>
        <option value="/products/stream">/products/stream</option>
      </select>
    </label>
    <label>Times <input id="times" type="number" min="1" step="1" placeholder="∞" inputmode="numeric"></label>
    <label>Probability <input id="probability" type="number" min="0" max="1" step="0.05" value="1"></label>
  </div>
  <div class="row">
    <label>Latency <input id="latency" type="range" min="100" max="3000" step="100" value="800" aria-describedby="latency-value"></label>
    <output id="latency-value">800 ms</output>
  </div>
  <div id="switches" class="switches" role="group" aria-label="Faults for the chosen routes"></div>
  <form id="spec-form" class="row">
    <label class="grow">Fault spec <input id="spec" type="text" placeholder="status=503; retry-after=2" autocomplete="off" spellcheck="false"></label>
    <button type="submit">Add rule</button>
  </form>
  <output id="spec-error" class="error" role="alert"></output>
  <h3>Rules</h3>
  <ul id="rules" class="list" aria-live="polite"></ul>
</section>

<section id="scenarios" class="panel" aria-labelledby="scenarios-h">
  <h2 id="scenarios-h">Scenarios</h2>
  <div id="scenario-list" class="switches" role="group" aria-label="Shipped scenarios"></div>
  <output id="scenario-result" role="status"></output>
  <div class="row">
    <label>Offline for <input id="offline-seconds" type="number" min="1" max="600" value="5"> s</label>
    <button id="offline-go" type="button">Go offline</button>
    <output id="offline-countdown" class="pill" role="timer" aria-live="polite">online</output>
  </div>
  <div class="row">
    <label>Seed <input id="seed" type="number" min="0" step="1"></label>
    <button id="seed-go" type="button">Set seed</button>
    <button id="reset" type="button" class="danger">Reset everything</button>
  </div>
</section>

<section id="sessions" class="panel" aria-labelledby="sessions-h">
  <h2 id="sessions-h">Sessions</h2>
  <form id="session-form" class="row">
    <label>New session <input id="session-id" type="text" placeholder="demo-1" autocomplete="off"></label>
    <button type="submit">Start</button>
  </form>
  <ul id="session-list" class="list"></ul>
</section>

<section id="client" class="panel wide" aria-labelledby="client-h">
  <h2 id="client-h">Demo client <span class="sub">what an app sees</span></h2>
  <div class="client">
    <div>
      <h3>Products</h3>
      <div class="row">
        <button id="load" type="button">Load</button>
        <button id="prev" type="button">Previous page</button>
        <button id="next" type="button">Next page</button>
        <span id="page" class="stat">page 1</span>
      </div>
      <p id="client-status" class="pill" role="status" aria-live="polite">idle</p>
      <ol id="products" class="list"></ol>
    </div>
    <div>
      <h3>Login</h3>
      <form id="login-form" class="row">
        <label>User <input id="login-user" type="text" value="emilys" autocomplete="off"></label>
        <label>Password <input id="login-pass" type="password" value="emilyspass" autocomplete="off"></label>
        <button type="submit">Log in</button>
        <button id="me" type="button">Who am I?</button>
      </form>
      <p id="login-result" role="status" aria-live="polite">not logged in</p>
      <h3>Price ticker</h3>
      <div class="row">
        <button id="ticker-toggle" type="button" aria-pressed="false">Start ticker</button>
        <span id="ticker-status" class="pill" role="status" aria-live="polite">stopped</span>
      </div>
      <ol id="ticker" class="list ticker"></ol>
    </div>
    <div>
      <h3>Retries</h3>
      <ol id="client-log" class="list log" aria-live="polite"></ol>
    </div>
  </div>
</section>
</main>
</body>
</html>
"""#
}
