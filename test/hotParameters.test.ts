// The parameters a change touches (src/diff/hotParameters.ts): diff tries their edge values first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hotParameters } from '../src/diff/hotParameters.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

const hot = (code: string, changed: number[]) => Object.fromEntries([...hotParameters(parseSnippet(code), new Set(changed))].map(([line, set]) => [line, [...set].sort()]));

test('hotParameters: a parameter read on a changed line of its function (an arrow inside it included)', () => {
  const code = [
    'function stringify(object, prefix, sort) {', // 1
    '  var keys = Object.keys(object);', // 2
    "  var p = prefix.replace(/\\./g, '%2E');", // 3: changed
    '  return keys.map((k) => p + k + sort);', // 4: changed
    '}',
  ].join('\n');
  assert.deepEqual(hot(code, [3, 4]), { 1: [1, 2], 4: [0] }, 'the arrow\'s own parameter too');
  assert.deepEqual(hot(code, [2]), { 1: [0] });
  assert.deepEqual(hot(code, []), {});
});

test('hotParameters: a parameter passed as it is to a touched parameter of another function of the file, up to three calls away', () => {
  const code = [
    'var canonicalType = function canonicalType(value) {', // 1
    '  return Object.getPrototypeOf(value) === null;', // 2: changed
    '};',
    'exports.stringify = function (value, other) {', // 4
    '  return canonicalType(value) && other;',
    '};',
    'function outer(a, b) { return exports.stringify(b, a); }', // 7
    'function shadow(value) { var value2 = value; return canonicalType(value2); }', // 8: not the parameter itself
  ].join('\n');
  assert.deepEqual(hot(code, [2]), { 1: [0], 4: [0], 7: [1] });
});

test('hotParameters: the arguments past the declared ones (those drive passes), where a changed line reads a list made of `arguments`', () => {
  const code = [
    'function tag(chalk, strings) {', // 1
    '  const args = [].slice.call(arguments, 2);', // 2
    '  const parts = [strings.raw[0]];', // 3
    '  for (let i = 1; i < strings.length; i++) parts.push(args[i - 1].toString());', // 4: changed
    '  return parts.join(chalk);', // 5
    '}',
  ].join('\n');
  assert.deepEqual(hot(code, [4]), { 1: [1, 2, 3] });
  assert.deepEqual(hot(code, [5]), { 1: [0] }, 'a line that reads no argument past the declared ones');
  assert.deepEqual(hot(code, [2]), { 1: [2, 3] }, '`arguments` on the changed line itself');
});
