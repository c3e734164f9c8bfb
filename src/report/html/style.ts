/** The CSS of every report page: the run page and the batch index. */
export const REPORT_STYLE = `
:root { --ok: #1a7f37; --ok-bg: #e6f4ea; --bad: #b42318; --bad-bg: #fdecea; --explored: #8a5a00; --explored-bg: #fff4d6; --threw: #8e24aa; --threw-bg: #f6e8fa; --inj: #0b57d0; --inj-bg: #e8f0fe; --muted: #5f6368; --line: #dadce0; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #202124; background: #fff; }
header { padding: 12px 20px; border-bottom: 1px solid var(--line); background: #f8f9fa; }
header h1 { font-size: 18px; margin: 0 0 4px; }
header a { color: var(--inj); }
.facts { display: flex; flex-wrap: wrap; gap: 4px 18px; color: var(--muted); margin: 0; padding: 0; list-style: none; }
.facts b { color: #202124; }
.status { display: inline-block; padding: 0 8px; border-radius: 10px; font-weight: 600; background: var(--bad-bg); color: var(--bad); }
.status.completed { background: var(--ok-bg); color: var(--ok); }
main { padding: 16px 20px; }
h2 { font-size: 15px; margin: 22px 0 8px; }
pre, code { font: 13px/1.45 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 340px; gap: 16px; align-items: start; }
.source { border: 1px solid var(--line); border-radius: 6px; overflow: hidden; }
.line { display: grid; grid-template-columns: 22px 44px minmax(0, 1fr); align-items: start; border-left: 3px solid transparent; }
.line > * { padding: 0 6px; }
.line .mark { text-align: center; font-weight: 700; }
.line .num { text-align: right; color: var(--muted); user-select: none; }
.line .text { white-space: pre-wrap; overflow-wrap: anywhere; }
.line.covered { background: var(--ok-bg); border-left-color: var(--ok); }
.line.covered .mark { color: var(--ok); }
.line.uncovered { background: var(--bad-bg); border-left-color: var(--bad); }
.line.uncovered .mark { color: var(--bad); }
.line.explored { background: var(--explored-bg); border-left-color: var(--explored); }
.line.explored .mark { color: var(--explored); }
.line.threw { background: var(--threw-bg); border-left-color: var(--threw); }
.line.threw .mark { color: var(--threw); }
.legend { margin: 0 0 8px; display: flex; flex-wrap: wrap; gap: 4px 14px; }
.legend .key .mark { font-weight: 700; }
.legend .key.covered .mark { color: var(--ok); }
.legend .key.explored .mark { color: var(--explored); }
.legend .key.threw .mark { color: var(--threw); }
.legend .key.uncovered .mark { color: var(--bad); }
.line.detailed { cursor: pointer; }
.line.detailed:hover, .line.detailed:focus { outline: 2px solid var(--inj); outline-offset: -2px; }
.line.selected { outline: 2px solid #202124; outline-offset: -2px; }
.chips { grid-column: 3; display: flex; flex-wrap: wrap; gap: 4px; padding-bottom: 2px; }
.chip { font: 12px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; padding: 0 6px; border-radius: 4px; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.chip.injection { background: var(--inj-bg); color: var(--inj); }
.chip.error { background: var(--bad); color: #fff; }
.chip.error.caught { background: #fbbc04; color: #202124; }
.panel { position: sticky; top: 12px; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; background: #fafafa; max-height: calc(100vh - 24px); overflow: auto; }
.panel h3 { margin: 0 0 6px; font-size: 14px; }
.panel .hint { color: var(--muted); margin: 0; }
.detail .entry { margin: 8px 0; padding-top: 6px; border-top: 1px solid var(--line); }
.detail .entry pre { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 4px 6px; margin-top: 4px; }
.meta { color: var(--muted); font-size: 12px; }
.error-text { color: var(--bad); }
.console { background: #202124; color: #e8eaed; border-radius: 6px; padding: 8px 12px; }
.console-listing { display: flex; flex-direction: column; gap: 6px; }
.console-part { margin: 0; padding-left: 10px; border-left: 3px solid var(--explored); }
.console-part figcaption { margin-bottom: 2px; }
.console.scenario { background: #3c4043; }
.empty { color: var(--muted); font-style: italic; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f1f3f4; }
th button { all: unset; cursor: pointer; font-weight: 600; }
th button::after { content: " \\2195"; color: var(--muted); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
details { margin-top: 8px; }
summary { cursor: pointer; color: var(--inj); }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 8px 0; }
.plots { display: flex; flex-wrap: wrap; gap: 20px; }
.plot { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 0; }
.plot h3 { margin: 0 0 4px; font-size: 14px; }
.plot svg text { font: 11px system-ui, sans-serif; fill: #5f6368; }
.bar { fill: var(--inj); }
.bar.full { fill: var(--ok); }
@media (max-width: 900px) { .layout { grid-template-columns: minmax(0, 1fr); } .panel { position: static; } }
`;
