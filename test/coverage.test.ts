import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { selected } from './helpers.ts';

/** The metric, pinned: measured lines, uncovered lines and branches of real runs in the sandbox. */
const CASES = [
  { name: 'simple statements', code: 'const a = 1;\nconst b = a + 1;\nconsole.log(b);', measured: [1, 2, 3], uncovered: [], branches: [0, 0] },
  { name: 'exception stops coverage', code: 'const a = 1;\nnull.x;\nconst c = 3;', mode: 'none', status: 'stopped', measured: [1, 2, 3], uncovered: [2, 3], branches: [0, 0] },
  { name: 'if without else', code: 'const a = 1;\nif (a > 0) {\n  console.log("pos");\n}', measured: [1, 2, 3], uncovered: [], branches: [2, 1] },
  { name: 'if with else', code: 'const a = 0;\nif (a > 0) {\n  console.log("pos");\n} else {\n  console.log("neg");\n}', measured: [1, 2, 3, 5], uncovered: [3], branches: [2, 1] },
  { name: 'function never called', code: 'function f() {\n  return 1;\n}\nconst x = 2;', measured: [1, 2, 4], uncovered: [2], branches: [0, 0] },
  { name: 'loop entered', code: 'for (let i = 0; i < 2; i++) {\n  console.log(i);\n}', measured: [1, 2], uncovered: [], branches: [2, 1] },
  { name: 'loop not entered', code: 'for (const x of []) {\n  console.log(x);\n}', measured: [1, 2], uncovered: [2], branches: [2, 1] },
  { name: 'ternary and logical', code: 'const a = 1;\nconst b = a ? "y" : "n";\nconst c = a && b;\nconst d = null ?? 5;', measured: [1, 2, 3, 4], uncovered: [], branches: [6, 3] },
  { name: 'switch cases', code: 'const k = 2;\nswitch (k) {\n  case 1:\n    console.log(1);\n    break;\n  case 2:\n    console.log(2);\n}', measured: [1, 2, 4, 5, 7], uncovered: [4, 5], branches: [2, 1] },
  { name: 'top-level return', code: 'const a = 1;\nreturn a;\nconsole.log("never");', measured: [1, 2, 3], uncovered: [3], branches: [0, 0] },
  { name: 'top-level await', code: 'const v = await Promise.resolve(3);\nconsole.log(v);', measured: [1, 2], uncovered: [], branches: [0, 0] },
  { name: 'timer callback runs on the virtual clock', code: 'setTimeout(() => {\n  console.log("later");\n}, 1000);', measured: [1, 2], uncovered: [], branches: [0, 0] },
  { name: 'try catch', code: 'try {\n  JSON.parse("{");\n} catch (e) {\n  console.log("bad");\n}', mode: 'none', measured: [1, 2, 4], uncovered: [2], branches: [0, 0] },
  { name: 'typescript', code: 'interface P { x: number }\nconst p: P = { x: 1 };\nconsole.log((p as P).x!);', lang: 'ts', measured: [2, 3], uncovered: [], branches: [0, 0] },
  { name: 'jsx', code: 'const el = <div className="a">{name}</div>;\nconsole.log(typeof el);', lang: 'jsx', measured: [1, 2], uncovered: [], branches: [0, 0] },
  { name: 'two statements on a line count once', code: 'const a = 1; const b = 2;\nconsole.log(a + b);', measured: [1, 2], uncovered: [], branches: [0, 0] },
  { name: 'a line is covered when one statement starting on it ran', code: 'const a = 1; null.x;\nconst b = 2;', mode: 'none', status: 'stopped', measured: [1, 2], uncovered: [2], branches: [0, 0] },
  { name: 'a statement inside another on the same line does not decide the line', code: 'const err = null;\nif (err) return err;\nconsole.log(1);', measured: [1, 2, 3], uncovered: [], branches: [2, 1] },
  { name: 'a loop that never ends is not covered', code: 'let i = 0;\nwhile (true) { i++; }', mode: 'none', timeoutMs: 1500, status: 'timeout', measured: [1, 2], uncovered: [2], branches: [2, 1] },
  {
    name: 'a loop left by break, return or a labelled continue is covered',
    code: 'for (const x of [1, 2, 3]) {\n  if (x === 2) break;\n}\nfunction f() {\n  for (;;) {\n    return 1;\n  }\n}\nf();\nL: for (const a of [1]) {\n  for (const b of [2]) {\n    continue L;\n  }\n}\ndo {\n  f();\n} while (false);',
    mode: 'none', measured: [1, 2, 4, 5, 6, 9, 10, 11, 12, 15, 16], uncovered: [], branches: [12, 7],
  },
  { name: 'a loop an exception leaves is not covered', code: 'try {\n  for (const x of [1, 2]) {\n    x.y.z;\n  }\n} catch (e) {}\nconsole.log(1);', mode: 'none', measured: [1, 2, 3, 6], uncovered: [2, 3], branches: [2, 1] },
  { name: 'throw is covered once its operand was evaluated', code: 'console.log(1);\nthrow new Error("boom");', mode: 'none', status: 'stopped', measured: [1, 2], uncovered: [], branches: [0, 0] },
  { name: 'throw whose operand throws is not covered', code: 'function f() {\n  return null.x;\n}\nthrow f();', mode: 'none', status: 'stopped', measured: [1, 2, 4], uncovered: [2, 4], branches: [0, 0] },
] as const;

for (const c of selected(CASES)) {
  test(`coverage: ${c.name}`, async () => {
    // As written (--no-drive): the cases measure what the code itself runs, functions nothing calls included.
    const r = await runSnippet(c.code, { mode: 'mode' in c ? c.mode : 'dummy', drive: false, ...('lang' in c ? { lang: c.lang } : {}), ...('timeoutMs' in c ? { timeoutMs: c.timeoutMs } : {}) });
    const status = 'status' in c ? c.status : 'completed';
    assert.equal(r.status, status, JSON.stringify(r.errors));
    assert.deepEqual(r.lines.measured, [...c.measured], 'measured lines');
    assert.deepEqual(r.lines.uncovered, [...c.uncovered], 'uncovered lines');
    assert.deepEqual([r.branches.total, r.branches.covered], [...c.branches], 'branches');
    assert.equal(r.fullyExecuted, status === 'completed' && c.uncovered.length === 0);
  });
}

test('coverage: a run is deterministic for a seed', async () => {
  const code = 'console.log(Math.random(), Date.now(), new Date().toISOString());';
  const a = await runSnippet(code, { seed: 7 });
  const b = await runSnippet(code, { seed: 7 });
  const c = await runSnippet(code, { seed: 8 });
  assert.equal(a.stdout, b.stdout);
  assert.notEqual(a.stdout, c.stdout);
});
