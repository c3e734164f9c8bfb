import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';

/**
 * Timers whose callbacks stopped covering anything new are not run again (staleTimerTicks,
 * src/guest/runtime/staleTimers.ts): an endless interval ends after 1,000 firings instead of
 * spending the whole maxTimerTicks budget, and the timers after it still run.
 */
const NOTE = /\[snipexec: a timer was not run again: its callback stopped covering anything new \(staleTimerTicks\)\]/;
const one = { scenarios: 1, drive: false, mode: 'none' } as const;

test('an endless interval stops after staleTimerTicks firings that covered nothing new, and a later timeout still runs', async () => {
  const code = 'let n = 0;\nsetInterval(() => {\n  n++;\n}, 10);\nsetTimeout(() => {\n  console.log("n", n);\n}, 100000);';
  const r = await runSnippet(code, { ...one, staleTimerTicks: 5 });
  assert.equal(r.status, 'completed');
  // The first firing covers the callback; the next five cover nothing new; the seventh is not run.
  assert.match(r.stdout, /^n 6\n/);
  assert.match(r.stdout, NOTE);
  assert.deepEqual(r.lines.uncovered, []);
});

test('staleTimerTicks 0 never stops a timer', async () => {
  const code = 'let n = 0;\nsetInterval(() => {\n  n++;\n}, 10);\nsetTimeout(() => {\n  console.log("n", n);\n}, 1000);';
  const r = await runSnippet(code, { ...one, staleTimerTicks: 0 });
  // Every firing runs: the 100th is due with the timeout at 1,000 ms and was set first.
  assert.match(r.stdout, /^n 100\n$/);
  assert.doesNotMatch(r.stdout, /not run again/);
});

test('a firing that covers a new line starts the count again', async () => {
  const code = [
    'let count = 0;',
    'setInterval(() => {',
    '  count++;',
    '  if (count === 4) {',
    '    console.log("four");',
    '  }',
    '}, 10);',
    'setTimeout(() => {',
    '  console.log("count", count);',
    '}, 100000);',
  ].join('\n');
  const r = await runSnippet(code, { ...one, staleTimerTicks: 3 });
  // 1 covers the callback, 2-3 nothing new, 4 covers line 5 (the count starts again), 5-7 nothing new: 8 is not run.
  assert.match(r.stdout, /^four\ncount 7\n/);
  assert.deepEqual(r.lines.uncovered, []);
});

test('a poll that sets a new timeout from the same place each time is stopped too', async () => {
  const code = 'let polls = 0;\nfunction poll() {\n  polls++;\n  setTimeout(() => poll(), 1000);\n}\npoll();\nsetTimeout(() => console.log("polls", polls), 1000000);';
  const r = await runSnippet(code, { ...one, staleTimerTicks: 5 });
  const polls = Number(/polls (\d+)/.exec(r.stdout)?.[1]);
  // Without the rule the poll would run 999 times before the last timeout.
  assert.ok(polls >= 6 && polls <= 8, r.stdout);
  assert.match(r.stdout, NOTE);
});

test('the default keeps an interval that counts to 900 before its last branch', async () => {
  const code = 'let count = 0;\nconst id = setInterval(() => {\n  count++;\n  if (count === 900) {\n    clearInterval(id);\n    console.log("done");\n  }\n}, 10);';
  const r = await runSnippet(code, one);
  assert.equal(r.stdout, 'done\n');
  assert.deepEqual(r.lines.uncovered, []);
});

test('with the rule off, a timer that re-arms itself forever ends at the maxTimerTicks cap', async () => {
  const code = 'let n = 0;\nfunction f() {\n  n++;\n  if (n > 10_000) console.log(n);\n  setTimeout(f, 0);\n}\nf();';
  const r = await runSnippet(code, { ...one, staleTimerTicks: 0 });
  // f runs once at the top level, then 10,000 times from its timer.
  assert.equal(r.status, 'completed');
  assert.equal(r.stdout, '10001\n');
});
