import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import libCoverage from 'istanbul-lib-coverage';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { InvalidOptions } from '../src/core/errors.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { checkThresholds } from '../src/report/coverageThresholds.ts';
import { CoverageCollector, snippetFileName, writeCoverage, type CoverageReport, type CoverageTotals } from '../src/report/istanbulCoverage.ts';

/** Snippets whose lines istanbul must count as snipexec does, each for a reason. */
const SNIPPETS = [
  {
    id: 'so/branches', why: 'injected values, if/else, ternary, logical, switch and a driven function',
    code: 'const r = fetchUser(1);\nif (r.ok) { console.log(r.name.toUpperCase()); } else { console.log("no"); }\nconst xs = [1, 2].map((x) => x > 1 ? x : -x);\nfunction unused(a) {\n  return a || 0;\n}\nswitch (r.kind) { case 1: console.log(1); break; default: console.log(2); }\n',
  },
  { id: 'exit', why: 'process.exit() unwinds statements no counter reached', code: 'function main() {\n  console.log("bye");\n  process.exit(0);\n}\nmain(); console.log("after");\n' },
  { id: 'nested', why: 'a statement that ran inside one that threw on its line does not cover it', code: 'let seen;\n[1].forEach((v) => { seen = v; }), null.x;\nconsole.log(seen);\n' },
  { id: 'typed.ts', lang: 'ts', why: 'TypeScript: types take lines that are not measured', code: 'interface U { name: string }\nconst u: U = loadUser();\nif (u.name.length > 3) {\n  console.log(u.name);\n}\n' },
  { id: 'broken', why: 'a syntax error measures nothing', code: 'const a = ;\n' },
] as const;

let dir: string;
let results: RunResult[];
let paths: (string | undefined)[];
let report: CoverageReport;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'snx-istanbul-'));
  results = [];
  for (const s of SNIPPETS) results.push(await runSnippet(s.code, { mode: 'trace', timeoutMs: 30_000, ...('lang' in s ? { lang: s.lang } : {}) }));
  const collector = new CoverageCollector({ dir: join(dir, 'coverage'), reporters: ['text', 'text-summary', 'lcov', 'html', 'json', 'json-summary'], projectRoot: dir });
  paths = SNIPPETS.map((s, i) => collector.addSnippet({ id: s.id, code: s.code, result: results[i]! }));
  report = collector.write();
});
after(() => rmSync(dir, { recursive: true, force: true }));

const measuredIndexes = () => SNIPPETS.map((_, i) => i).filter((i) => results[i]!.status !== 'syntax-error');
const sumOf = (f: (r: RunResult) => number) => measuredIndexes().reduce((n, i) => n + f(results[i]!), 0);
const uncoveredOf = (lines: Record<string, number>) => Object.entries(lines).filter(([, n]) => n === 0).map(([l]) => Number(l));

test('istanbul: the cases exercise what they are for', () => {
  assert.equal(results[1]!.exitCode, 0, 'the exit case exits');
  assert.deepEqual(results[2]!.lines.uncovered, [2, 3], 'the nested case leaves its line uncovered');
  assert.ok(results[0]!.injections.length > 0 && results[3]!.injections.length > 0, 'values were injected');
  assert.equal(results[4]!.status, 'syntax-error');
});

test('istanbul: the counters a result carries stay out of its JSON', () => {
  assert.ok(results[0]!.detail && results[0]!.detail.coverage.statements.length > 0);
  assert.equal('detail' in JSON.parse(JSON.stringify(results[0])), false);
  assert.equal(JSON.stringify(results[0]).includes('"column"'), false);
});

