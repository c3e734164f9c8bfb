// A member the change newly requires of an object whose shape the base version believes varies
// (it tests another of its members for presence): an edge `undefined` of it counts on a changed line.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { runDiff } from '../src/diff/runDiff.ts';
import { memberPaths, newMemberOfVariedObject } from '../src/diff/variedShapes.ts';
import { gitRepo } from './helpers.ts';

test('memberPaths: the access paths a file reads by name', () => {
  const paths = memberPaths(parseSnippet('function f(res, o) { res.setHeader("a", o.head.x); return res?.send; }', ['js']));
  assert.deepEqual([...paths].sort(), ['o.head', 'o.head.x', 'res.send', 'res.setHeader']);
});

test('newMemberOfVariedObject: a member the base never read, of an object with another member tested for presence', () => {
  const members = new Set(['res.setHeader', 'res.send', 'res.end', 'o.a']);
  assert.equal(newMemberOfVariedObject('res.getHeader', members, new Set(['res.send'])), true);
  assert.equal(newMemberOfVariedObject('res.setHeader', members, new Set(['res.send'])), false, 'the base read it');
  assert.equal(newMemberOfVariedObject('o.b', members, new Set(['res.send'])), false, 'no member of o is tested');
  assert.equal(newMemberOfVariedObject('res.getHeader', members, new Set(['res.send.x'])), false, 'a deeper path is no sibling');
  assert.equal(newMemberOfVariedObject('res', members, new Set(['res.send'])), false, 'a whole argument is another rule');
});

// webpack-dev-middleware-style: a response that may come from another framework (the base tests
// `res.send` before falling back to `res.end`); the change calls `res.getHeader` unguarded.
const SEND_BEFORE = `'use strict';
exports.send = function (res, body) {
  res.setHeader('Content-Type', 'text/plain');
  if (res.send) res.send(body);
  else res.end(body);
};
`;
const SEND_AFTER = SEND_BEFORE.replace("  res.setHeader('Content-Type', 'text/plain');\n", "  if (!res.getHeader('Content-Type')) {\n    res.setHeader('Content-Type', 'text/plain');\n  }\n");
// The same change where the base tests no member of `res` for presence: a new requirement, no finding.
const PLAIN_BEFORE = SEND_BEFORE.replace('  if (res.send) res.send(body);\n  else res.end(body);\n', '  res.end(body);\n');
const PLAIN_AFTER = SEND_AFTER.replace('  if (res.send) res.send(body);\n  else res.end(body);\n', '  res.end(body);\n');

async function findings(before: string, after: string) {
  const dir = gitRepo({ 'send.js': before });
  writeFileSync(join(dir, 'send.js'), after);
  return (await runDiff({ cwd: dir })).findings;
}

test('diff: a method the change newly calls on an object whose other members the base tests for presence is found absent', async () => {
  assert.notEqual(SEND_AFTER, SEND_BEFORE);
  const found = await findings(SEND_BEFORE, SEND_AFTER);
  const f = found.find((x) => x.line === 3 && x.message === 'res.getHeader is not a function');
  assert.ok(f, JSON.stringify(found.map((x) => [x.line, x.message])));
  assert.deepEqual(f.evidence.edge, { element: 'exports.send#arg0.getHeader', source: 'undefined' });
});

test('diff: the same new call on an object the base never tested is a new requirement, no finding', async () => {
  assert.notEqual(PLAIN_AFTER, PLAIN_BEFORE);
  assert.deepEqual((await findings(PLAIN_BEFORE, PLAIN_AFTER)).map((x) => [x.line, x.message]), []);
});
