import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countMessages, countTokens } from '../src/llm/countTokens.ts';
import { assignMessages, classifierMessages, fixMessages, framing, numberedSnippet } from '../src/values/llm/buildPrompts.ts';
import { describeUsage } from '../src/values/llm/describeUsage.ts';
import { CLASSIFIER_BUDGET, clipToTokens, GENERATOR_BUDGET } from '../src/values/llm/promptBudget.ts';
import type { Trace, TraceView } from '../src/protocol/trace.ts';
import type { ValueRequest } from '../src/values/types.ts';

/** A 2,000-line snippet of varied lines, every one different. */
const LONG = Array.from({ length: 2000 }, (_, i) => (i % 7 === 0 ? `// step ${i + 1}: totals for region ${i % 13}` : `const v${i + 1} = compute(rows[${i}], { scale: ${i % 5}, label: 'row ${i + 1}' });`)).join('\n');

/** The line numbers a numbered snippet shows, and its elision markers. */
function shownLines(text: string): { numbers: number[]; above: number; below: number } {
  const numbers = [...text.matchAll(/^(?:>>| {2}) +(\d+) \|/gm)].map((m) => Number(m[1]));
  const above = Number(/\((\d+) lines? above not shown\)/.exec(text)?.[1] ?? 0);
  const below = Number(/\((\d+) lines? below not shown\)/.exec(text)?.[1] ?? 0);
  return { numbers, above, below };
}

/** A contiguous run of line numbers, from its first to its last. */
function assertContiguous(numbers: readonly number[]): void {
  numbers.forEach((n, i) => assert.equal(n, (numbers[0] ?? 0) + i, 'no line cut between two shown lines'));
}

test('prompt budget: a 2,000-line snippet stays in its budget, keeps the failing line and its neighbours, and cuts the farthest lines first', () => {
  const text = numberedSnippet(LONG, 1000);
  const tokens = countTokens(text);
  assert.ok(tokens <= GENERATOR_BUDGET.snippet, `${tokens} tokens`);
  assert.ok(tokens >= GENERATOR_BUDGET.snippet * 0.8, `${tokens} tokens: the budget is used`);
  assert.match(text, /^>> 1000 \| const v1000 = /m);
  assert.match(text, /^ +999 \| /m);
  assert.match(text, /^ +1001 \| /m);
  const { numbers, above, below } = shownLines(text);
  assertContiguous(numbers);
  const first = numbers[0] ?? 0;
  const last = numbers[numbers.length - 1] ?? 0;
  assert.ok(Math.abs((1000 - first) - (last - 1000)) <= 1, `lines ${first}-${last}: as many lines kept above as below`);
  assert.equal(above, first - 1);
  assert.equal(below, 2000 - last);
});

test('prompt budget: a failing line near the top keeps the lines below it; a short snippet is shown whole', () => {
  const { numbers, above, below } = shownLines(numberedSnippet(LONG, 2));
  assert.deepEqual(numbers.slice(0, 3), [1, 2, 3]);
  assert.equal(above, 0);
  assert.equal(below, 2000 - (numbers[numbers.length - 1] ?? 0));
  assert.equal(numberedSnippet('a();\nb();\nc();', 2), '   1 | a();\n>> 2 | b();\n   3 | c();');
});

test('prompt budget: a line too long for what is left ends its side only; the other side goes on', () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `f(${i + 1});`);
  lines[939] = `const blob = '${'x9Q'.repeat(4000)}';`;
  const text = numberedSnippet(lines.join('\n'), 1000);
  assert.ok(countTokens(text) <= GENERATOR_BUDGET.snippet);
  const { numbers, above } = shownLines(text);
  assertContiguous(numbers);
  assert.equal(numbers[0], 941, 'the lines above stop below the long line 940');
  assert.equal(above, 940);
  assert.ok((numbers[numbers.length - 1] ?? 0) - 1000 > 1000 - 941, 'more lines below than above');
});

