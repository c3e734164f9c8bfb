import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCategory } from '../src/values/llm/parseCategory.ts';
import { CATEGORIES, type Category } from '../src/core/categories.ts';

/** Classifier replies as models write them, and the category each names (undefined: none, the heuristic decides). */
const REPLIES: readonly (readonly [reply: string, expected: Category | undefined])[] = [
  ['object', 'object'],
  ['The category is object.', 'object'],
  ['object\n\nBecause `config.timeout` is read, it is a record with named members.', 'object'],
  ['- object', 'object'],
  ['DOM element', 'element'],
  ['It is an HTMLElement (a button).', 'element'],
  ['HTMLInputElement', 'element'],
  ['A DOM node', 'element'],
  ['function (it is called)', 'function'],
  ['**array**', 'array'],
  ['`string`', 'string'],
  ['Category: Map', 'Map'],
  [' `Map`.\n', 'Map'],
  ['map', 'Map'],
  ['Category: promise', 'promise'],
  ['A list of users', 'array'],
  ['string[]', 'array'],
  ['dict', 'object'],
  ['a map-like object with get()', 'object'],
  ['callable', 'function'],
  ['It is a method of the client.', 'function'],
  ['async function', 'function'],
  ['async', 'promise'],
  ['Promise<User[]>', 'promise'],
  ['text', 'string'],
  ['an integer', 'number'],
  ['float', 'number'],
  ['bool', 'boolean'],
  ['constructor', 'class'],
  ['exception', 'Error'],
  ['TypeError', 'Error'],
  ['regex', 'RegExp'],
  ['a regular expression', 'RegExp'],
  ['date', 'Date'],
  ['undefined', 'undefined'],
  ['null', 'null'],
  ['undefined (not null: the option is left out)', 'undefined'],
  ['a non-null object', 'object'],
  ['Not a function; it is an object.', 'object'],
  ['<think>Is it a string? It is called, so no.</think>\nfunction', 'function'],
  ['Element: `greet` is a function', 'function'],
  ['Error: greet is not defined, so it is a function', 'function'],
  ['In Node.js, as a Node-style API passes it, err is null', 'null'],
  ['The value is set to a tuple', 'tuple'],
  ['a Set of ids', 'Set'],
  ['None of the above fits.', 'Dummy'],
  ['Dummy', 'Dummy'],
  ['FUNCTION', 'function'],
  ['I cannot tell from this snippet.', undefined],
  ['', undefined],
];

test('classifier reply: the first category word or synonym, case-insensitively', () => {
  for (const [reply, expected] of REPLIES) {
    if (process.env.FILTER && !reply.includes(process.env.FILTER)) continue;
    assert.equal(parseCategory(reply), expected, JSON.stringify(reply));
  }
});

test('classifier reply: every category name, in any case, names itself', () => {
  for (const c of CATEGORIES) {
    assert.equal(parseCategory(c), c);
    assert.equal(parseCategory(c.toUpperCase()), c);
    assert.equal(parseCategory(`The answer: ${c.toLowerCase()}.`), c);
  }
});