test('istanbul: coverage-final.json counts the lines and branches the result counts, file by file', () => {
  const final = JSON.parse(readFileSync(join(dir, 'coverage', 'coverage-final.json'), 'utf8')) as Record<string, libCoverage.FileCoverageData>;
  assert.deepEqual(Object.keys(final).sort(), measuredIndexes().map((i) => paths[i]!).sort(), 'one file per measured snippet, the syntax error left out');
  for (const i of measuredIndexes()) {
    const r = results[i]!;
    const fc = libCoverage.createFileCoverage(final[paths[i]!]!);
    const lines = fc.getLineCoverage();
    assert.deepEqual(Object.keys(lines).map(Number), r.lines.measured, `${SNIPPETS[i]!.id}: measured lines`);
    assert.deepEqual(uncoveredOf(lines), r.lines.uncovered, `${SNIPPETS[i]!.id}: uncovered lines`);
    const summary = fc.toSummary();
    assert.deepEqual([summary.lines.total, summary.lines.covered], [r.lines.total, r.lines.covered], `${SNIPPETS[i]!.id}: line figures`);
    assert.deepEqual([summary.branches.total, summary.branches.covered], [r.branches.total, r.branches.covered], `${SNIPPETS[i]!.id}: branch figures`);
  }
  assert.deepEqual(report.summary.lines, { total: sumOf((r) => r.lines.total), covered: sumOf((r) => r.lines.covered), pct: Math.floor((10_000 * sumOf((r) => r.lines.covered)) / sumOf((r) => r.lines.total)) / 100 });
  assert.deepEqual([report.summary.branches.total, report.summary.branches.covered], [sumOf((r) => r.branches.total), sumOf((r) => r.branches.covered)]);
  assert.deepEqual([report.files, report.skipped], [4, 1]);
});

/** The records of an lcov tracefile by source file: DA lines, LF/LH, BRF/BRH. */
function readLcov(text: string): Map<string, { lines: Record<string, number>; lf: number; lh: number; brf: number; brh: number }> {
  const records = new Map<string, { lines: Record<string, number>; lf: number; lh: number; brf: number; brh: number }>();
  for (const block of text.split('end_of_record').filter((b) => b.trim() !== '')) {
    const field = (name: string) => block.split('\n').filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1));
    const lines: Record<string, number> = {};
    for (const da of field('DA')) lines[da.split(',')[0]!] = Number(da.split(',')[1]);
    records.set(field('SF')[0]!, { lines, lf: Number(field('LF')[0]), lh: Number(field('LH')[0]), brf: Number(field('BRF')[0]), brh: Number(field('BRH')[0]) });
  }
  return records;
}

test('istanbul: lcov.info read back gives each result its lines and branches', () => {
  const records = readLcov(readFileSync(join(dir, 'coverage', 'lcov.info'), 'utf8'));
  assert.equal(records.size, measuredIndexes().length);
  for (const i of measuredIndexes()) {
    const r = results[i]!;
    const record = records.get(`coverage/snippets/${snippetFileName(SNIPPETS[i]!.id, r.lang)}`);
    assert.ok(record, `${SNIPPETS[i]!.id}: a record, its SF relative to the project root`);
    assert.deepEqual(Object.keys(record.lines).map(Number), r.lines.measured);
    assert.deepEqual(uncoveredOf(record.lines), r.lines.uncovered);
    assert.deepEqual([record.lf, record.lh, record.brf, record.brh], [r.lines.total, r.lines.covered, r.branches.total, r.branches.covered]);
  }
});

