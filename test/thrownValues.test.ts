import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { selected } from './helpers.ts';

/**
 * A thrown value that is no Error has no stack to say where it was thrown: it is placed at its
 * `throw` (line and column of the keyword, 1-based, as Node points at it), and its type is what
 * it is (`string`, `number`, `object`, `null`), or its `name` when it has a string one.
 */
interface ThrownCase {
  readonly name: string;
  readonly code: string;
  readonly error: { readonly type: string; readonly message: string; readonly line: number; readonly column: number };
}

const CASES: readonly ThrownCase[] = [
  { name: 'a string at the top level', code: 'const a = 1;\nthrow "boom";\n', error: { type: 'string', message: 'boom', line: 2, column: 1 } },
  { name: 'a plain object, indented', code: 'const a = 1;\n  throw { code: 1 };\n', error: { type: 'object', message: '[object Object]', line: 2, column: 3 } },
  { name: 'a number inside a function', code: 'function f() {\n  throw 42;\n}\nf();\n', error: { type: 'number', message: '42', line: 2, column: 3 } },
  { name: 'null from a timer', code: 'setTimeout(() => {\n  throw null;\n}, 1);\n', error: { type: 'null', message: 'null', line: 2, column: 3 } },
  { name: 'undefined from a callback', code: '[1].forEach(() => {\n    throw undefined;\n});\n', error: { type: 'undefined', message: 'undefined', line: 2, column: 5 } },
  { name: 'an error-like object keeps its name', code: 'throw { name: "MyError", message: "m" };\n', error: { type: 'MyError', message: 'm', line: 1, column: 1 } },
  { name: 'a string caught and thrown again is placed at the second throw', code: 'try {\n  throw "x";\n} catch (e) {\n  throw e;\n}\n', error: { type: 'string', message: 'x', line: 4, column: 3 } },
  { name: 'a boolean after other hooks ran', code: 'const o = { a: [1, 2] };\nconst n = o.a.map((x) => x * 2).length;\nif (n) throw false;\n', error: { type: 'boolean', message: 'false', line: 3, column: 8 } },
  { name: 'an Error keeps where it was made', code: 'const e = new Error("made here");\n\nthrow e;\n', error: { type: 'Error', message: 'made here', line: 1, column: 11 } },
];

for (const c of selected(CASES)) {
  test(`thrown values: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { mode: 'none', drive: false });
    assert.equal(r.status, 'stopped');
    assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
    const [e] = r.errors;
    assert.deepEqual({ type: e?.type, message: e?.message, line: e?.line, column: e?.column }, c.error);
    assert.equal(e?.attribution, 'snippet');
  });
}
