import type { Injection, ReportedError, RunResult } from '../../core/runResult.ts';
import { describeLlmUsage } from '../formatHuman.ts';
import { sourceLines } from '../sourceLines.ts';
import { share } from '../percent.ts';
import { consoleEntries } from '../consoleEntries.ts';
import { LINE_MARKS, legendStates, resultLineStates } from '../lineMarks.ts';
import type { LineState } from '../../core/lineStates.ts';
import { html, raw, type Html } from './escapeHtml.ts';
import { htmlPage } from './page.ts';
import { RUN_SCRIPT } from './runScript.ts';
import { REPORT_STYLE } from './style.ts';

export interface RunHtmlOptions {
  /** The page title, and its heading; the default is "snipexec report". */
  readonly title?: string;
  /** A link shown above the heading, e.g. back to a batch's index.html (relative to the page). */
  readonly back?: { readonly href: string; readonly label: string };
}

/**
 * One run as a self-contained HTML page (inline CSS and script, no network): the snippet with its
 * covered and uncovered lines marked, the injected values and the errors at the lines that used
 * or raised them (inline, and in a side panel on hover or click), the console output and the
 * definitions. `code` is the snippet as given to runSnippet: the result's line numbers are its lines.
 */
export function renderRunHtml(result: RunResult, code: string, options: RunHtmlOptions = {}): string {
  const title = options.title ?? 'snipexec report';
  const lines = sourceLines(code);
  const injections = byLine(result.injections.filter((i) => i.line !== undefined), (i) => i.line ?? 0);
  const errors = byLine(result.errors.filter((e) => e.line > 0), (e) => e.line);
  const states = resultLineStates(result);
  const body = html`
<header>
${options.back ? html`<a class="back" href="${options.back.href}">${options.back.label}</a>` : ''}
<h1>${title}</h1>
${facts(result)}
</header>
<main>
${legend(states)}
<div class="layout">
<section class="source" aria-label="snippet">
${lines.map((text, i) => sourceLine(states.get(i + 1), i + 1, text, injections.get(i + 1) ?? [], errors.get(i + 1) ?? []))}
</section>
<aside class="panel" id="panel" aria-live="polite">
<p class="hint" id="panel-hint">Hover over or click a marked line to see the values injected there and the errors it raised.</p>
${[...new Set([...injections.keys(), ...errors.keys()])].sort((a, b) => a - b).map((n) => lineDetail(n, injections.get(n) ?? [], errors.get(n) ?? []))}
</aside>
</div>
${errorSection(result.errors)}
<h2 id="console">Console</h2>
${result.stdout === '' ? html`<p class="empty">The snippet printed nothing.</p>` : consoleListing(result)}
${driveSection(result)}
${definitionSection(result)}
</main>`;
  return htmlPage({ title, body, style: REPORT_STYLE, script: RUN_SCRIPT });
}

function facts(r: RunResult): Html {
  const items: Html[] = [
    html`<li><span class="status ${r.status}">${r.status}</span></li>`,
    html`<li>lines <b>${r.lines.covered}/${r.lines.total}</b> (${share(r.lines.covered, r.lines.total)})</li>`,
    html`<li>branches <b>${r.branches.covered}/${r.branches.total}</b> (${share(r.branches.covered, r.branches.total)})</li>`,
    html`<li>runs <b>${r.runs}</b></li>`,
    html`<li>${r.elapsedMs} ms</li>`,
  ];
  if (r.lang) items.push(html`<li>${r.lang}</li>`);
  if (r.degraded) items.push(html`<li class="error-text">degraded: ${r.degraded}</li>`);
  if (r.explored && r.explored.scenarios > 1) items.push(html`<li>explored: ${r.explored.scenarios} scenarios, lines ${r.explored.lines.covered}/${r.explored.lines.total} (${share(r.explored.lines.covered, r.explored.lines.total)})</li>`);
  if (r.repairs && r.repairs.length > 0) items.push(html`<li>repaired: ${r.repairs.join(', ')}</li>`);
  if (r.environments && r.environments.loaded.length > 0) items.push(html`<li>environments: ${r.environments.loaded.join(', ')}</li>`);
  for (const f of r.environments?.failed ?? []) items.push(html`<li class="error-text">environment ${f.name} could not be loaded: ${f.message}</li>`);
  for (const m of r.modules ?? []) items.push(html`<li>module ${m.specifier}: ${m.provider === 'module' ? 'installed, run for real' : `${m.status}, its values synthesized`}</li>`);
  const llm = describeLlmUsage(r.llmCalls);
  if (llm !== '') items.push(html`<li>${llm}</li>`);
  return html`<ul class="facts">${items}</ul>`;
}

/** The marks' legend above the source: the states its lines are in. */
function legend(states: ReadonlyMap<number, LineState>): Html {
  return html`<p class="legend meta">${legendStates(states).map((s) => html`<span class="key ${s}"><span class="mark">${LINE_MARKS[s].mark}</span> ${LINE_MARKS[s].label}</span> `)}</p>`;
}

