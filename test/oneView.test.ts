import assert from 'node:assert/strict';
import { test } from 'node:test';
import libCoverage from 'istanbul-lib-coverage';
import { runSnippet } from '../src/index.ts';
import { classifyUncovered, ISTANBUL_COUNTS, lineStates, type LineState } from '../src/core/lineStates.ts';
import type { ReportedError, RunResult } from '../src/core/runResult.ts';
import { formatHuman } from '../src/report/formatHuman.ts';
import { formatBatchSummary } from '../src/report/formatBatchSummary.ts';
import { renderBatchIndex, indexRowOf, renderRunHtml } from '../src/report/htmlReport.ts';
import { fileCoverageOf } from '../src/report/istanbulCoverage.ts';
import { LINE_MARKS } from '../src/report/lineMarks.ts';
import { consoleEntries } from '../src/report/consoleEntries.ts';
import { share } from '../src/report/percent.ts';
import type { BatchRunSummary } from '../src/core/batchSummary.ts';
import { NO_LLM_USAGE } from '../src/core/llmUsage.ts';
import { selected } from './helpers.ts';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import type { Definition } from '../src/engine/definition.ts';

/** Each view's state of every measured line: the terminal's mark, the HTML page's class, istanbul's count. */
function viewStates(r: RunResult, code: string): { terminal: Map<number, string>; html: Map<number, string>; istanbul: Map<number, 'covered' | 'not covered'> } {
  const terminal = new Map<number, string>();
  for (const row of formatHuman(r, code, false).split('\n')) {
    const m = /^(.) +(\d+) \| /.exec(row);
    if (m && m[1] !== ' ') terminal.set(Number(m[2]), m[1]!);
  }
  const html = new Map<number, string>();
  for (const m of renderRunHtml(r, code).matchAll(/<div class="line (\w+)[^"]*" id="L(\d+)"/g)) if (m[1] !== 'unmeasured') html.set(Number(m[2]), m[1]!);
  const data = fileCoverageOf('/snippet.js', code, r);
  assert.ok(data, 'the result has coverage counters');
  const counts = libCoverage.createFileCoverage(data).getLineCoverage();
  const istanbul = new Map(Object.entries(counts).map(([n, c]) => [Number(n), c > 0 ? 'covered' as const : 'not covered' as const]));
  return { terminal, html, istanbul };
}

/** Real runs, each with the state of every measured line. */
const LINE_CASES: readonly { name: string; code: string; mode?: 'none' | 'trace'; drive?: boolean; states: Record<number, LineState> }[] = [
  { name: 'as written: covered and not covered', code: "const a = 1;\nif (a > 5) {\n  console.log('big');\n}\n", mode: 'none', states: { 1: 'covered', 2: 'covered', 3: 'uncovered' } },
  { name: 'a branch only a kept scenario took is explored', code: "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('guest');\n}\n", states: { 1: 'covered', 2: 'covered', 4: 'explored' } },
  { name: 'the line the uncaught error was raised on threw; the lines after it are not covered', code: "const config = undefined;\nconsole.log(config.port);\nconsole.log('after');\n", mode: 'none', states: { 1: 'covered', 2: 'threw', 3: 'uncovered' } },
  { name: 'an explicit throw whose operand was evaluated is covered', code: 'console.log(1);\nthrow new Error("boom");\n', mode: 'none', states: { 1: 'covered', 2: 'covered' } },
  { name: 'a line whose error the snippet caught is not covered, not threw', code: 'try {\n  JSON.parse("{");\n} catch (e) {\n  console.log("bad");\n}\n', mode: 'none', states: { 1: 'covered', 2: 'uncovered', 4: 'covered' } },
  { name: "a line that threw in drive's call, beside an explored branch", code: "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('guest');\n}\nfunction check() {\n  const config = null;\n  return config.port;\n}\n", states: { 1: 'covered', 2: 'covered', 4: 'explored', 6: 'covered', 7: 'covered', 8: 'threw' } },
];

for (const c of selected(LINE_CASES)) {
  test(`one view: ${c.name}: the result, the terminal, the HTML page and istanbul agree on each line`, async () => {
    const r = await runSnippet(c.code, { mode: c.mode ?? 'trace', ...(c.drive === false ? { drive: false } : {}) });
    const states = lineStates(r.lines);
    assert.deepEqual(Object.fromEntries(states), Object.fromEntries(Object.entries(c.states).map(([n, s]) => [n, s])), 'the result\'s line states');
    const views = viewStates(r, c.code);
    for (const [n, state] of states) {
      assert.equal(views.terminal.get(n), LINE_MARKS[state].mark, `terminal, line ${n}`);
      assert.equal(views.html.get(n), state, `HTML, line ${n}`);
      assert.equal(views.istanbul.get(n), ISTANBUL_COUNTS[state], `istanbul, line ${n}`);
    }
    assert.deepEqual([...views.terminal.keys()].sort((a, b) => a - b), r.lines.measured, 'the terminal marks the measured lines only');
    assert.deepEqual([...views.html.keys()].sort((a, b) => a - b), r.lines.measured, 'the HTML page marks the measured lines only');
  });
}

const error = (line: number, extra: Partial<ReportedError> = {}): ReportedError => ({ type: 'TypeError', message: 'x', line, column: 1, attribution: 'snippet', ...extra });

/** classifyUncovered: which uncovered lines are explored or threw, by what the result says. */
const CLASSIFY_CASES: readonly { name: string; uncovered: number[]; exploredUncovered?: number[]; errors: ReportedError[]; expected: { explored?: number[]; threw?: number[] } }[] = [
  { name: 'no exploration, no error', uncovered: [2, 3], errors: [], expected: {} },
  { name: 'lines a scenario covered', uncovered: [2, 3, 5], exploredUncovered: [5], errors: [], expected: { explored: [2, 3] } },
  { name: "the snippet's uncaught error", uncovered: [2, 3], errors: [error(2)], expected: { threw: [2] } },
  { name: 'an error an injected value caused', uncovered: [4], errors: [error(4, { attribution: 'injected', culprit: 'x' })], expected: { threw: [4] } },
  { name: "an error in drive's call", uncovered: [8], errors: [error(8, { drive: 'check' })], expected: { threw: [8] } },
  { name: 'an error the snippet caught', uncovered: [2], errors: [error(2, { caught: true })], expected: {} },
  { name: "the sandbox's limit at the last line run", uncovered: [2], errors: [error(2, { type: 'timeout', attribution: 'sandbox' })], expected: {} },
  { name: "an environment's error", uncovered: [2], errors: [error(2, { attribution: 'environment' })], expected: {} },
  { name: 'an error on a covered line (an explicit throw)', uncovered: [3], errors: [error(2, { explicit: true })], expected: {} },
  { name: 'a line that threw, which a scenario covered, stays threw', uncovered: [2, 4], exploredUncovered: [], errors: [error(2)], expected: { explored: [4], threw: [2] } },
];

for (const c of CLASSIFY_CASES) {
  test(`line states: ${c.name}`, () => {
    assert.deepEqual(classifyUncovered(c.uncovered, c.exploredUncovered, c.errors), c.expected);
  });
}

test('line states: istanbul counts only covered lines as covered, lcov having no other state', () => {
  assert.deepEqual(ISTANBUL_COUNTS, { covered: 'covered', explored: 'not covered', threw: 'not covered', uncovered: 'not covered' });
  assert.deepEqual(Object.fromEntries(lineStates({ measured: [1, 2, 3, 4], uncovered: [2, 3, 4], explored: [3], threw: [2] })), { 1: 'covered', 2: 'threw', 3: 'explored', 4: 'uncovered' });
});

/** The variable each definition binds, and those of other definitions it reads. */
function bindings(sources: readonly string[]): { binds: string; reads: string[] }[] {
  const bound = sources.map((s) => /^var ([\w$]+) =/.exec(s)?.[1] ?? '');
  return sources.map((s, i) => ({ binds: bound[i]!, reads: bound.filter((b, j) => j !== i && b !== '' && new RegExp(`(?<![\\w$])${b.replace(/\$/g, '\\$')}(?![\\w$])`).test(s.replace(/^var [\w$]+ =/, ''))) }));
}

/** Every definition comes after the ones it reads. */
function assertDependencyOrder(sources: readonly string[], where: string): void {
  const seen = new Set<string>();
  for (const { binds, reads } of bindings(sources)) {
    for (const r of reads) assert.ok(seen.has(r), `${where}: ${binds} reads ${r}, defined after it:\n${sources.join('\n')}`);
    seen.add(binds);
  }
}

const ORDER_CASES = [
  { name: 'a method of an injected object and what it returns', code: 'const user = db.findUser(1);\nconsole.log(user.name);\n' },
  { name: 'a promise and what it resolves to', code: "fetchData().then((r) => console.log('Got', r.items.length));\n" },
  { name: 'a nested argument of a driven function', code: 'function helper(x) {\n  return x.y.z;\n}\n' },
] as const;

for (const c of selected(ORDER_CASES)) {
  test(`definition order: ${c.name}: the result, the terminal, the HTML page and the program list each definition after those it references`, async () => {
    const r = await runSnippet(c.code, { mode: 'trace' });
    const sources = r.injections.map((i) => i.source);
    assert.ok(bindings(sources).some((b) => b.reads.length > 0), 'some definition references another');
    assertDependencyOrder(sources, 'result.injections');
    const human = formatHuman(r, c.code, false);
    const listed = human.split('\n').filter((l) => /^ {2}var /.test(l)).map((l) => l.trim().replace(/;\s+\/\/ .*$/, ';'));
    assert.deepEqual(listed, sources, 'the terminal lists them in the result\'s order');
    const page = renderRunHtml(r, c.code);
    const table = page.slice(page.indexOf('id="definitions"'));
    const inPage = [...table.matchAll(/<td><pre>(var [^<]*)<\/pre><\/td>/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&').replace(/&#39;/g, "'"));
    assert.deepEqual(inPage, sources, 'the HTML page lists them in the result\'s order');
    const program = (r.program ?? '').split('\n').filter((l) => /^var /.test(l)).map((l) => l.replace(/ \/\/ .*$/, ''));
    assertDependencyOrder(program, 'the completed program');
  });
}

/** Globals, in the book's order, each referencing others by `$i`: the order the program (and so the result) defines them in. */
const RENDER_ORDER_CASES: readonly { name: string; book: [string, string[]][]; expected: string[] }[] = [
  { name: 'independent definitions keep the book\'s order', book: [['x', []], ['y', []]], expected: ['x', 'y'] },
  { name: 'a chain: each after what it references', book: [['a', ['b']], ['b', ['c']], ['c', []]], expected: ['c', 'b', 'a'] },
  { name: 'a shared part comes once, before the first that references it', book: [['a', ['p']], ['b', ['p']], ['p', []]], expected: ['p', 'a', 'b'] },
  { name: 'a cycle keeps a stable order: the one reached first comes last', book: [['a', ['b']], ['b', ['a']]], expected: ['b', 'a'] },
  { name: 'the same cycle asked for the other way round', book: [['b', ['a']], ['a', ['b']]], expected: ['a', 'b'] },
];

for (const c of RENDER_ORDER_CASES) {
  test(`definition order: ${c.name}`, () => {
    const def = ([id, refs]: [string, string[]]): [string, Definition] => [id, {
      id, kind: 'global', parent: undefined, name: id, usageKey: id, line: 1, message: '', provider: 'trace', attempts: 1, history: [], rejected: [], fallbacks: 0,
      proposal: { source: `{ ${refs.map((r, i) => `${r}: $${i}`).join(', ')} }`, refs, category: 'object' },
    }];
    const rendered = renderDefinitions(new Map(c.book.map(def)));
    assert.deepEqual([...rendered.statements.keys()], c.expected);
    assert.deepEqual(renderDefinitions(new Map(c.book.map(def))).source, rendered.source, 'the same order on every render');
  });
}

/** 0 of 0 reads `–` wherever a share is printed. */
test('no share: 0 of 0 is – in the terminal, the HTML page, the batch index and the batch summary', async () => {
  assert.deepEqual([share(0, 0), share(1, 2), share(2, 2)], ['–', '50.0 %', '100.0 %']);
  const code = '// nothing to run\n';
  const r = await runSnippet(code, { mode: 'none' });
  assert.equal(r.lines.total, 0);
  assert.match(formatHuman(r, code, false), /^lines 0\/0 \(–\) {2}branches 0\/0 \(–\) /m);
  const page = renderRunHtml(r, code);
  assert.match(page, /lines <b>0\/0<\/b> \(–\)/);
  assert.match(page, /branches <b>0\/0<\/b> \(–\)/);
  const index = renderBatchIndex([indexRowOf('empty', 'none', r)]);
  assert.match(index, /<td class="num">– \(0\/0\)<\/td><td class="num">–<\/td>/);
  assert.match(index, /lines 0\/0 \(–\)/);
  const summary: BatchRunSummary = {
    snippets: 1, mode: 'none', lineCoverage: 0, meanLineCoverage: 1, branchCoverage: 0, exploredLineCoverage: 0, exploredBranchCoverage: 0,
    fullyExecutedRate: 1, counted: { parsed: 1, lines: 0, branches: 0 }, statusCounts: { completed: 1 }, degraded: 0, elapsedMs: 1000, snippetsPerSecond: 1, llmCalls: NO_LLM_USAGE, invalidLines: 0,
  };
  const text = formatBatchSummary(summary);
  assert.match(text, /^line coverage +– \(first execution\), – over kept scenarios$/m);
  assert.match(text, /^branch coverage +– \(first execution\), – over kept scenarios$/m);
  assert.match(text, /^mean line cov\. +100\.0 %$/m);
  const none = formatBatchSummary({ ...summary, snippets: 0, counted: { parsed: 0, lines: 0, branches: 0 }, statusCounts: {} });
  assert.match(none, /^mean line cov\. +–$/m);
  assert.match(none, /^fully executed +–$/m);
});

/** consoleEntries: stdout cut where snipexec's calls printed. */
const ENTRY_CASES: readonly { name: string; stdout: string; parts?: RunResult['scenarioOutput']; expected: { text: string; by: string; label?: string }[] }[] = [
  { name: 'all the program\'s own', stdout: 'a\nb\n', expected: [{ text: 'a\nb\n', by: 'program' }] },
  {
    name: "drive's calls, then what they queued", stdout: 'a\nFailed: injected error\nlater\n',
    parts: [{ start: 2, by: 'drive', target: '<anonymous>@3' }, { start: 25, by: 'drive' }],
    expected: [
      { text: 'a\n', by: 'program' },
      { text: 'Failed: injected error\n', by: 'drive', label: "snipexec's scenario: drive called <anonymous>@3" },
      { text: 'later\n', by: 'drive', label: "snipexec's scenario: what drive's calls left queued" },
    ],
  },
  {
    name: "an environment's driver, before any output of the program's", stdout: 'clicked\n', parts: [{ start: 0, by: 'environment', name: 'browser events' }],
    expected: [{ text: 'clicked\n', by: 'environment', label: "snipexec's scenario: its browser events driver" }],
  },
];

for (const c of ENTRY_CASES) {
  test(`console entries: ${c.name}`, () => {
    const entries = consoleEntries({ stdout: c.stdout, ...(c.parts ? { scenarioOutput: c.parts } : {}) });
    assert.deepEqual(entries, c.expected);
    assert.equal(entries.map((e) => e.text).join(''), c.stdout);
  });
}

test("console: what a driven .catch prints is labelled as snipexec's scenario in the terminal and the HTML page, the program's own output is not", async () => {
  const code = "fetchData().then((r) => console.log('Got', r.items.length)).catch((e) => console.log('Failed:', e.message));\n";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.drives?.map((d) => d.target), ['<anonymous>@1']);
  assert.deepEqual(r.scenarioOutput, [{ start: r.stdout.indexOf('Failed:'), by: 'drive', target: '<anonymous>@1' }]);
  const human = formatHuman(r, code, false).split('\n');
  const at = human.indexOf('console');
  assert.deepEqual(human.slice(at, at + 4), ['console', '  Got 0', "  (snipexec's scenario: drive called <anonymous>@1)", '  │ Failed: injected error']);
  const page = renderRunHtml(r, code);
  assert.match(page, /<pre class="console program">Got 0\n<\/pre>/);
  assert.match(page, /<figure class="console-part scenario" data-by="drive"><figcaption class="meta">snipexec&#39;s scenario: drive called &lt;anonymous&gt;@1<\/figcaption><pre class="console scenario">Failed: injected error\n<\/pre><\/figure>/);
  // As written (--no-drive), the catch is never called and nothing is labelled.
  const asWritten = await runSnippet(code, { mode: 'trace', drive: false });
  assert.equal(asWritten.scenarioOutput, undefined);
  assert.equal(asWritten.stdout, 'Got 0\n');
});