test('prompt budget: a minified one-line snippet is cut to the budget, its line kept', () => {
  const text = numberedSnippet(`var a=${JSON.stringify(Array.from({ length: 20000 }, (_, i) => `k${i}`))};run(a);`, 1);
  assert.ok(countTokens(text) <= GENERATOR_BUDGET.snippet);
  assert.match(text, /^>> 1 \| var a=\["k0","k1",[^\n]*…$/);
});

test('prompt budget: clipToTokens cuts to the token count, with an ellipsis', () => {
  const long = 'lorem ipsum dolor sit amet '.repeat(200);
  const cut = clipToTokens(long, 50);
  assert.ok(countTokens(cut) <= 50 && countTokens(cut) >= 45, String(countTokens(cut)));
  assert.ok(cut.endsWith('…'));
  assert.equal(clipToTokens('short', 50), 'short');
});

/** A trace of `db` with parts three levels deep: 8 members, each with 8 members, each called. */
function wideTraces(): TraceView {
  const traces = new Map<string, Trace>();
  const keys = Array.from({ length: 8 }, (_, i) => `table${i}`);
  traces.set('db', { id: 'db', reads: keys });
  for (const k of keys) {
    traces.set(`db.${k}`, { id: `db.${k}`, reads: keys.map((c) => `column${c.slice(5)}`) });
    for (const c of keys) traces.set(`db.${k}.column${c.slice(5)}`, { id: `db.${k}.column${c.slice(5)}`, called: 1, calls: [{ argc: 1, args: ['string'], values: [`select ${k}`], callbacks: [] }] });
  }
  return traces;
}

const depth = (line: string) => (/^- `([^`]+)`/.exec(line)?.[1] ?? '').split('.').length - 1;

test('prompt budget: the usage trace stays in its budget and cuts the deepest parts first', () => {
  const traces = wideTraces();
  const all = describeUsage('db', traces, {}, 100_000).split('\n').filter((l) => l.startsWith('- `'));
  const shown = describeUsage('db', traces, {}, GENERATOR_BUDGET.trace);
  assert.ok(countTokens(shown) <= GENERATOR_BUDGET.trace, `${countTokens(shown)} tokens`);
  const kept = shown.split('\n').filter((l) => l.startsWith('- `'));
  assert.ok(kept.length < all.length && kept.length > 0);
  assert.equal(kept[0], all[0], "the element's own line first");
  const cut = all.filter((l) => !kept.includes(l));
  assert.ok(Math.max(...kept.map(depth)) <= Math.min(...cut.map(depth)), 'no part kept deeper than a part cut');
  assert.match(shown, new RegExp(`\\(${cut.length} more lines about its parts not shown\\)`));
});

function request(overrides: Partial<ValueRequest> = {}): ValueRequest {
  return {
    element: 'db', kind: 'global', name: 'db', usage: {}, site: undefined, snippet: LONG, line: 1000, message: 'db is not defined',
    attempt: 1, history: [], rejected: [], trace: undefined, traces: wideTraces(), mayProbe: false, fallbacks: 0,
    definitions: () => Array.from({ length: 12 }, (_, i) => ({ element: `dep${i}`, source: `{ ${Array.from({ length: 30 }, (_, j) => `f${j}: ${i * j}`).join(', ')} }` })),
    ...overrides,
  };
}

test('prompt budget: a whole request for a 2,000-line snippet stays under the system prompt and examples plus the budgets', () => {
  const b = GENERATOR_BUDGET;
  const parts = b.snippet + b.trace + b.defined + b.error;
  const fixed = countMessages(framing());
  const assign = countMessages(assignMessages(request()));
  assert.ok(assign - fixed <= parts + 100, `assign: ${assign - fixed} tokens after the framing`);
  const long = Array.from({ length: 400 }, (_, i) => `const part${i} = { id: ${i}, name: 'part ${i}' };`).join('\n');
  const fix = fixMessages(request(), [{ source: 'ELEMENT = {}', error: 'db.table0 is undefined' }, { source: 'x', code: `${long}\nELEMENT = part399;`, error: 'db.table0.column0 is not a function' }]);
  const fixTokens = countMessages(fix);
  assert.ok(fixTokens - fixed <= parts + b.previous + 200, `fix: ${fixTokens - fixed} tokens after the framing`);
  const last = fix[fix.length - 1]?.content ?? '';
  assert.match(last, /ELEMENT = part399;\n```/, 'the end of the code tried is kept');
  assert.match(last, /\(\d+ lines above not shown\)\nconst part/);
  assert.match(last, /- `ELEMENT = \{\}`: db\.table0 is undefined/, 'an earlier attempt, in one line');
  assert.match(last, /dep11 *\n```/, 'the most recent definition is shown');
  assert.match(last, /the \d+ earliest not shown/);
});

test('prompt budget: the classifier request has its own, smaller budget', () => {
  const message = classifierMessages(request())[0]?.content ?? '';
  const code = /```js\n([\s\S]*?)\n```/.exec(message)?.[1] ?? '';
  assert.match(code, /^>> 1000 \|/m);
  assert.ok(countTokens(code) <= CLASSIFIER_BUDGET.snippet, `${countTokens(code)} tokens`);
  assert.ok(countTokens(message) <= 600 + CLASSIFIER_BUDGET.snippet + CLASSIFIER_BUDGET.trace, `${countTokens(message)} tokens`);
});

test('prompt budget: the fix prompt shows the code that was tried, the model\'s own when there is one', () => {
  const tried = fixMessages(request({ snippet: 'db.table0.column0();', line: 1 }), [{ source: '(() => { let ELEMENT; ELEMENT = 42; return ELEMENT; })()', code: 'const db = 42;\nELEMENT = db;', error: 'db.table0 is undefined' }]);
  assert.match(tried[tried.length - 1]?.content ?? '', /```js\nconst db = 42;\nELEMENT = db;\n```/);
  const plain = fixMessages(request({ snippet: 'db.table0.column0();', line: 1 }), [{ source: '42', error: 'db.table0 is undefined' }]);
  assert.match(plain[plain.length - 1]?.content ?? '', /```js\n42\n```/);
});
