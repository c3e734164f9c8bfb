import type { RunResult, RunStatus } from '../../core/runResult.ts';
import { coverageHistogram } from './coveragePlot.ts';
import { NO_SHARE, percent, share } from '../percent.ts';
import { html, type Html } from './escapeHtml.ts';
import { INDEX_SCRIPT } from './indexScript.ts';
import { htmlPage } from './page.ts';
import { REPORT_STYLE } from './style.ts';

/** One snippet of a batch, as the index lists it: a few figures, not the whole result. */
export interface BatchIndexRow {
  readonly id: string;
  /** The mode it ran in: the index plots each mode on its own. */
  readonly mode: string;
  readonly status: RunStatus;
  readonly lineCoverage: number;
  readonly branchCoverage: number;
  readonly lines: { readonly covered: number; readonly total: number };
  /** Its branch outcomes (absent in rows an older index.jsonl kept). */
  readonly branches?: { readonly covered: number; readonly total: number };
  readonly fullyExecuted: boolean;
  readonly injections: number;
  readonly errors: number;
  /** The snippet's page, relative to the index (`htmlPageName(id)`); the id is not a link without it. */
  readonly href?: string;
}

export interface BatchIndexOptions {
  /** The page title and heading; the default is "snipexec batch report". */
  readonly title?: string;
}

/** The index row of one result. */
export function indexRowOf(id: string, mode: string, result: RunResult, href?: string): BatchIndexRow {
  return {
    id, mode, status: result.status, lineCoverage: result.lineCoverage, branchCoverage: result.branchCoverage,
    lines: { covered: result.lines.covered, total: result.lines.total }, branches: { covered: result.branches.covered, total: result.branches.total }, fullyExecuted: result.fullyExecuted,
    injections: result.injections.length, errors: result.errors.length, ...(href !== undefined ? { href } : {}),
  };
}

/**
 * A batch's index page, self-contained like the run pages: per mode, the line-coverage figures and
 * a histogram of the snippets' line coverage (inline SVG); then a table of every snippet, linking
 * its page, which sorts by any column and filters by status, mode, line coverage and id.
 * Snippets with `status: "syntax-error"` are left out of the coverage figures, as in the batch summary.
 */
export function renderBatchIndex(rows: readonly BatchIndexRow[], options: BatchIndexOptions = {}): string {
  const title = options.title ?? 'snipexec batch report';
  const modes = [...new Set(rows.map((r) => r.mode))];
  const statuses = [...new Set(rows.map((r) => r.status))].sort();
  const body = html`
<header>
<h1>${title}</h1>
<ul class="facts"><li><b>${rows.length}</b> snippets</li><li>modes: ${modes.join(', ') || '—'}</li>${statuses.map((s) => html`<li>${s}: <b>${rows.filter((r) => r.status === s).length}</b></li>`)}</ul>
</header>
<main>
<h2>Line coverage by mode</h2>
<div class="plots">${modes.map((m) => modePlot(m, rows.filter((r) => r.mode === m)))}</div>
<h2>Snippets</h2>
<form class="filters" id="filters" autocomplete="off">
<label>status <select id="filter-status"><option value="">all</option>${statuses.map((s) => html`<option value="${s}">${s}</option>`)}</select></label>
${modes.length > 1 ? html`<label>mode <select id="filter-mode"><option value="">all</option>${modes.map((m) => html`<option value="${m}">${m}</option>`)}</select></label>` : ''}
<label>line coverage from <input id="filter-min" type="number" min="0" max="100" step="1" value="0"> to <input id="filter-max" type="number" min="0" max="100" step="1" value="100"> %</label>
<label>id <input id="filter-id" type="search"></label>
<span id="shown" class="meta"></span>
</form>
<table id="snippets"><thead><tr>
<th><button type="button" data-key="id">id</button></th>
<th><button type="button" data-key="mode">mode</button></th>
<th><button type="button" data-key="status">status</button></th>
<th class="num"><button type="button" data-key="line" data-numeric="">lines</button></th>
<th class="num"><button type="button" data-key="branch" data-numeric="">branches</button></th>
<th class="num"><button type="button" data-key="injections" data-numeric="">injected</button></th>
<th class="num"><button type="button" data-key="errors" data-numeric="">errors</button></th>
</tr></thead><tbody>
${rows.map(tableRow)}
</tbody></table>
</main>`;
  return htmlPage({ title, body, style: REPORT_STYLE, script: INDEX_SCRIPT });
}

function modePlot(mode: string, rows: readonly BatchIndexRow[]): Html {
  const parsed = rows.filter((r) => r.status !== 'syntax-error');
  const covered = parsed.reduce((s, r) => s + r.lines.covered, 0);
  const total = parsed.reduce((s, r) => s + r.lines.total, 0);
  const mean = parsed.length === 0 ? 0 : parsed.reduce((s, r) => s + r.lineCoverage, 0) / parsed.length;
  const full = rows.filter((r) => r.fullyExecuted).length;
  return html`<figure class="plot" data-mode="${mode}">
<h3>${mode}</h3>
<p class="meta">lines ${covered}/${total} (${share(covered, total)}), mean ${parsed.length === 0 ? NO_SHARE : percent(mean)}, fully executed ${full}/${rows.length}${rows.length > parsed.length ? `; left out: ${rows.length - parsed.length} that did not parse` : ''}</p>
${coverageHistogram(parsed.map((r) => r.lineCoverage), `line coverage of the ${parsed.length} snippets run in mode ${mode}`)}
</figure>`;
}

function tableRow(r: BatchIndexRow): Html {
  const measured = r.status !== 'syntax-error';
  return html`<tr data-id="${r.id}" data-mode="${r.mode}" data-status="${r.status}" data-line="${measured ? r.lineCoverage : ''}" data-branch="${measured ? r.branchCoverage : ''}" data-injections="${r.injections}" data-errors="${r.errors}">
<td>${r.href !== undefined ? html`<a href="${r.href}">${r.id}</a>` : r.id}</td><td>${r.mode}</td><td><span class="status ${r.status}">${r.status}</span></td>
<td class="num">${measured ? `${share(r.lines.covered, r.lines.total)} (${r.lines.covered}/${r.lines.total})` : '—'}</td><td class="num">${measured ? branchShare(r) : '—'}</td>
<td class="num">${r.injections}</td><td class="num">${r.errors}</td></tr>
`;
}

/** A row's branch coverage: `–` when it has no branch. */
function branchShare(r: BatchIndexRow): string {
  return r.branches ? share(r.branches.covered, r.branches.total) : percent(r.branchCoverage);
}