/** A line of the snippet, its class its state (core/lineStates.ts), `unmeasured` when no statement decides it. */
function sourceLine(state: LineState | undefined, n: number, text: string, injections: readonly Injection[], errors: readonly ReportedError[]): Html {
  const mark = state === undefined ? '' : LINE_MARKS[state].mark;
  const label = state === undefined ? '' : LINE_MARKS[state].label;
  const detailed = injections.length + errors.length > 0;
  const chips = detailed ? html`<div class="chips">${injections.map(injectionChip)}${errors.map(errorChip)}</div>` : '';
  return html`<div class="line ${state ?? 'unmeasured'}${detailed ? ' detailed' : ''}" id="L${n}" data-line="${n}"${detailed ? raw(' tabindex="0"') : ''}><span class="mark" title="${label}" data-state="${state ?? ''}">${mark}</span><span class="num">${n}</span><code class="text">${text}</code>${chips}</div>
`;
}

function injectionChip(i: Injection): Html {
  return html`<span class="chip injection" title="${i.source}">${i.element} = ${preview(i)}</span>`;
}

function errorChip(e: ReportedError): Html {
  return html`<span class="chip error${e.caught ? ' caught' : ''}" title="${e.message}">${e.type}: ${e.message}</span>`;
}

/** The panel's details of one line: each value injected there in full, then each error it raised. */
function lineDetail(n: number, injections: readonly Injection[], errors: readonly ReportedError[]): Html {
  return html`<section class="detail" data-line="${n}" hidden>
<h3>Line ${n}</h3>
${injections.map((i) => html`<div class="entry injected"><code>${i.element}</code> <span class="meta">${i.kind}, ${i.category}, from ${i.provider}, ${i.attempts} attempt(s)</span><pre>${i.source}</pre></div>`)}
${errors.map((e) => html`<div class="entry error"><span class="error-text">${e.type}: ${e.message}</span> <span class="meta">${errorMeta(e)}</span></div>`)}
</section>
`;
}

function errorSection(errors: readonly ReportedError[]): Html {
  if (errors.length === 0) return html`<h2 id="errors">Errors</h2><p class="empty">No errors.</p>`;
  return html`<h2 id="errors">Errors</h2>
<table><thead><tr><th>where</th><th>error</th><th>whose</th></tr></thead><tbody>
${errors.map((e) => html`<tr><td>${e.line > 0 ? html`<a href="#L${e.line}">${e.line}:${e.column}</a>` : '—'}</td><td class="error-text">${e.type}: ${e.message}</td><td class="meta">${errorMeta(e)}</td></tr>`)}
</tbody></table>`;
}

/** The console: the program's own output, and each part snipexec's scenario printed, labelled (consoleEntries.ts). */
function consoleListing(r: RunResult): Html {
  return html`<div class="console-listing">${consoleEntries(r).map((e) => e.by === 'program'
    ? html`<pre class="console program">${e.text}</pre>`
    : html`<figure class="console-part scenario" data-by="${e.by}"><figcaption class="meta">${e.label ?? ''}</figcaption><pre class="console scenario">${e.text}</pre></figure>`)}</div>`;
}

function driveSection(r: RunResult): Html | string {
  if (!r.drives || r.drives.length === 0) return '';
  return html`<h2 id="drives">Called by drive</h2>
<p class="meta">Defined, never called by the snippet: snipexec called them (--no-drive runs the code as written).</p>
<table><tbody>${r.drives.map((d) => html`<tr><td><a href="#L${d.line}">${d.line}</a></td><td><code>${d.target}(${d.args.join(', ')})</code></td><td>${d.outcome === 'threw' && d.error ? html`<span class="error-text">threw ${d.error.type}: ${d.error.message}</span>` : d.outcome}</td></tr>`)}</tbody></table>`;
}

function definitionSection(r: RunResult): Html {
  const rows = r.injections.map((i) => html`<tr><td><code>${i.element}</code></td><td>${i.line !== undefined ? html`<a href="#L${i.line}">${i.line}</a>` : '—'}</td><td>${i.category}</td><td class="meta">${i.provider}, ${i.attempts} attempt(s)</td><td><pre>${i.source}</pre></td></tr>`);
  return html`<h2 id="definitions">Injected definitions</h2>
${rows.length === 0 ? html`<p class="empty">Nothing was injected.</p>` : html`<table><thead><tr><th>element</th><th>line</th><th>category</th><th>from</th><th>definition</th></tr></thead><tbody>${rows}</tbody></table>`}
${r.types ? html`<details><summary>TypeScript declarations</summary><pre>${r.types}</pre></details>` : ''}
${r.program ? html`<details><summary>Completed program (definitions, then the snippet)</summary><pre>${r.program}</pre></details>` : ''}`;
}

function errorMeta(e: ReportedError): string {
  return [e.attribution, e.culprit ? `caused by ${e.culprit}` : '', e.caught ? 'caught by the snippet' : '', e.drive ? `in drive's call of ${e.drive}` : ''].filter(Boolean).join(', ');
}

/** A short form of an injected definition for its chip: `var x = VALUE;` gives VALUE; anything longer, its first line, cut. */
function preview(i: Injection): string {
  const text = /^(?:var|let|const)\s+[\w$]+\s*=\s*(.*?);?$/s.exec(i.source.trim())?.[1] ?? i.source.trim();
  const first = text.split('\n')[0] ?? '';
  return first.length > 48 || first !== text ? `${first.slice(0, 47)}…` : first;
}

function byLine<T>(items: readonly T[], lineOf: (item: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const item of items) {
    const n = lineOf(item);
    map.set(n, [...(map.get(n) ?? []), item]);
  }
  return map;
}
