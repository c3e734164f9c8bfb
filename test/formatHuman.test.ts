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
  // The line the error names is the line of `foo();` in the human view, and it is the one marked not covered.
  const row = human.split('\n').find((l) => new RegExp(`^[✓✗ ] +${error.line} \\| `).test(l));
  assert.ok(row, `a row numbered ${error.line}`);
  assert.match(row, /^✗ +\d+ \| foo\(\);$/);
  assert.ok(r.lines.uncovered.includes(error.line));
});

test('human report: a degraded result says so in its header', async () => {
  const r = await runSnippet('console.log(1);\n', { mode: 'none' });
  assert.doesNotMatch(formatHuman(r, 'console.log(1);\n', false), /degraded/);
  const header = formatHuman({ ...r, degraded: 'llm-unavailable' }, 'console.log(1);\n', false).split('\n')[0];
  assert.equal(header, 'snippet  (completed, degraded: llm-unavailable; ✓ covered, ✗ not covered)');
});
