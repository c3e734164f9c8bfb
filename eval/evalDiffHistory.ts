// `snipexec diff` on real history: bug-introducing and clean commits of public JavaScript projects
// (eval/diff-history/*.jsonl, format in eval/diff-history/FORMAT.md).
// Usage: node --no-node-snapshot eval/evalDiffHistory.ts [--limit N] [--only ID,ID] [--out DIR] [--repos DIR [--install] | --single-file]
//        node --no-node-snapshot eval/evalDiffHistory.ts --table ROWS.jsonl (the table again from rows written before)
// Each case runs in a checkout of its repository at the base commit (the file changed in the
// working tree), as a user runs `snipexec diff` in their project: bare clones are kept in --repos
// (`<owner>+<name>/repo`, cloned from GitHub when missing). --single-file runs each case in a
// repository holding the changed file alone. --install also gives each checkout the production npm
// dependencies of its package.json (installDependencies.ts: `npm install --omit=dev --ignore-scripts`
// from the npm registry, cached in eval/.deps/<owner>+<name>/<key>/node_modules and hard-linked into the
// checkout), so that the packages the file requires run for real, not as learnt values; an install
// that fails is recorded in the row and the case runs without packages.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { runDiff, type Finding } from '../src/diff/runDiff.ts';
import { loadEnvironments } from '../src/environments/loadEnvironments.ts';
import type { ModuleUse } from '../src/environments/npmModules.ts';
import { snippetNames } from '../src/environments/snippetNames.ts';
import { langsFromFileName, parseSnippet } from '../src/parse/parseSnippet.ts';
import { installDependencies, type InstallOutcome } from './installDependencies.ts';

const DIR = new URL('./diff-history/', import.meta.url).pathname;
/** Where --install keeps the installed dependencies, per repository and dependency set (gitignored). */
export const DEPS_DIR = new URL('./.deps/', import.meta.url).pathname;

/** How a case ran: a repository holding the file alone, a checkout of its repository, or that checkout with its production npm dependencies installed. */
export type HistorySetting = 'single-file' | 'checkout' | 'checkout+install';

