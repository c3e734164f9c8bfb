import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { formatHuman } from '../src/report/formatHuman.ts';

test('human report: lines are numbered as Babel and V8 number them, so a raw U+2028 in a string starts a line', async () => {
  const code = 'const s = "a\u2028b";\nfoo();\nconsole.log(s.length);\n';
  const r = await runSnippet(code, { mode: 'none' });
  assert.equal(r.status, 'stopped');
  const error = r.errors[0];
  assert.ok(error, 'an error');
  const human = formatHuman(r, code, false);
  // The line the error names is the line of `foo();` in the human view, and it is the one marked as having thrown.
  const row = human.split('\n').find((l) => new RegExp(`^[✓✗+! ] +${error.line} \\| `).test(l));
  assert.ok(row, `a row numbered ${error.line}`);
  assert.match(row, /^! +\d+ \| foo\(\);$/);
  assert.ok(r.lines.uncovered.includes(error.line));
  assert.deepEqual(r.lines.threw, [error.line]);
});

test('human report: a degraded result says so in its header', async () => {
  const r = await runSnippet('console.log(1);\n', { mode: 'none' });
  assert.doesNotMatch(formatHuman(r, 'console.log(1);\n', false), /degraded/);
  const header = formatHuman({ ...r, degraded: 'llm-unavailable' }, 'console.log(1);\n', false).split('\n')[0];
  assert.equal(header, 'snippet  (completed, degraded: llm-unavailable; ✓ covered, ✗ not covered)');
});

test('human report: lines only an explored scenario covered are marked +, and the union and each kept scenario are listed after the first execution\'s figures', async () => {
  const code = "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('guest');\n}\n";
  const r = await runSnippet(code, { mode: 'trace' });
  const human = formatHuman(r, code, false);
  const rows = human.split('\n');
  assert.equal(rows[0], 'snippet  (completed; ✓ covered, + covered by an explored scenario only, ✗ not covered)');
  // The first execution took one branch; the other is covered by scenario 2 only.
  const first = r.lines.uncovered;
  assert.equal(first.length, 1);
  assert.match(rows.find((l) => new RegExp(`^. +${first[0]} \\| `).test(l)) ?? '', /^\+ /);
  assert.ok(rows.some((l) => /^lines \d+\/\d+ \(\d+\.\d %\) .* \(the first execution\)$/.test(l)));
  assert.ok(rows.includes('explored  2 scenarios kept of 2 tried: lines 3/3 (100.0 %), branches 2/2 (100.0 %)'), human);
  assert.ok(rows.some((l) => /^  scenario 2: line 1: user\.isAdmin answered (true|false) → line [24]$/.test(l)), human);
  // One execution (--scenarios 1): no exploration, nothing marked +.
  const one = await runSnippet(code, { mode: 'trace', scenarios: 1 });
  const plain = formatHuman(one, code, false);
  assert.doesNotMatch(plain, /explored|^\+ /m);
  assert.match(plain.split('\n')[0] ?? '', /; ✓ covered, ✗ not covered\)$/);
});