const genhtml = spawnSync('genhtml', ['--version'], { encoding: 'utf8' });
test('istanbul: genhtml (Debian lcov) accepts lcov.info and counts the same lines and branches', { skip: genhtml.error ? 'genhtml is not on PATH (Debian\'s lcov package): lcov.info was not read by genhtml' : false }, () => {
  const out = spawnSync('genhtml', ['--branch-coverage', '-o', join(dir, 'genhtml'), join(dir, 'coverage', 'lcov.info')], { cwd: dir, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr + out.stdout);
  const lines = { covered: sumOf((r) => r.lines.covered), total: sumOf((r) => r.lines.total) };
  const branches = { covered: sumOf((r) => r.branches.covered), total: sumOf((r) => r.branches.total) };
  assert.match(out.stdout, new RegExp(`lines\\.+: [\\d.]+% \\(${lines.covered} of ${lines.total} lines\\)`));
  assert.match(out.stdout, new RegExp(`branches\\.+: [\\d.]+% \\(${branches.covered} of ${branches.total} branches\\)`));
  assert.ok(existsSync(join(dir, 'genhtml', 'index.html')));
});

/** The source text an istanbul HTML page shows: its <pre> block without the coverage marks. */
function pageSource(page: string): string {
  const pre = /<pre class="prettyprint lang-\w+">([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? '';
  const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', nbsp: '', '#39': "'", '#x27': "'" };
  // An if whose path was not taken gets an I or E marker span: not source.
  return pre.replace(/<span class="(?:missing|skip)-if-branch"[^>]*>[IE]<\/span>/g, '').replace(/<[^>]*>/g, '').replace(/&(#?\w+);/g, (m, e: string) => entities[e] ?? m);
}

test('istanbul: each snippet is written as it ran, its HTML page shows it alone, and no injected definition is measured', () => {
  const final = JSON.parse(readFileSync(join(dir, 'coverage', 'coverage-final.json'), 'utf8')) as Record<string, libCoverage.FileCoverageData>;
  for (const i of measuredIndexes()) {
    const { id, code } = SNIPPETS[i]!;
    const r = results[i]!;
    assert.equal(readFileSync(paths[i]!, 'utf8'), code, `${id}: the snippet file is the code as given`);
    const page = readFileSync(join(dir, 'coverage', `${snippetFileName(id, r.lang)}.html`), 'utf8');
    assert.equal(pageSource(page).trimEnd(), code.trimEnd(), `${id}: the HTML page shows the snippet and nothing else`);
    const lastLine = code.split('\n').length;
    const data = final[paths[i]!]!;
    for (const loc of Object.values(data.statementMap)) assert.ok(r.lines.measured.includes(loc.start.line), `${id}: a statement at line ${loc.start.line} is on a measured line`);
    for (const { loc } of Object.values(data.branchMap)) assert.ok(loc.start.line >= 1 && loc.start.line <= lastLine, `${id}: a branch at line ${loc.start.line} is inside the snippet's ${lastLine} lines`);
  }
});

test('istanbul: the text reporters are returned for printing, and written', () => {
  assert.match(report.printed, /File\s+\| % Stmts \| % Branch/);
  assert.match(report.printed, new RegExp(`Lines\\s+: [\\d.]+% \\( ${report.summary.lines.covered}/${report.summary.lines.total} \\)`));
  assert.equal(readFileSync(join(dir, 'coverage', 'text.txt'), 'utf8') + readFileSync(join(dir, 'coverage', 'text-summary.txt'), 'utf8'), report.printed);
  const summary = JSON.parse(readFileSync(join(dir, 'coverage', 'coverage-summary.json'), 'utf8')) as { total: { lines: { total: number } } };
  assert.equal(summary.total.lines.total, report.summary.lines.total);
});

test('istanbul: run writes one file under its own path', async () => {
  const file = join(dir, 'snippet.js');
  const code = 'const a = compute();\nif (a > 1) {\n  console.log(a);\n}\n';
  writeFileSync(file, code);
  const result = await runSnippet(code, { mode: 'trace', fileName: file });
  const written = writeCoverage({ dir: join(dir, 'run'), reporters: ['json'], files: [{ path: file, code, result }] });
  const final = JSON.parse(readFileSync(join(dir, 'run', 'coverage-final.json'), 'utf8')) as Record<string, libCoverage.FileCoverageData>;
  assert.deepEqual(Object.keys(final), [file]);
  assert.deepEqual([written.summary.lines.total, written.summary.lines.covered], [result.lines.total, result.lines.covered]);
  assert.equal(existsSync(join(dir, 'run', 'snippets')), false, 'a file of its own is not copied');
});

test('istanbul: each function of the snippet counts its calls, named as istanbul names it; a function drive called counts as called', async () => {
  const code = 'function used(a) {\n  return a + 1;\n}\nfunction unused() {\n  return 0;\n}\nconst arrow = (x) => x * 2;\nconst obj = { m() { return 1; }, n: function () { return 2; } };\n[1, 2].map((v) => used(v));\nconsole.log(arrow(3), obj.m());\n';
  const file = join(dir, 'functions.js');
  writeFileSync(file, code);
  const asWritten = await runSnippet(code, { mode: 'trace', drive: false, scenarios: 1, fileName: file });
  assert.equal(asWritten.stdout, '6 1\n', 'counting calls changes nothing the code does');
  const written = writeCoverage({ dir: join(dir, 'functions'), reporters: ['json', 'lcov'], files: [{ path: file, code, result: asWritten }] });
  const data = (JSON.parse(readFileSync(join(dir, 'functions', 'coverage-final.json'), 'utf8')) as Record<string, libCoverage.FileCoverageData>)[file]!;
  const calls = Object.keys(data.fnMap).map((k) => [data.fnMap[k]!.name, data.fnMap[k]!.line, data.f[k]]);
  // The wrapper snipexec runs the snippet in, and drive's registrations, have no place in the file.
  assert.deepEqual(calls, [['used', 1, 2], ['unused', 4, 0], ['arrow', 7, 1], ['m', 8, 1], ['n', 8, 0], ['(anonymous_5)', 9, 2]]);
  assert.deepEqual([written.summary.functions.total, written.summary.functions.covered], [6, 4]);
  const lcov = readFileSync(join(dir, 'functions', 'lcov.info'), 'utf8');
  assert.match(lcov, /^FNF:6$/m);
  assert.match(lcov, /^FNH:4$/m);
  assert.match(lcov, /^FNDA:2,used$/m);
  const driven = await runSnippet(code, { mode: 'trace', scenarios: 1 });
  assert.deepEqual(driven.detail?.coverage.functions.map((f) => f.count > 0), [true, true, true, true, true, true]);
});

test('istanbul: snippet ids become distinct, safe file names', () => {
  assert.equal(snippetFileName('plain-id_1.x', 'js'), 'plain-id_1.x.js');
  const names = ['so/1', 'so_1', 'so 1', '../up', '.hidden', ''].map((id) => snippetFileName(id, 'ts'));
  assert.equal(new Set(names).size, names.length, names.join(' '));
  for (const n of names) assert.match(n, /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.ts$/);
  const collector = new CoverageCollector({ dir: join(dir, 'dup'), reporters: ['json'] });
  const one = collector.addSnippet({ id: 'same', code: SNIPPETS[0].code, result: results[0]! });
  const two = collector.addSnippet({ id: 'same', code: SNIPPETS[2].code, result: results[2]! });
  assert.notEqual(one, two);
  assert.equal(collector.write().files, 2);
});

const totals = (lines: [number, number], branches: [number, number], functions: [number, number] = [0, 0]): CoverageTotals => {
  const figure = ([covered, total]: [number, number]) => ({ covered, total, pct: total === 0 ? 100 : Math.floor((10_000 * covered) / total) / 100 });
  return { lines: figure(lines), statements: figure(lines), branches: figure(branches), functions: figure(functions) };
};

const THRESHOLD_CASES = [
  { name: 'no threshold', summary: totals([4, 5], [1, 4]), thresholds: {}, failing: [] },
  { name: 'at the threshold passes', summary: totals([4, 5], [1, 4]), thresholds: { lines: 80, branches: 25 }, failing: [] },
  { name: 'just below fails', summary: totals([4, 5], [1, 4]), thresholds: { lines: 80.01 }, failing: ['lines'] },
  { name: 'both below', summary: totals([1, 3], [0, 2]), thresholds: { lines: 50, branches: 1 }, failing: ['lines', 'branches'] },
  { name: 'nothing measured is 100 %', summary: totals([0, 0], [0, 0]), thresholds: { lines: 100, branches: 100 }, failing: [] },
  { name: 'functions below fails', summary: totals([4, 5], [1, 4], [2, 3]), thresholds: { lines: 80, functions: 70 }, failing: ['functions'] },
] as const;

for (const c of THRESHOLD_CASES) {
  test(`istanbul thresholds: ${c.name}`, () => {
    const failures = checkThresholds(c.summary, c.thresholds);
    assert.deepEqual(failures.map((f) => f.metric), c.failing);
    for (const f of failures) assert.equal(f.message, `Coverage for ${f.metric} (${c.summary[f.metric].pct}%) does not meet the threshold (${f.threshold}%)`);
  });
}

test('istanbul thresholds: the batch report passes at its own figures and fails above them', () => {
  const { lines, branches } = report.summary;
  assert.ok(lines.pct < 100 && branches.pct < 100, 'the cases leave lines and branches uncovered');
  assert.deepEqual(checkThresholds(report.summary, { lines: lines.pct, branches: branches.pct }), []);
  assert.deepEqual(checkThresholds(report.summary, { lines: lines.pct + 0.01, branches: branches.pct + 0.01 }).map((f) => f.metric), ['lines', 'branches']);
});

test('istanbul: invalid options are InvalidOptions', () => {
  assert.throws(() => checkThresholds(report.summary, { lines: 101 }), InvalidOptions);
  assert.throws(() => new CoverageCollector({ dir: join(dir, 'x'), reporters: ['teamcity' as 'json'] }), InvalidOptions);
  assert.throws(() => new CoverageCollector({ dir: join(dir, 'x'), reporters: [] }), InvalidOptions);
  assert.throws(() => new CoverageCollector({ dir: paths[0]! }), /not a directory/);
  assert.throws(() => new CoverageCollector({ dir: join(dir, 'x'), color: true } as never), InvalidOptions);
});
