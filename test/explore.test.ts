import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { MAX_STALLED_SCENARIOS } from '../src/engine/explore.ts';
import { runBatch } from '../src/batch/runBatch.ts';
import { selected } from './helpers.ts';
import { runWithNode } from '../src/emit/runWithNode.ts';

/** Each case runs in trace mode; `uncovered` is exact, and the emitted program must reproduce the run. */
const PATHS = [
  {
    name: 'a guard clause on typeof is not taken',
    code: "if (typeof fn !== 'function') {\n  throw new TypeError('fn required');\n}\nconsole.log(typeof fn);",
    uncovered: [2], stdout: 'function\n',
  },
  {
    name: 'a guard clause on a comparison is not taken, and the value learnt avoids it',
    code: "if (mode === 'off') {\n  return;\n}\nconsole.log(mode === 'off');",
    uncovered: [2], stdout: 'false\n',
  },
  {
    name: 'a flag tested by a guard clause is false',
    code: 'if (done) return;\nconsole.log(done);',
    uncovered: [], stdout: 'false\n',
  },
  {
    name: 'a guard whose body outweighs what follows is entered',
    code: "if (cached) {\n  const a = cached.a;\n  const b = cached.b;\n  console.log('hit');\n  return a + b;\n}\nconsole.log('miss');",
    uncovered: [7], stdout: 'hit\n',
  },
  {
    name: 'an if without else is entered',
    code: "if (count > 2) {\n  console.log('many');\n}",
    uncovered: [], stdout: 'many\n',
  },
  {
    name: 'a switch takes the case that runs the most, not the throwing default',
    code: "switch (kind) {\n  case 'a':\n    console.log('a');\n    break;\n  default:\n    throw new Error('bad kind');\n}",
    uncovered: [6], stdout: 'a\n',
  },
  {
    name: 'a length a guard clause answered truthy gives the array an element',
    code: 'var length = list == null ? 0 : list.length;\nif (!length) {\n  return -1;\n}\nconsole.log(length);',
    uncovered: [3], stdout: '1\n',
  },
  {
    name: 'a number a guard clause answered truthy is not 0, whatever its name suggests',
    code: 'if (!index) {\n  return;\n}\nconsole.log(index + 1);',
    uncovered: [2], stdout: '2\n',
  },
  {
    name: 'a string a guard clause answered falsy is empty',
    code: "if (title) {\n  return;\n}\nconsole.log(JSON.stringify(title + '!'));",
    uncovered: [2], stdout: '"!"\n',
  },
  {
    name: 'an unguided comparison is learnt as answered: `\'GET\' !== method` answered false makes method GET',
    code: "if ('GET' !== method && 'HEAD' !== method) {\n  return false;\n}\nconsole.log(method);",
    uncovered: [2], stdout: 'GET\n',
  },
  {
    name: 'a loop\'s first answer wins over the one that ended it',
    code: "while (types[0] === '*') {\n  types.shift();\n}\nconsole.log(types.length);",
    uncovered: [], stdout: '0\n',
  },
  {
    name: 'an undeclared name updated with ++ is injected first',
    code: 'count++;\nconsole.log(typeof count);',
    uncovered: [], stdout: 'number\n',
  },
];

