// The access paths a file tests for absence (src/diff/nullishBeliefs.ts): diff's evidence that
// callers send them `undefined` or `null`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nullishBeliefs } from '../src/diff/nullishBeliefs.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

const beliefs = (code: string) => [...nullishBeliefs(parseSnippet(code))].sort();

test('nullishBeliefs: each form of an absence test names its path', () => {
  const table: [string, string[]][] = [
    ['var o = options && options.plain;', ['options']],
    ['var o = opts.sep || "&";', ['opts.sep']],
    ['var o = opts.sep ?? "&";', ['opts.sep']],
    ['if (!cb) return;', ['cb']],
    ['if (this.app) run();', ['this.app']],
    ['var v = a.b ? 1 : 2;', ['a.b']],
    ['if (x == null) return;', ['x']],
    ['if (undefined !== x.y) go();', ['x.y']],
    ['if (x === void 0) go();', ['x']],
    ['if (typeof fn === "undefined") go();', ['fn']],
    ['var n = res?.headers;', ['res']],
    ['done?.();', ['done']],
    ['function f(options = {}) {}', ['options']],
  ];
  for (const [code, expected] of table) assert.deepEqual(beliefs(code), expected, code);
});

test('nullishBeliefs: uses that test nothing are no belief', () => {
  for (const code of ['options.plain.x();', 'if (a.length > 0) go();', 'var x = a[0] && b;', 'if (x === 0) go();', 'var s = f() || g;', 'while (node) node = node.next;']) {
    assert.deepEqual(beliefs(code), [], code);
  }
});
