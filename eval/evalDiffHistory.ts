// `snipexec diff` on real history: bug-introducing and clean commits of public JavaScript projects
// (eval/diff-history/*.jsonl, format in eval/diff-history/FORMAT.md).
// Usage: node --no-node-snapshot eval/evalDiffHistory.ts [--limit N] [--only ID,ID] [--out DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { runDiff, type Finding } from '../src/diff/runDiff.ts';

const DIR = new URL('./diff-history/', import.meta.url).pathname;

export interface HistoryCase {
  readonly id: string;
  readonly repo: string;
  readonly kind: 'buggy' | 'clean';
  readonly change: string;
  readonly url?: string;
  readonly file: string;
  readonly before: string;
  readonly after: string;
  readonly expect: { readonly line: number; readonly type: string; readonly message: string; readonly function?: string } | null;
  readonly input?: string;
}

export interface HistoryRow {
  readonly id: string;
  readonly repo: string;
  readonly kind: HistoryCase['kind'];
  readonly expect: HistoryCase['expect'];
  readonly findings: readonly Pick<Finding, 'line' | 'type' | 'message' | 'how' | 'confidence' | 'evidence'>[];
  /** A finding at the expected line with V8's message. */
  readonly exact: boolean;
  /** A finding at the expected line. */
  readonly atLine: boolean;
  readonly statuses: readonly string[];
  readonly runs: number;
  readonly edges: number;
  readonly elapsedMs: number;
  /** Changed functions (fragments of kind function). */
  readonly functions: number;
  /** Per finding, its reproduction under plain node: none written, or whether it failed with the error against the changed file and passed against the base. */
  readonly reproductions: readonly Replay[];
}

export type Replay = 'none' | { readonly failsOnChanged: boolean; readonly passesOnBase: boolean };

/** Runs a finding's reproduction (a node:test file) under plain node, against the changed file and against the base version. */
function replay(dir: string, c: HistoryCase, f: Finding, i: number): Replay {
  if (f.reproduction === undefined) return 'none';
  const file = join(dir, `repro-${i}.test.cjs`);
  writeFileSync(file, f.reproduction);
  const baseFile = join(dir, dirname(c.file), `base-${i}${extname(c.file)}`);
  writeFileSync(baseFile, c.before);
  // Outside any test runner: a child that inherits NODE_TEST_CONTEXT reports to it instead of failing.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = (target?: string) => spawnSync(process.execPath, ['--test', file], { cwd: dir, encoding: 'utf8', timeout: 30_000, env: { ...env, ...(target ? { SNIPEXEC_TARGET: target } : {}) } });
  const changed = run();
  const base = run(baseFile);
  return { failsOnChanged: changed.status === 1 && changed.stdout.includes(`${f.type}: ${f.message}`), passesOnBase: base.status === 0 };
}

export function readHistoryCases(dir = DIR): HistoryCase[] {
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().flatMap((f) =>
    readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as HistoryCase));
}