for (const c of selected(PATHS)) {
  test(`explore: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { mode: 'trace' });
    assert.deepEqual(r.lines.uncovered, c.uncovered, JSON.stringify(r.errors));
    assert.equal(r.stdout, c.stdout);
    const again = await runSnippet(r.program ?? '', { mode: 'none', drive: false });
    assert.equal(again.stdout, c.stdout, r.program);
    assert.deepEqual(again.injections, []);
  });
}

test('explore: guard preferences are trace-mode only; dummy runs the code as its values say', async () => {
  const r = await runSnippet("if (typeof fn !== 'function') {\n  throw new TypeError('fn required');\n}\nconsole.log('after');", { mode: 'dummy' });
  assert.deepEqual(r.lines.uncovered, [4]);
});

test('explore: a function declared in a block is seen outside it, as sloppy code does', async () => {
  const r = await runSnippet('{ function f() { return 1; } }\nconsole.log(f());', { mode: 'none' });
  assert.equal(r.stdout, '1\n');
});

test('explore: if (user.isAdmin) {…} else {…} covers both branches over two scenarios; lineCoverage stays the first execution\'s', async () => {
  const code = "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('user');\n}";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [4], 'the first execution takes one way');
  assert.equal(r.explored?.scenarios, 2);
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.equal(r.explored?.lineCoverage, 1);
  assert.equal(r.explored?.branchCoverage, 1);
  assert.deepEqual(r.explored?.kept[0]?.flipped, { text: 'user.isAdmin', line: 1, answer: false });
  assert.deepEqual(r.explored?.kept[0]?.definitions, [{ element: 'user.isAdmin', source: 'var _user_isAdmin = false;' }]);
  const single = await runSnippet(code, { mode: 'trace', scenarios: 1 });
  assert.equal(single.explored, undefined);
  // Exploring changes nothing of the first execution; its lines only say which uncovered line a scenario covered.
  const { explored, ...firstExecution } = r.lines;
  assert.deepEqual(explored, [4]);
  assert.deepEqual(single.lines, firstExecution, 'exploring changes nothing of the first execution');
});

test('explore: a comparison on an injected value is answered the other way; a scenario that adds nothing is not kept', async () => {
  const r = await runSnippet("if (count > 10) {\n  console.log('many');\n} else {\n  console.log('few');\n}\nconsole.log('end');", { mode: 'trace' });
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.equal(r.explored?.kept.length, 1);
  const none = await runSnippet("console.log(user.name);", { mode: 'trace' });
  assert.equal(none.explored?.scenarios, 1, 'no decision to flip: one scenario');
});

test('explore: the batch summary has exploredLineCoverage and exploredBranchCoverage beside the first execution\'s', async () => {
  const items = [
    { id: 'a', code: "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('user');\n}" },
    { id: 'b', code: 'console.log(1);' },
  ];
  async function* dataset() { yield* items; }
  const { summary } = await runBatch(dataset(), { mode: 'trace' }, { concurrency: 1 });
  assert.equal(summary.lineCoverage, 3 / 4);
  assert.equal(summary.exploredLineCoverage, 1);
  assert.equal(summary.branchCoverage, 1 / 2);
  assert.equal(summary.exploredBranchCoverage, 1);
});

test('explore: switch (action.type) covers all four cases, one scenario per case not taken', async () => {
  const code = "switch (action.type) {\n  case 'add':\n    console.log('add');\n    break;\n  case 'remove':\n    console.log('remove');\n    break;\n  case 'reset':\n    console.log('reset');\n    break;\n  case 'undo':\n    console.log('undo');\n    break;\n}";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [6, 7, 9, 10, 12, 13], 'the first execution takes one case');
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.equal(r.explored?.scenarios, 4);
  assert.deepEqual(r.explored?.kept.map((k) => k.flipped), ['remove', 'reset', 'undo'].map((answer) => ({ text: 'switch', line: 1, answer })));
  assert.deepEqual(r.explored?.kept.map((k) => k.definitions.map((d) => d.source)), [['var _action_type = "remove";'], ['var _action_type = "reset";'], ['var _action_type = "undo";']]);
});

test('explore: each kept scenario has its own result, whose completed program takes its branch under plain node', async () => {
  const code = "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('user');\n}";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.equal(r.detail?.scenarios?.length, 1);
  const second = r.detail?.scenarios![0]!;
  assert.deepEqual(second.lines.uncovered, [2], 'scenario 2 takes the else branch');
  assert.equal(second.stdout, 'user\n');
  assert.equal(second.explored, undefined);
  const run = await runWithNode(second.program!, { timeoutMs: 10_000 });
  assert.equal(run.exitCode, 0);
  assert.equal(run.output, 'user\n');
  assert.equal(JSON.parse(JSON.stringify(r)).detail, undefined, 'not in JSON output');
});

/** Each kept scenario's program, run under plain node, prints what the scenario printed. */
async function programsReproduce(r: Awaited<ReturnType<typeof runSnippet>>): Promise<void> {
  for (const s of [r, ...(r.detail?.scenarios ?? [])]) {
    const run = await runWithNode(s.program!, { timeoutMs: 10_000 });
    assert.equal(run.output, s.stdout);
    assert.equal(run.exitCode, 0);
  }
}

test('explore: try { await api.fetch() } catch (e) { … } covers the catch, with a fetch that rejects', async () => {
  const code = "async function load() {\n  try {\n    const data = await api.fetch('/items');\n    console.log('got', data.length);\n  } catch (e) {\n    console.log('failed:', e.message);\n  }\n}\nload();";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [6], 'the first execution succeeds');
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.deepEqual(r.explored?.kept.map((k) => k.flipped), [{ text: 'api.fetch', line: 3, outcome: 'reject' }]);
  assert.equal(r.detail?.scenarios?.[0]?.stdout, 'failed: fetch failed\n');
  await programsReproduce(r);
});

test('explore: a callee not awaited throws instead; a catch with nothing left uncovered asks for nothing', async () => {
  const r = await runSnippet("try {\n  const cfg = parser.parse(text);\n  console.log(cfg.port);\n} catch (e) {\n  console.log('bad config');\n}", { mode: 'trace' });
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.deepEqual(r.explored?.kept.map((k) => k.flipped), [{ text: 'parser.parse', line: 2, outcome: 'throw' }]);
  await programsReproduce(r);
  const covered = await runSnippet("try {\n  console.log(parser.parse(text));\n} catch (e) {\n}", { mode: 'trace' });
  assert.equal(covered.explored?.tried, 1, 'an empty catch has no line to cover: no scenario is tried');
});

test('explore: for (const x of items) covers the body, and the lines after it in the empty case', async () => {
  const code = "function first(items) {\n  for (const x of items) {\n    return x.name;\n  }\n  return 'none';\n}\nconsole.log(first(list));";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [5], 'the first execution enters the loop');
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.deepEqual(r.explored?.kept[0]?.flipped, { text: 'list', line: 2, outcome: 'empty' });
  assert.deepEqual(r.explored?.kept[0]?.definitions, [{ element: 'list', source: 'var list = [];' }]);
  await programsReproduce(r);
});

test('explore: a Node-style (err, data) callback covers both branches, with an injected fs and with the fs environment', async () => {
  const body = (use: string) => `fs.readFile('config.json', 'utf8', function (err, data) {\n  if (err) {\n    console.log('cannot read:', err.message);\n    return;\n  }\n  console.log('read', ${use});\n});`;
  const injected = await runSnippet(body('data.length'), { mode: 'trace' });
  assert.deepEqual(injected.lines.uncovered, [3, 4], 'the first execution reads the file');
  assert.deepEqual(injected.explored?.lines.uncovered, []);
  assert.deepEqual(injected.explored?.kept.map((k) => k.flipped), [{ text: 'fs.readFile#cb2', line: 1, outcome: 'error' }]);
  assert.equal(injected.detail?.scenarios?.[0]?.stdout, 'cannot read: readFile failed\n');
  await programsReproduce(injected);
  const environment = await runSnippet(`const fs = require('fs');\n${body('JSON.parse(data).port')}`, { mode: 'trace' });
  assert.deepEqual(environment.environments?.loaded.includes('node-fs'), true);
  assert.deepEqual(environment.lines.uncovered, [4, 5]);
  assert.deepEqual(environment.explored?.lines.uncovered, []);
  assert.equal(environment.detail?.scenarios?.[0]?.stdout, "cannot read: ENOENT: no such file or directory, open 'config.json'\n", 'the file stays missing: fs fails as Node does');
  await programsReproduce(environment);
});

test('explore: an error-first callback guarded by `if (err) throw err;` throws in the scenario that gives it an error', async () => {
  const code = "fs.readFile('./index.html', function read(err, data) {\n  if (err) {\n    throw err;\n  }\n  console.log(data.length);\n});";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [3]);
  assert.deepEqual(r.explored?.lines.uncovered, [], 'the learning run of the scenario takes the throw too: an injected error is truthy whatever the guard prefers');
  assert.deepEqual(r.explored?.kept.map((k) => k.flipped), [{ text: 'fs.readFile#cb1', line: 1, outcome: 'error' }]);
});

test('explore: a scenario whose learning run covers no line a kept scenario did not is given up before its measured run', async () => {
  const r = await runSnippet("let label = 'short';\nif (opts.verbose) label = 'long';\nconsole.log(label);", { mode: 'trace' });
  assert.equal(r.explored?.tried, 2, 'opts.verbose is answered the other way');
  assert.equal(r.explored?.runs, 1, 'one learning run, no measured one');
  assert.equal(r.explored?.scenarios, 1);
});

test('explore: a driven error-first function gets null first, as Node calls it; a scenario gives it an error', async () => {
  const code = "function handle(err, data) {\n  if (err) {\n    console.log('failed:', err.message);\n    return;\n  }\n  console.log('ok', data.length);\n}";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.drives?.[0]?.args[0], 'null');
  assert.deepEqual(r.lines.uncovered, [3, 4]);
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.deepEqual(r.explored?.kept.map((k) => k.flipped), [{ text: 'handle#arg0', line: 1, outcome: 'error' }]);
  assert.equal(r.detail?.scenarios?.[0]?.stdout, 'failed: handle failed\n');
  assert.deepEqual(r.detail?.scenarios?.[0]?.drives?.[0]?.args[0], 'Object.assign(new Error("handle failed"), { stack: "Error: handle failed" })');
  await programsReproduce(r);
});

test('explore: an injected emitter emits no error event when nothing failed; a scenario emits one', async () => {
  const code = "db.on('error', (err) => {\n  console.log('error:', err.message);\n});\ndb.on('open', () => {\n  console.log('open');\n});";
  const r = await runSnippet(code, { mode: 'trace', drive: false });
  assert.equal(r.stdout, 'open\n');
  assert.deepEqual(r.lines.uncovered, [2]);
  assert.deepEqual(r.explored?.lines.uncovered, []);
  assert.deepEqual(r.explored?.kept.map((k) => k.flipped), [{ text: 'db.on#cb1', line: 1, outcome: 'error' }]);
  assert.equal(r.detail?.scenarios?.[0]?.stdout, 'error: on failed\nopen\n');
  await programsReproduce(r);
});

/** Scenarios form a tree: a value's other outcome first (scenario 2, from 1), then a decision on what it was learnt to be (3, from 2). */
const TREES = [
  {
    name: 'the error a scenario gives a callback is learnt, and a scenario from it answers err.fatal the other way',
    code: "db.query('SELECT 1', function (err, rows) {\n  if (err) {\n    if (err.fatal) {\n      console.log('fatal');\n    } else {\n      console.log('retry');\n    }\n    return;\n  }\n  console.log(rows.length);\n});",
    uncovered: [3, 4, 6, 8],
    flips: [{ text: 'db.query#cb1', line: 1, outcome: 'error' }, { text: 'err.fatal', line: 3, answer: false }],
    stdout: ['fatal\n', 'retry\n'],
  },
  {
    name: 'the error a failing callee throws is learnt from the catch (e.code === "ENOENT"), and a scenario from it takes the other way',
    code: "try {\n  const text = fs.readFileSync(file, 'utf8');\n  console.log(text.length);\n} catch (e) {\n  if (e.code === 'ENOENT') {\n    console.log('missing');\n  } else {\n    console.log('other', e.message);\n  }\n}",
    uncovered: [5, 6, 8],
    flips: [{ text: 'fs.readFileSync', line: 2, outcome: 'throw' }, { text: '(e.code === "ENOENT")', line: 5, answer: false }],
    stdout: ['missing\n', 'other readFileSync failed\n'],
  },
];

for (const c of selected(TREES)) {
  test(`explore: a tree: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { mode: 'trace' });
    assert.deepEqual(r.lines.uncovered, c.uncovered);
    assert.deepEqual(r.explored?.lines.uncovered, []);
    assert.deepEqual(r.explored?.kept.map((k) => [k.scenario, k.from, k.flipped]), [[2, 1, c.flips[0]], [3, 2, c.flips[1]]]);
    assert.deepEqual(r.detail?.scenarios?.map((x) => x.stdout), c.stdout);
    await programsReproduce(r);
  });
}

