import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';

// Issue 30, "Fewer runs": what the learning run saw is enough for the measured run, which then needs
// no second learning round (eval/whyMoreRuns.ts names why a body takes a third run).

test('fewer runs: a function whose result is tested where no recording proxy sees it (`isArray(x) ? a : b`) is learnt returning it', async () => {
  // The conditional's test is not hooked: the proxy's result goes unrecorded, and a function learnt
  // returning nothing made the measured run ask for its result, a second learning run.
  const code = 'var func = isArray(collection) ? arrayEvery : baseEvery;\nconsole.log(typeof func);\n';
  const r = await runSnippet(code, { mode: 'trace', drive: false, scenarios: 1 });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.runs, 2, 'a learning run, then the measured run');
  const isArray = r.injections.find((i) => i.element === 'isArray');
  assert.match(isArray?.source ?? '', /return _isArray_result;/, isArray?.source);
  assert.deepEqual(r.lines.uncovered, []);
});

test('fewer runs: under maxInjections, a result no run saw used yields to the parts a run used', async () => {
  // `check(a)`'s result is learnt too now, after `node.left.type`: with room for five values, the
  // member the learning run read keeps its place, and `check` returns nothing, as it did before.
  const code = 'var r = check(a) ? 1 : 2;\nconsole.log(typeof node.left.type);\n';
  const r = await runSnippet(code, { mode: 'trace', drive: false, scenarios: 1, maxInjections: 5 });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, 'object\n');
  assert.equal(r.injections.find((i) => i.element === 'check()'), undefined);
});
