/// The control room's style sheet: light and dark (the system's choice, or the page's toggle), and a large-type
/// mode for a stage.
extension ControlRoomAssets {
    static let style = #"""
:root { --bg: #f6f7f9; --panel: #fff; --fg: #17191c; --muted: #5b6270; --line: #d9dde3; --accent: #0b63ce;
  --ok: #137333; --warn: #b06000; --bad: #c5221f; --on: #fde9e7; --row: #eef3fb; color-scheme: light;
  font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
@media (prefers-color-scheme: dark) {
  :root:not(.light) { --bg: #111316; --panel: #1b1e23; --fg: #e8eaed; --muted: #9aa0a6; --line: #33373e;
    --accent: #8ab4f8; --ok: #81c995; --warn: #fdd663; --bad: #f28b82; --on: #3c1f1e; --row: #22303f; color-scheme: dark; }
}
:root.dark { --bg: #111316; --panel: #1b1e23; --fg: #e8eaed; --muted: #9aa0a6; --line: #33373e;
  --accent: #8ab4f8; --ok: #81c995; --warn: #fdd663; --bad: #f28b82; --on: #3c1f1e; --row: #22303f; color-scheme: dark; }
:root.large { font-size: 22px; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
h1 { font-size: 1.3em; margin: 0; } h2 { font-size: 1.1em; margin: 0 0 .5em; } h3 { font-size: .95em; margin: .8em 0 .3em; }
.sub { color: var(--muted); font-weight: normal; font-size: .8em; }
.bar { display: flex; flex-wrap: wrap; gap: .8em; align-items: center; padding: .6em 1em; background: var(--panel);
  border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 1; }
.bar h1 { margin-right: auto; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(22em, 1fr)); gap: .8em; padding: .8em; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .8em; min-width: 0; }
.wide { grid-column: 1 / -1; }
.row { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .3em 0; }
.grow { flex: 1; display: flex; gap: .4em; align-items: center; } .grow input { flex: 1; }
label { display: inline-flex; gap: .3em; align-items: center; }
input, select, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
  border-radius: 5px; padding: .25em .5em; }
input[type=number] { width: 5.5em; }
input[type=text], input[type=password], input[type=search] { width: 9em; max-width: 100%; }
#client { overflow-wrap: anywhere; }
button { cursor: pointer; background: var(--panel); }
button:hover { border-color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
button[aria-pressed=true] { background: var(--on); border-color: var(--bad); font-weight: 600; }
button.danger { color: var(--bad); }
.switches { display: flex; flex-wrap: wrap; gap: .4em; margin: .4em 0; }
.pill { display: inline-block; margin: 0; padding: .1em .6em; border-radius: 1em; background: var(--bg);
  border: 1px solid var(--line); font-variant-numeric: tabular-nums; }
.pill.ok { color: var(--ok); } .pill.bad { color: var(--bad); border-color: var(--bad); } .pill.warn { color: var(--warn); }
.stat { color: var(--muted); font-variant-numeric: tabular-nums; }
.error { color: var(--bad); display: block; min-height: 1.2em; white-space: pre-wrap; }
canvas { width: 100%; height: 90px; display: block; border: 1px solid var(--line); border-radius: 5px; margin: .4em 0; }
.scroll { max-height: 22em; overflow-x: hidden; overflow-y: auto; border: 1px solid var(--line); border-radius: 5px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .2em .5em; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { position: sticky; top: 0; background: var(--panel); }
tbody tr.entry { cursor: pointer; } tbody tr.entry:hover, tbody tr.entry:focus { background: var(--row); }
#requests { table-layout: fixed; }
#requests td { overflow: hidden; text-overflow: ellipsis; }
#requests th:nth-child(1) { width: 5.4em; } #requests th:nth-child(2) { width: 5.2em; }
#requests th:nth-child(4) { width: 4.4em; } #requests th:nth-child(5) { width: 8em; }
#requests th:nth-child(6) { width: 3em; } #requests th:nth-child(7) { width: 4.5em; }
#requests th, #requests td { padding: .2em .3em; }
#requests tr.detail td { white-space: normal; }
.s2 { color: var(--ok); } .s3 { color: var(--muted); } .s4 { color: var(--warn); } .s5, .s0 { color: var(--bad); font-weight: 600; }
tr.detail pre { margin: 0; white-space: pre-wrap; font-size: .85em; }
.list { list-style: none; padding: 0; margin: .3em 0; }
.list li { padding: .25em 0; border-bottom: 1px solid var(--line); display: flex; gap: .5em; align-items: center; flex-wrap: wrap; }
.list li .grow { flex: 1; }
.log { max-height: 18em; overflow: auto; font-size: .9em; }
.ticker li.fresh { background: var(--row); }
.client { display: grid; grid-template-columns: repeat(auto-fit, minmax(18em, 1fr)); gap: 1em; }
code { font-size: .9em; }
/* On a laptop or a projector: the switches on the left, the traffic in the middle, the client on the right, so a
   fault, its requests and what the app makes of it are seen side by side. */
@media (min-width: 1100px) {
  .grid { grid-template-columns: minmax(17em, 20em) minmax(0, 1fr) minmax(15em, 19em); align-items: start;
    grid-template-areas: "switch traffic client" "scen traffic client" "sess traffic client"; }
  #switchboard { grid-area: switch; } #scenarios { grid-area: scen; } #sessions { grid-area: sess; }
  #traffic { grid-area: traffic; } #client { grid-area: client; }
  .wide { grid-column: auto; }
  .client { grid-template-columns: 1fr; gap: 0; }
  #traffic .scroll { max-height: calc(100vh - 14em); }
  #traffic table { font-size: .85em; }
}
.token { margin: .8em; padding: .8em; border: 2px solid var(--warn); border-radius: 8px; background: var(--panel); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
"""#
}