test('explore: two scenarios reach one level of the tree only', async () => {
  const flat = await runSnippet(TREES[0]!.code, { mode: 'trace', scenarios: 2 });
  assert.deepEqual(flat.explored?.lines.uncovered, [6]);
});

test('explore: an injected failure prints alike in the sandbox and under plain node (its stack names no frame)', async () => {
  const r = await runSnippet("async function f() {\n  try {\n    await api.get();\n  } catch (e) {\n    console.log(e);\n  }\n}\nf();", { mode: 'trace' });
  assert.equal(r.detail?.scenarios?.[0]?.stdout, '[Error: get failed]\n');
  await programsReproduce(r);
});

test('explore: each run of a scenario has at most SCENARIO_TIMEOUT_MS: a flip that makes a loop endless does not use up the snippet\'s budget, and the scenarios after it still run', async () => {
  const code = "if (job.ready) {\n  console.log('ready');\n} else {\n  while (true) {}\n}\nif (flags.on) {\n  console.log('on');\n} else {\n  console.log('off');\n}";
  // A budget far above what the capped scenarios use (about 4 s), so load cannot starve the later ones; without the cap the endless one takes it all.
  const r = await runSnippet(code, { mode: 'trace', timeoutMs: 20_000, totalTimeoutMs: 20_000 });
  assert.equal(r.status, 'completed');
  // The endless scenario (job.ready false) is tried first and ends at its budget, reporting nothing (its learning run never finished).
  assert.ok((r.explored?.tried ?? 0) >= 3, JSON.stringify(r.explored));
  assert.deepEqual(r.explored?.kept.map((k) => k.flipped), [{ text: 'flags.on', line: 6, answer: false }]);
  assert.equal(r.detail?.scenarios?.[0]?.stdout, 'ready\noff\n');
  assert.deepEqual(r.explored?.lines.uncovered, [4]);
});

