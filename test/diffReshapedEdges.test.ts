// An edge value that changes its element's shape (`'example'` where nothing was learnt of an
// object) and opens a scenario of its own: the element's own edge values in that new shape (`''`)
// are tried there, where the element is held and edgeValues never offers them.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { reshapedEdges } from '../src/diff/edgeValues.ts';
import { runDiff } from '../src/diff/runDiff.ts';
import { gitRepo } from './helpers.ts';

test('reshapedEdges: the new category\'s own values, none when the edge value kept the learnt category', () => {
  assert.deepEqual(reshapedEdges({ element: 'f#arg0', source: "'example'", category: 'string' }, 'object'), [{ element: 'f#arg0', source: "''", category: 'string' }]);
  assert.deepEqual(reshapedEdges({ element: 'f#arg0', source: "['example']", category: 'array' }, 'string').map((e) => e.source), ['[]', '[null]']);
  assert.deepEqual(reshapedEdges({ element: 'f#arg0', source: "''", category: 'string' }, 'string'), []);
});

// glob-style: a pattern checked for a string in a way the trace learns nothing from, so the learnt
// value is an empty object and the run stops at the check; `'example'` reaches the changed lines,
// and only `''` on top of it meets the dropped guard.
const DEPTH_BEFORE = `'use strict';
function Pattern(p) {
  if (Object.prototype.toString.call(p) !== '[object String]') throw new TypeError('invalid pattern');
  this.set = p ? [p.split('/')] : [];
}

exports.depth = function (pattern) {
  var set = new Pattern(pattern).set;
  if (!pattern)
    return 0;
  return set[0].length;
};
`;
const DEPTH_AFTER = DEPTH_BEFORE.replace('  if (!pattern)\n    return 0;\n', '');

test('diff: the empty string is tried on the string scenario the other shape opened: the dropped guard for it is found', async () => {
  assert.notEqual(DEPTH_AFTER, DEPTH_BEFORE);
  const dir = gitRepo({ 'depth.js': DEPTH_BEFORE });
  writeFileSync(join(dir, 'depth.js'), DEPTH_AFTER);
  const report = await runDiff({ cwd: dir });
  const f = report.findings.find((x) => x.line === 9 && x.message === "Cannot read properties of undefined (reading 'length')");
  assert.ok(f, JSON.stringify(report.findings.map((x) => [x.line, x.message])));
  assert.equal(f.how, 'edge');
  assert.deepEqual(f.evidence.edge, { element: 'exports.depth#arg0', source: "''" });
  assert.equal(f.evidence.with, undefined, 'the shape the edge value replaced is not named as held with it');
});