export interface HistoryCase {
  readonly id: string;
  readonly repo: string;
  readonly kind: 'buggy' | 'clean';
  readonly change: string;
  /** The commit `before` is the file at. */
  readonly base: string;
  /** The commit `after` is the file at. */
  readonly commit: string;
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
  /** How the case ran (rows written before this field ran in a checkout, or with --single-file). */
  readonly setting?: HistorySetting;
  /** With --install: what npm did. */
  readonly install?: InstallOutcome;
  /** The npm packages and project files the changed file loads, as its run loaded them: bundled, or learnt values and why. */
  readonly modules?: readonly Pick<ModuleUse, 'specifier' | 'version' | 'status' | 'reason'>[];
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

/** The bare clone of a case's repository under `repos` (`<owner>+<name>/repo`), cloned from GitHub when missing. */
export function bareClone(repos: string, repo: string): string {
  const dir = join(repos, repo.replace('/', '+'), 'repo');
  if (!existsSync(dir)) {
    mkdirSync(dirname(dir), { recursive: true });
    execFileSync('git', ['clone', '-q', '--bare', `https://github.com/${repo}.git`, dir], { stdio: 'inherit' });
  }
  return dir;
}

/**
 * One case: its repository checked out at the base commit (`repos` given; the project's other
 * files real) or a fresh repository holding the file alone, `before` committed and `after` in the
 * working tree; then `snipexec diff`.
 */
export async function runHistoryCase(c: HistoryCase, repos?: string, install = false): Promise<HistoryRow> {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-history-'));
  let installed: InstallOutcome | undefined;
  try {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=eval@example.invalid', '-c', 'user.name=eval', ...args], { cwd: dir, stdio: 'ignore' });
    if (repos !== undefined) {
      execFileSync('git', ['clone', '-q', '--shared', '--no-checkout', bareClone(repos, c.repo), dir], { stdio: 'ignore' });
      git('checkout', '-q', c.base);
      // A partial clone may lack some large blobs (a minified build): left out of the tree the diff starts from.
      const missing = execFileSync('git', ['ls-files', '--deleted', '-z'], { cwd: dir, encoding: 'utf8' }).split('\0').filter((f) => f !== '');
      if (missing.length > 0) git('rm', '-q', '--cached', '--', ...missing);
      // The commit's other files as it left them, committed: the changed file's imports are what it was written against.
      const others = execFileSync('git', ['diff', '--name-only', '--diff-filter=d', '-z', c.base, c.commit], { cwd: dir, encoding: 'utf8' }).split('\0').filter((f) => f !== '' && f !== c.file);
      for (const f of others) {
        try {
          git('checkout', c.commit, '--', f);
        } catch {
          // a blob the partial clone lacks: that file stays at the base
        }
      }
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', 'the commit\'s other files');
      if (readFileSync(join(dir, c.file), 'utf8') !== c.before) throw new Error(`${c.id}: ${c.file} at ${c.base} is not the case's before`);
      // After the commit: the linked node_modules is no file of the change.
      if (install) installed = installDependencies(dir, c.repo, DEPS_DIR);
    } else {
      git('init', '-q');
      mkdirSync(dirname(join(dir, c.file)), { recursive: true });
      writeFileSync(join(dir, c.file), c.before);
      git('add', '.');
      git('commit', '-q', '-m', 'before');
    }
    writeFileSync(join(dir, c.file), c.after);
    const report = await runDiff({ cwd: dir, untracked: false, reproductions: true });
    const findings = report.findings.map(({ line, type, message, how, confidence, evidence }) => ({ line, type, message, how, confidence, evidence }));
    const reproductions = report.findings.map((f, i) => replay(dir, c, f, i));
    const atLine = c.expect !== null && findings.some((f) => f.line === c.expect!.line);
    const exact = c.expect !== null && findings.some((f) => f.line === c.expect!.line && f.message === c.expect!.message);
    const setting: HistorySetting = repos === undefined ? 'single-file' : install ? 'checkout+install' : 'checkout';
    return {
      id: c.id, repo: c.repo, kind: c.kind, expect: c.expect, findings, exact, atLine,
      statuses: [...new Set(report.fragments.map((f) => f.status))], runs: report.runs, edges: report.edges, elapsedMs: report.elapsedMs,
      functions: report.fragments.filter((f) => f.kind === 'function').length, reproductions,
      setting, ...(installed ? { install: installed } : {}), modules: await modulesOf(dir, c),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The modules the changed file loads, as its run loaded them: the same environments the session
 * asks for (the file's own `require`s and imports, searched from the checkout). Bundles are cached,
 * so this repeats no bundling the run did.
 */
async function modulesOf(dir: string, c: HistoryCase): Promise<HistoryRow['modules']> {
  let names;
  try {
    names = snippetNames(parseSnippet(c.after, langsFromFileName(c.file)).ast);
  } catch {
    return [];
  }
  const loaded = await loadEnvironments(names, undefined, { cwd: dir, dirs: [], project: { root: dir, file: c.file } });
  return (loaded.modules ?? []).map(({ specifier, version, status, reason }) => ({ specifier, ...(version ? { version } : {}), status, ...(reason ? { reason } : {}) }));
}

export interface HistorySummary {
  readonly buggy: number;
  readonly exact: number;
  /** At the expected line with V8's message up to the quoted values (`setting 'example'` for `setting 'abc'`): the same error on another input. */
  readonly template: number;
  readonly atLine: number;
  readonly anywhere: number;
  readonly clean: number;
  readonly flagged: number;
  readonly medianMsPerFunction: number;
  /** Findings on buggy changes, those with a reproduction, and those whose reproduction fails on the changed file and passes on the base. */
  readonly findings: number;
  readonly reproduced: number;
  readonly replayed: number;
  /** The settings the rows ran in (rows from before the field: `checkout`). */
  readonly settings: readonly HistorySetting[];
  /** With --install: cases whose checkout got its packages, and the cases whose install failed. */
  readonly withPackages: number;
  readonly installFailed: readonly string[];
}

/** V8's message with its quoted values (`'abc'`, `"abc"`) left out: the error's kind, whatever the input. */
function messageTemplate(message: string): string {
  return message.replace(/'[^']*'|"[^"]*"/g, "'…'");
}

function sameTemplate(r: HistoryRow): boolean {
  return r.expect !== null && r.findings.some((f) => f.line === r.expect!.line && messageTemplate(f.message) === messageTemplate(r.expect!.message));
}

export function summarizeHistory(rows: readonly HistoryRow[]): HistorySummary {
  const buggy = rows.filter((r) => r.kind === 'buggy');
  const clean = rows.filter((r) => r.kind === 'clean');
  const perFunction = rows.filter((r) => r.functions > 0).map((r) => r.elapsedMs / r.functions).sort((a, b) => a - b);
  return {
    buggy: buggy.length, exact: buggy.filter((r) => r.exact).length, template: buggy.filter(sameTemplate).length, atLine: buggy.filter((r) => r.atLine).length, anywhere: buggy.filter((r) => r.findings.length > 0).length,
    clean: clean.length, flagged: clean.filter((r) => r.findings.length > 0).length,
    medianMsPerFunction: perFunction.length === 0 ? 0 : perFunction[Math.floor(perFunction.length / 2)]!,
    findings: buggy.reduce((n, r) => n + r.reproductions.length, 0),
    reproduced: buggy.reduce((n, r) => n + r.reproductions.filter((x) => x !== 'none').length, 0),
    replayed: buggy.reduce((n, r) => n + r.reproductions.filter((x) => x !== 'none' && x.failsOnChanged && x.passesOnBase).length, 0),
    settings: [...new Set(rows.map((r) => r.setting ?? 'checkout'))],
    withPackages: rows.filter((r) => r.install?.status === 'installed' || r.install?.status === 'cached').length,
    installFailed: rows.filter((r) => r.install?.status === 'failed').map((r) => r.id),
  };
}

export function historyTable(s: HistorySummary, rows: readonly HistoryRow[]): string {
  const pct = (a: number, b: number) => (b === 0 ? '–' : `${((a / b) * 100).toFixed(1)} %`);
  const lines = [
    '### snipexec diff on real history (eval/diff-history)', '',
    `Setting: ${s.settings.join(', ')}${s.settings.includes('checkout+install') ? ` (production npm dependencies installed in ${s.withPackages} of ${rows.length} checkouts${s.installFailed.length > 0 ? `; the install failed for ${s.installFailed.join(', ')}` : ''})` : ''}.`, '',
    '| measure | value |', '|---|---|',
    `| buggy changes found at the right line with V8's message | ${s.exact} / ${s.buggy} (${pct(s.exact, s.buggy)}) |`,
    `| buggy changes at the right line with V8's message up to its quoted values (the same error on another input) | ${s.template} / ${s.buggy} (${pct(s.template, s.buggy)}) |`,
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
  const { values } = parseArgs({ options: {
    table: { type: 'string' },
    limit: { type: 'string' }, only: { type: 'string' }, out: { type: 'string', default: new URL('./results/diff-history/', import.meta.url).pathname },
    repos: { type: 'string', default: new URL('./.repos/', import.meta.url).pathname }, 'single-file': { type: 'boolean', default: false },
    install: { type: 'boolean', default: false },
  } });
  if (values.table !== undefined) {
    const rows = readFileSync(values.table, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as HistoryRow);
    process.stdout.write(historyTable(summarizeHistory(rows), rows));
  } else {
    await runCases(values);
  }
}

async function runCases(values: { limit?: string; only?: string; out: string; repos: string; 'single-file': boolean; install: boolean }): Promise<void> {
  if (values.install && values['single-file']) throw new Error('--install needs a checkout of each repository: it cannot go with --single-file');
  let cases = readHistoryCases();
  if (values.only) { const ids = new Set(values.only.split(',')); cases = cases.filter((c) => ids.has(c.id)); }
  if (values.limit) cases = cases.slice(0, Number(values.limit));
  mkdirSync(values.out, { recursive: true });
  const rows: HistoryRow[] = [];
  for (const c of cases) {
    const row = await runHistoryCase(c, values['single-file'] ? undefined : values.repos, values.install);
    rows.push(row);
    const mark = row.kind === 'buggy' ? (row.exact ? 'FOUND' : row.atLine ? 'line' : row.findings.length ? 'elsewhere' : 'missed') : row.findings.length ? 'FALSE-ALARM' : 'clean';
    const install = row.install === undefined ? '' : row.install.status === 'failed' ? ` [install failed: ${row.install.error}]` : row.install.status === 'none' ? ` [no install: ${row.install.reason}]` : ` [${row.install.packages} packages, ${row.install.status}]`;
    console.error(`${c.id}: ${mark}${install} ${(row.elapsedMs / 1000).toFixed(1)} s, ${row.runs} runs, ${row.edges} edges${row.findings.length ? ` — ${row.findings.map((f) => `${f.line}: ${f.type}: ${f.message} [${f.how}]`).join('; ')}` : ''}${row.expect ? ` (expected ${row.expect.line}: ${row.expect.message})` : ''}`);
  }
  writeFileSync(join(values.out, 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const table = historyTable(summarizeHistory(rows), rows);
  writeFileSync(join(values.out, 'table.md'), table);
  console.log(table);
}
