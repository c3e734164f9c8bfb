import type { BatchRow } from '../src/core/batchSummary.ts';
import type { ModeFigures, Overlap } from './summarizeRuns.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const COLORS = ['#888888', '#d95f02', '#1b9e77', '#7570b3', '#e7298a'];

/** The figures a table is compared with: a committed earlier `summary.json` and what it stands for. */
export interface Baseline {
  readonly label: string;
  readonly figures: readonly ModeFigures[];
}

/**
 * The markdown table, one block per dataset, in the manner of SelfPiCo's Table 5. With a baseline,
 * each dataset also gets the before/after rows of the figures that changed definition or value.
 */
export function markdownTable(all: readonly ModeFigures[], overlaps: readonly Overlap[], notes: readonly string[], baseline?: Baseline): string {
  const out: string[] = [];
  for (const dataset of [...new Set(all.map((f) => f.dataset))]) {
    const rows = all.filter((f) => f.dataset === dataset);
    out.push(`### ${dataset} (${rows[0]?.snippets ?? 0} snippets)`, '');
    out.push('| mode | line cov. (one execution) | explored line cov. (kept scenarios) | mean line cov. | branch cov. | explored branch cov. | fully executed | parsed | repaired | injections (concrete) | statuses | errors: snippet / injected / environment | time |');
    out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const f of rows) {
      const statuses = Object.entries(f.statusCounts).sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s} ${n}`).join(', ');
      const lc = f.reps > 1 ? `${pct(f.lineCoverage)} ± ${(f.lineCoverageSd * 100).toFixed(1)} (${f.reps} reps)` : pct(f.lineCoverage);
      out.push(`| ${f.mode} | ${lc} | ${pct(f.exploredLineCoverage ?? f.lineCoverage)} | ${pct(f.meanLineCoverage)} | ${pct(f.branchCoverage)} | ${pct(f.exploredBranchCoverage ?? f.branchCoverage)} | ${pct(f.fullyExecutedRate)} | ${pct(f.parseRate)} | ${pct(f.repairRate)} | ${f.injections} (${pct(f.concreteRate)}) | ${statuses} | ${errorsCell(f)} | ${(f.elapsedMs / 1000).toFixed(1)} s |`);
    }
    for (const f of rows) {
      if (f.promptTokensPerElement !== undefined) out.push('', `${f.mode}: ${f.llmCalls} LLM requests, ${Math.round(f.promptTokensPerElement)} prompt tokens per element asked (o200k_base).`);
    }
    if (baseline) out.push('', ...comparison(rows, baseline));
    const pairs = overlaps.filter((o) => o.dataset === dataset);
    if (pairs.length > 0) {
      out.push('', 'Fully executed by one mode and not the other:', '');
      out.push('| modes A / B | both | only A | only B | neither |', '|---|---|---|---|---|');
      for (const o of pairs) out.push(`| ${o.a} / ${o.b} | ${o.both} | ${o.onlyA} | ${o.onlyB} | ${o.neither} |`);
    }
    out.push('');
  }
  if (notes.length > 0) out.push(...notes.map((n) => `- ${n}`), '');
  return out.join('\n');
}

/** The snippets a not-caught error stopped, by whose fault; `–` for a run from before this was counted. */
function errorsCell(f: ModeFigures): string {
  if (!f.errorsBy) return '–';
  return ['snippet', 'injected', 'environment'].map((k) => f.errorsBy?.[k] ?? 0).join(' / ');
}

/** Before/after rows of one dataset: each figure as the baseline had it, then now, then the change in points. */
function comparison(rows: readonly ModeFigures[], baseline: Baseline): string[] {
  const out = [`Against ${baseline.label}:`, '', '| mode | line cov. before → after | mean line cov. | branch cov. | fully executed | statuses before | errors before: snippet / injected / environment |', '|---|---|---|---|---|---|---|'];
  const change = (a: number, b: number) => `${pct(a)} → ${pct(b)} (${b - a >= 0 ? '+' : '−'}${(Math.abs(b - a) * 100).toFixed(1)})`;
  for (const f of rows) {
    const before = baseline.figures.find((b) => b.dataset === f.dataset && b.mode === f.mode);
    if (!before) {
      out.push(`| ${f.mode} | new | | | | | |`);
      continue;
    }
    const statuses = Object.entries(before.statusCounts).sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s} ${n}`).join(', ');
    const n = before.snippets === f.snippets ? '' : ` (${before.snippets} snippets then)`;
    out.push(`| ${f.mode} | ${change(before.lineCoverage, f.lineCoverage)}${n} | ${change(before.meanLineCoverage, f.meanLineCoverage)} | ${change(before.branchCoverage, f.branchCoverage)} | ${change(before.fullyExecutedRate, f.fullyExecutedRate)} | ${statuses} | ${errorsCell(before)} |`);
  }
  return out;
}

/**
 * An SVG of each dataset's per-snippet line coverage, as one survival curve per mode: the share
 * of parsed snippets with at least x line coverage. A curve further up and right is better.
 */
export function coverageSvg(byDataset: ReadonlyMap<string, ReadonlyMap<string, readonly BatchRow[]>>): string {
  const W = 300;
  const H = 200;
  const pad = 36;
  const panels = [...byDataset.entries()];
  const width = panels.length * (W + pad) + pad;
  const height = H + 2 * pad + 24;
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`, `<rect width="100%" height="100%" fill="white"/>`];
  panels.forEach(([dataset, modes], p) => {
    const x0 = pad + p * (W + pad);
    const y0 = pad;
    parts.push(`<text x="${x0 + W / 2}" y="${y0 - 12}" text-anchor="middle" font-weight="bold">${escape(dataset)}</text>`);
    parts.push(`<rect x="${x0}" y="${y0}" width="${W}" height="${H}" fill="none" stroke="#ccc"/>`);
    for (let t = 0; t <= 4; t++) {
      const gx = x0 + (t / 4) * W;
      const gy = y0 + H - (t / 4) * H;
      parts.push(`<text x="${gx}" y="${y0 + H + 14}" text-anchor="middle">${t * 25}%</text>`, `<text x="${x0 - 4}" y="${gy + 4}" text-anchor="end">${t * 25}%</text>`);
    }
    parts.push(`<text x="${x0 + W / 2}" y="${y0 + H + 28}" text-anchor="middle">line coverage ≥ x</text>`);
    [...modes.entries()].forEach(([mode, rows], m) => {
      const values = rows.filter((r) => r.status !== 'syntax-error').map((r) => r.lineCoverage).sort((a, b) => a - b);
      if (values.length === 0) return;
      const points: string[] = [];
      for (let i = 0; i <= 100; i++) {
        const x = i / 100;
        const share = values.filter((v) => v >= x - 1e-9).length / values.length;
        points.push(`${(x0 + x * W).toFixed(1)},${(y0 + H - share * H).toFixed(1)}`);
      }
      const color = COLORS[m % COLORS.length];
      parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(' ')}"/>`);
      parts.push(`<text x="${x0 + 8}" y="${y0 + 14 + m * 13}" fill="${color}">${escape(mode)}</text>`);
    });
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

function escape(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}