test('explore: stops after MAX_STALLED_SCENARIOS scenarios that time out; a scenario whose learning run times out is given up without its measured run', async () => {
  // The learnt token is a comment, and nothing in the do…while changes it, so it never ends; every
  // flip keeps that (no learnt function is called in the loop: endStalledLoops.ts has nothing to end).
  // A scenario's second run still learns (option.skipComments, read before the loop).
  const code = "function isComment(token) {\n  return token && (token.type === 'Block' || token.type === 'Line');\n}\nfunction lines(comment) {\n  const option = context.options[0];\n  const skipComments = option && option.skipComments;\n  let token = sourceCode.getTokenBefore(comment), n = 0;\n  do {\n    n++;\n  } while (isComment(token));\n  if (skipComments) console.log('skip');\n  if (token.loc.line > 2) console.log('after');\n  if (comment.kind === 'a') console.log('a');\n  return token;\n}";
  const r = await runSnippet(code, { mode: 'trace', timeoutMs: 1000, totalTimeoutMs: 60_000 });
  assert.equal(r.status, 'timeout');
  const explored = r.explored!;
  assert.equal(explored.stalled, MAX_STALLED_SCENARIOS, JSON.stringify(explored));
  assert.equal(explored.tried, 1 + MAX_STALLED_SCENARIOS, 'every scenario tried stalled, and exploration stopped at the cap');
  // Each stalled scenario: its first learning run, then a learning run that timed out; no measured run after it.
  assert.equal(explored.runs, 2 * MAX_STALLED_SCENARIOS, JSON.stringify(explored));
});