/** One case in a fresh repository: `before` committed, `after` in the working tree, then `snipexec diff`. */
export async function runHistoryCase(c: HistoryCase): Promise<HistoryRow> {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-history-'));
  try {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=eval@example.invalid', '-c', 'user.name=eval', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    mkdirSync(dirname(join(dir, c.file)), { recursive: true });
    writeFileSync(join(dir, c.file), c.before);
    git('add', '.');
    git('commit', '-q', '-m', 'before');
    writeFileSync(join(dir, c.file), c.after);
    const report = await runDiff({ cwd: dir, untracked: false, reproductions: true });
    const findings = report.findings.map(({ line, type, message, how, confidence, evidence }) => ({ line, type, message, how, confidence, evidence }));
    const reproductions = report.findings.map((f, i) => replay(dir, c, f, i));
    const atLine = c.expect !== null && findings.some((f) => f.line === c.expect!.line);
    const exact = c.expect !== null && findings.some((f) => f.line === c.expect!.line && f.message === c.expect!.message);
    return {
      id: c.id, repo: c.repo, kind: c.kind, expect: c.expect, findings, exact, atLine,
      statuses: [...new Set(report.fragments.map((f) => f.status))], runs: report.runs, edges: report.edges, elapsedMs: report.elapsedMs,
      functions: report.fragments.filter((f) => f.kind === 'function').length, reproductions,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HistorySummary {
  readonly buggy: number;
  readonly exact: number;
  readonly atLine: number;
  readonly anywhere: number;
  readonly clean: number;
  readonly flagged: number;
  readonly medianMsPerFunction: number;
  /** Findings on buggy changes, those with a reproduction, and those whose reproduction fails on the changed file and passes on the base. */
  readonly findings: number;
  readonly reproduced: number;
  readonly replayed: number;
}

export function summarizeHistory(rows: readonly HistoryRow[]): HistorySummary {
  const buggy = rows.filter((r) => r.kind === 'buggy');
  const clean = rows.filter((r) => r.kind === 'clean');
  const perFunction = rows.filter((r) => r.functions > 0).map((r) => r.elapsedMs / r.functions).sort((a, b) => a - b);
  return {
    buggy: buggy.length, exact: buggy.filter((r) => r.exact).length, atLine: buggy.filter((r) => r.atLine).length, anywhere: buggy.filter((r) => r.findings.length > 0).length,
    clean: clean.length, flagged: clean.filter((r) => r.findings.length > 0).length,
    medianMsPerFunction: perFunction.length === 0 ? 0 : perFunction[Math.floor(perFunction.length / 2)]!,
    findings: buggy.reduce((n, r) => n + r.reproductions.length, 0),
    reproduced: buggy.reduce((n, r) => n + r.reproductions.filter((x) => x !== 'none').length, 0),
    replayed: buggy.reduce((n, r) => n + r.reproductions.filter((x) => x !== 'none' && x.failsOnChanged && x.passesOnBase).length, 0),
  };
}

export function historyTable(s: HistorySummary, rows: readonly HistoryRow[]): string {
  const pct = (a: number, b: number) => (b === 0 ? '–' : `${((a / b) * 100).toFixed(1)} %`);
  const lines = [
    '### snipexec diff on real history (eval/diff-history)', '',
    '| measure | value |', '|---|---|',
    `| buggy changes found at the right line with V8's message | ${s.exact} / ${s.buggy} (${pct(s.exact, s.buggy)}) |`,
    `| buggy changes with a finding at the right line | ${s.atLine} / ${s.buggy} (${pct(s.atLine, s.buggy)}) |`,
    `| buggy changes with any finding | ${s.anywhere} / ${s.buggy} (${pct(s.anywhere, s.buggy)}) |`,
    `| clean changes flagged (false alarms) | ${s.flagged} / ${s.clean} (${pct(s.flagged, s.clean)}) |`,
    `| median diff time per changed function | ${(s.medianMsPerFunction / 1000).toFixed(2)} s |`,
    `| findings on buggy changes whose reproduction fails with the error under plain node on the changed file and passes on the base | ${s.replayed} / ${s.findings} (${pct(s.replayed, s.findings)}; ${s.reproduced} have a reproduction) |`,
  ];
  const missed = rows.filter((r) => r.kind === 'buggy' && !r.exact);
  if (missed.length > 0) lines.push('', `Missed: ${missed.map((r) => `${r.id}${r.findings.length > 0 ? ` (found ${r.findings.map((f) => `${f.line}: ${f.message}`).join('; ')})` : ''}`).join(', ')}`);
  const flagged = rows.filter((r) => r.kind === 'clean' && r.findings.length > 0);
  if (flagged.length > 0) lines.push('', `Flagged clean: ${flagged.map((r) => `${r.id} (${r.findings.map((f) => `${f.line}: ${f.message}`).join('; ')})`).join(', ')}`);
  return lines.join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { limit: { type: 'string' }, only: { type: 'string' }, out: { type: 'string', default: new URL('./results/diff-history/', import.meta.url).pathname } } });
  let cases = readHistoryCases();
  if (values.only) { const ids = new Set(values.only.split(',')); cases = cases.filter((c) => ids.has(c.id)); }
  if (values.limit) cases = cases.slice(0, Number(values.limit));
  mkdirSync(values.out, { recursive: true });
  const rows: HistoryRow[] = [];
  for (const c of cases) {
    const row = await runHistoryCase(c);
    rows.push(row);
    const mark = row.kind === 'buggy' ? (row.exact ? 'FOUND' : row.atLine ? 'line' : row.findings.length ? 'elsewhere' : 'missed') : row.findings.length ? 'FALSE-ALARM' : 'clean';
    console.error(`${c.id}: ${mark} ${(row.elapsedMs / 1000).toFixed(1)} s, ${row.runs} runs, ${row.edges} edges${row.findings.length ? ` — ${row.findings.map((f) => `${f.line}: ${f.type}: ${f.message} [${f.how}]`).join('; ')}` : ''}${row.expect ? ` (expected ${row.expect.line}: ${row.expect.message})` : ''}`);
  }
  writeFileSync(join(values.out, 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const table = historyTable(summarizeHistory(rows), rows);
  writeFileSync(join(values.out, 'table.md'), table);
  console.log(table);
}
