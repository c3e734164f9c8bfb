// The fields of `this` each function reads and writes (src/diff/thisFields.ts): which sibling
// methods diff calls before a changed one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { thisFields } from '../src/diff/thisFields.ts';

const fields = (code: string) => thisFields(parseSnippet(code)).map((f) => ({ start: f.start, reads: [...f.reads].sort(), writes: [...f.writes].sort() }));

test('thisFields: this.x and a `self` alias, through arrows and nested callbacks, belong to the function that owns the this', () => {
  const code = [
    'P.prototype.close = function () {',
    '  var self = this;',
    '  this.state = null;',
    '  delete this.cache;',
    '  this.count++;',
    '  setTimeout(function () { self.closed = true; }, 1);',
    '  [1].forEach(() => this.seen);',
    '};',
    'P.prototype.read = function () { return this.state.x; };',
  ].join('\n');
  assert.deepEqual(fields(code), [
    { start: 1, reads: ['seen'], writes: ['cache', 'closed', 'count', 'state'] },
    { start: 9, reads: ['state'], writes: [] },
  ]);
});

test('thisFields: a nested function has its own this; a reassigned alias is not this', () => {
  const code = 'function A() {\n  var that = this;\n  that = {};\n  that.x = 1;\n  function inner() { this.y = 2; }\n}';
  assert.deepEqual(fields(code), [{ start: 5, reads: [], writes: ['y'] }]);
});
