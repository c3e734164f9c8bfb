// The parameters a base version's functions read (readParameters in src/diff/findFragments.ts):
// a whole argument left out counts only where the base read it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readParameters } from '../src/diff/findFragments.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

test('readParameters: the parameters each named function reads; one that reads arguments reads the two drive passes past them', () => {
  const code = [
    'function handler(req, res) { res.send("ok"); }',
    'exports.tag = function (strings) { var args = [].slice.call(arguments, 1); return strings[0] + args; };',
    'var load = function (name, unused) { return cache[name]; };',
    'function outer(a) { return function inner() { return arguments.length; }; }',
  ].join('\n');
  const reads = readParameters(parseSnippet(code));
  assert.deepEqual([...reads.get('handler')!], [1]);
  assert.deepEqual([...reads.get('exports.tag')!].sort(), [0, 1, 2]);
  assert.deepEqual([...reads.get('load')!], [0]);
  assert.deepEqual([...reads.get('outer')!], [], 'a nested function\'s arguments are its own');
});
