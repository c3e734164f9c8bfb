// `Array.isArray(v)` of a value being learnt is a decision exploration may flip (valueHooks
// arrayDecision): the first scenario answers false, as the platform does for a recording proxy; a
// scenario of its own answers true, and the value learnt there is an array.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { runDiff } from '../src/diff/runDiff.ts';
import { gitRepo } from './helpers.ts';

const TAG = `function tag(strings, sep) {
  if (!Array.isArray(strings)) {
    return 'plain';
  }
  const parts = strings.map((s) => s.name);
  return parts.join(sep);
}
console.log(tag(input, ', '));`;

test('arrayDecision: the first scenario answers Array.isArray of a learnt value false; exploration covers the array branch with an array learnt', async () => {
  const r = await runSnippet(TAG, { mode: 'trace', scenarios: 4 });
  assert.deepEqual(r.lines.uncovered, [5, 6]);
  assert.deepEqual(r.explored?.lines.uncovered, []);
  const kept = r.explored?.kept.find((k) => k.flipped.text === 'Array.isArray(...)');
  assert.deepEqual(kept?.flipped, { text: 'Array.isArray(...)', line: 2, answer: true });
  assert.match(kept?.definitions.find((d) => d.element === 'input')?.source ?? '', /^var input = \[/);
});

// The array branch reads a member of the array (a template's `raw`) before the changed line: an
// edge value in place of the array (`[null]`) fails there, in both versions, and never reaches it.
const TAG_BEFORE = `'use strict';
function tag(strings, value) {
  if (!Array.isArray(strings)) {
    return String(strings);
  }
  const head = strings.raw.join('|');
  return head + String(value);
}
module.exports = tag;
`;

test('arrayDecision: diff finds a bug in the branch a function takes only for an array, through the exploration scenario that answers Array.isArray true', async () => {
  const dir = gitRepo({ 'tag.js': TAG_BEFORE });
  writeFileSync(join(dir, 'tag.js'), TAG_BEFORE.replace('String(value)', 'value.toString()'));
  const report = await runDiff({ cwd: dir });
  assert.ok(report.findings.length > 0);
  for (const f of report.findings) {
    assert.deepEqual([f.line, f.type], [7, 'TypeError']);
    assert.match(f.message, /^Cannot read properties of (undefined|null) \(reading 'toString'\)$/);
  }
});
