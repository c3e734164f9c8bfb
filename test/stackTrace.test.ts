// Stack traces as Node prints them for the original code (src/guest/runtime/stackTrace.ts,
// src/instrument/stackPositions.ts): each case runs in the sandbox and under plain `node`, and the
// stack the snippet prints must be the same frames, at the same lines and columns, in its file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runWithNode } from '../src/emit/runWithNode.ts';
import { runSnippet } from '../src/index.ts';
import { SNIPPET_PATH } from '../src/protocol/snippetFile.ts';
import { selected } from './helpers.ts';

interface Case {
  readonly name: string;
  readonly code: string;
}

const CASES: readonly Case[] = [
  {
    name: 'a TypeError V8 raises in a function, caught at the top level',
    code: 'function f(o) {\n  return o.x.y;\n}\ntry { f({}); } catch (e) { console.log(e.stack); }\n',
  },
  {
    name: 'an Error the code throws, two calls deep, and one a promise rejects with',
    code: 'function g() {\n  throw new Error("boom");\n}\nfunction h() { return g(); }\ntry { h(); } catch (e) { console.log(e.stack); }\nPromise.reject(new TypeError("later")).catch((e) => console.log(e.stack));\n',
  },
  {
    name: 'a constructor, a method and a callback',
    code: 'class Box {\n  constructor(v) {\n    this.v = v;\n  }\n  open() {\n    return [1].map(() => this.v.trim());\n  }\n}\ntry {\n  new Box(1).open();\n} catch (e) {\n  console.log(e.stack);\n}\n',
  },
  {
    name: 'a member chain over several lines',
    code: 'const o = { a: {} };\ntry {\n  o\n    .a\n    .b\n    .c();\n} catch (e) {\n  console.log(e.stack);\n}\n',
  },
];

/** Node's output with its own frames (module loading) left out and the program's path as the sandbox names it. */
function asSandbox(output: string): string {
  return output
    .split('\n')
    .filter((line) => !/^\s+at .*\(?node:/.test(line) && !/^\s+at (Array\.map|new Promise) \(<anonymous>\)$/.test(line))
    .join('\n')
    .replace(/\/[^\s():]*\/program\.js/g, SNIPPET_PATH);
}

for (const c of selected(CASES)) {
  test(`stack trace: ${c.name}: the frames Node prints`, { timeout: 60_000 }, async () => {
    const [sandbox, node] = await Promise.all([runSnippet(c.code, { mode: 'none', environments: false }), runWithNode(c.code)]);
    assert.equal(sandbox.status, 'completed', JSON.stringify(sandbox.errors));
    const expected = asSandbox(node.output);
    assert.match(expected, /\n\s+at /, `node printed a stack: ${node.output}`);
    assert.equal(sandbox.stdout.split('\n').filter((l) => !/^\s+at (Array\.map|new Promise) \(<anonymous>\)$/.test(l)).join('\n'), expected);
  });
}

test('stack trace: none of the runtime shows: no hook, no runtime script, no isolated-vm frame', async () => {
  const code = 'function f(x) {\n  return x.y.z;\n}\n[1].forEach(() => { try { f(undefined); } catch (e) { console.log(e.stack); } });\nnew Promise((resolve) => resolve()).then(() => { try { null.x; } catch (e) { console.log(e.stack); } });\n';
  const r = await runSnippet(code, { mode: 'none', environments: false });
  assert.equal(r.status, 'completed');
  assert.doesNotMatch(r.stdout, /snipexec:|<isolated-vm>|__snx_|constructNew|methodCall|invoke/);
  assert.match(r.stdout, new RegExp(`at f \\(${SNIPPET_PATH}:2:12\\)`));
});

test('stack trace: a prepareStackTrace of the snippet\'s own formats its errors, as in Node', async () => {
  const code = 'Error.prepareStackTrace = (error, sites) => `${error.message}: ${sites.length > 0}`;\nconsole.log(new Error("mine").stack);\n';
  const r = await runSnippet(code, { mode: 'none', environments: false });
  assert.equal(r.stdout, 'mine: true\n');
});