test('explore: `v !== v` in the source, answered true, is learnt as NaN; two results of one injected function compared are not', async () => {
  const code = "const v = iteratee(value);\nif (v !== v) {\n  console.log('nan');\n} else {\n  console.log('num', v + 1);\n}\n";
  const r = await runSnippet(code, { mode: 'trace' });
  assert.equal(r.status, 'completed');
  assert.equal(r.stdout, 'num 2\n');
  assert.deepEqual(r.explored?.lines.uncovered, []);
  const nan = r.explored?.kept.find((k) => 'answer' in k.flipped && k.flipped.text === '(v !== v)');
  assert.ok(nan, JSON.stringify(r.explored?.kept));
  assert.ok(nan.definitions.some((d) => d.source === 'var _iteratee_result = NaN;'), JSON.stringify(nan.definitions));
  assert.equal(r.detail?.scenarios?.[0]?.stdout, 'nan\n');
  // Both calls give one recording proxy, so `a === b` compares it with itself; the guard clause's
  // answer (false) is not `v !== v`, and the token is an object with a range, not NaN.
  const two = await runSnippet("function f() {\n  const a = src.next();\n  const b = src.next();\n  if (a === b) return 'same';\n  return a.range[1];\n}\nconsole.log(f());\n", { mode: 'trace', scenarios: 1 });
  assert.equal(two.status, 'completed', JSON.stringify(two.errors));
  assert.doesNotMatch(two.injections.map((i) => i.source).join('\n'), /NaN/);
});
