import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { selected } from './helpers.ts';
import { runWithNode } from '../src/emit/runWithNode.ts';

/** The shapes the trace generator must get right, each checked by what the run then does. */
const SHAPES = [
  {
    name: 'a function returning a pair',
    code: 'const [a, b] = filterCached(cache, sources);\nconsole.log(a.toUpperCase(), b.toFixed(1));',
    check: (out: string) => /^[A-Z ]+ \d+\.\d\n$/.test(out),
    element: 'filterCached()', category: 'tuple',
  },
  {
    name: 'an iterable of string pairs',
    code: 'for (const [prop, value] of declarations) {\n  console.log(prop.toLowerCase(), value.toLowerCase());\n}',
    check: (out: string) => out.trim().split('\n').length >= 1 && !out.includes('undefined'),
    element: 'declarations', category: 'array',
  },
  {
    name: 'a string that ends with what is tested',
    code: "if (url.endsWith('.com')) {\n  console.log('yes', url);\n} else {\n  console.log('no');\n}",
    check: (out: string) => /^yes \S+\.com\n$/.test(out),
    element: 'url', category: 'string', uncovered: [4],
  },
  {
    name: 'a number that takes the branch',
    code: "if (foo.bar > 42) {\n  console.log('big', foo.bar);\n} else {\n  console.log('small');\n}",
    check: (out: string) => /^big 4[3-9]\n$/.test(out),
    element: 'foo.bar', category: 'number', uncovered: [4],
  },
  {
    name: 'a node-style callback runs',
    code: "fs.readFile('a.txt', 'utf8', (err, data) => {\n  if (err) throw err;\n  console.log(data.split('\\n').length);\n});",
    check: (out: string) => /^[2-9]\n$/.test(out),
    element: 'fs.readFile', category: 'function',
  },
  {
    name: 'a nested shape behind a promise',
    code: 'const { data: { items } } = await axios.get(u);\nitems.forEach(i => console.log(i.name.trim()));',
    check: (out: string) => out.trim().length > 0,
    element: 'axios.get()', category: 'promise',
  },
  {
    name: 'a jQuery handler runs',
    code: "$('#btn').on('click', function () {\n  $(this).addClass('on');\n  console.log('clicked');\n});",
    check: (out: string) => out === 'clicked\n',
    element: '$', category: 'function',
  },
  {
    name: 'an Express handler runs with a request and a response',
    code: "const app = require('express')();\napp.get('/users/:id', (req, res) => {\n  res.json({ id: req.params.id.trim() });\n  console.log('served');\n});\napp.listen(3000);",
    check: (out: string) => out === 'served\n',
    element: 'require("express")', category: 'function',
  },
  {
    name: 'a class used with new and its instance methods',
    code: 'const c = new Client({ retries: 3 });\nconst rows = c.query("SELECT 1");\nconsole.log(rows.length > 0 ? rows[0].id.toFixed(0) : "none");',
    check: (out: string) => /^\d+\n$/.test(out),
    element: 'Client', category: 'class',
  },
  {
    name: 'a value compared with a string literal',
    code: "if (user.role === 'admin') {\n  console.log('admin');\n}",
    check: (out: string) => out === 'admin\n',
    element: 'user.role', category: 'string',
  },
  {
    name: 'typeof comparisons',
    code: "if (typeof opts.name === 'string') {\n  console.log(opts.name.length >= 0);\n}",
    check: (out: string) => out === 'true\n',
    element: 'opts.name', category: 'string',
  },
] as const;

for (const c of selected(SHAPES)) {
  test(`trace: ${c.name}`, async () => {
    // The generator alone: with environments, $ and express are the real jQuery and the server environment's.
    const r = await runSnippet(c.code, { mode: 'trace', environments: false });
    // Fully executed, except the else branch a value that takes the then branch must leave.
    assert.deepEqual(r.lines.uncovered, 'uncovered' in c ? c.uncovered : [], `errors ${JSON.stringify(r.errors)}\n${r.program}`);
    assert.equal(r.status, 'completed');
    assert.ok(c.check(r.stdout), `stdout ${JSON.stringify(r.stdout)}\n${r.program}`);
    const inj = r.injections.find((i) => i.element === c.element);
    assert.ok(inj, `no injection for ${c.element}: ${r.injections.map((i) => i.element).join(', ')}`);
    assert.equal(inj.category, c.category, inj.source);
    assert.ok(r.injections.every((i) => i.concrete), 'every value is concrete, none the universal Dummy');
    assert.ok(r.runs >= 2, 'a learning run, then the measured run');
    // Recording proxies never reach the measured run or the program.
    assert.ok(r.program && !/probe/i.test(r.program.split('// ---- snippet ----')[0] ?? ''));
    const again = await runSnippet(r.program, { mode: 'none', drive: false, fileName: 'program.js' });
    assert.equal(again.fullyExecuted, r.fullyExecuted, `emitted program: ${JSON.stringify(again.errors)}\n${r.program}`);
    assert.deepEqual(again.injections, []);
    assert.equal(again.stdout, r.stdout, 'the program does what the measured run did');
  });
}

test('trace: runs are deterministic for a seed', async () => {
  const code = 'const [a, b] = pair();\nfor (const x of list) console.log(a.trim(), b + 1, x.id);';
  const one = await runSnippet(code, { mode: 'trace', seed: 7 });
  const two = await runSnippet(code, { mode: 'trace', seed: 7 });
  assert.equal(one.program, two.program);
  assert.equal(one.stdout, two.stdout);
});

test('trace: a learning run that goes wrong does not count; the measured run is concrete', async () => {
  // During learning `n` is a proxy and the loop ends after two comparisons; the measured run uses a number.
  const r = await runSnippet('let i = 0;\nwhile (i < n) {\n  i++;\n}\nconsole.log(i);', { mode: 'trace' });
  assert.equal(r.fullyExecuted, true, JSON.stringify(r.errors));
  assert.equal(r.injections.find((x) => x.element === 'n')?.category, 'number');
  assert.match(r.stdout, /^\d+\n$/);
});

test('trace: an element used nowhere gets a value from its name', async () => {
  const r = await runSnippet('console.log(apiUrl, isReady, retryCount);', { mode: 'trace' });
  assert.equal(r.stdout, 'https://example.com/ true 3\n');
});

/**
 * Which callback parameters get null (issue 11): only the error of an error-first callback (two or
 * more parameters, the first named err/error/e/ex/er; or one named err/error). An event handler's
 * parameter (one `e`/`evt`/`event`, or any callback of on/addEventListener/click…) is an event
 * object learnt from its use.
 */
const CALLBACK_ARGUMENTS = [
  {
    name: 'an event handler parameter e is an event object, not null',
    code: "$('#save').on('click', function (e) {\n  e.preventDefault();\n  console.log('saved');\n});\n",
    stdout: 'saved\n', element: /#cb1#arg0\.preventDefault$/,
  },
  {
    name: 'a one-parameter callback named e is an event, whatever registers it',
    code: 'loader.load(function (e) {\n  console.log(e.type.length > 0);\n});\n',
    stdout: 'true\n', element: /#cb0#arg0\.type$/,
  },
  {
    name: 'an event handler with two parameters still gets an event first',
    code: "emitter.on('data', (e, more) => console.log(e.size + more.size > 0));\n",
    stdout: 'true\n', element: /#cb1#arg0\.size$/,
  },
  {
    name: 'an error-first callback gets null first',
    code: "fs.readFile('a.txt', (err, data) => {\n  if (err) throw err;\n  console.log(typeof err, data.length > 0);\n});\n",
    stdout: 'object true\n', element: /#cb1#arg1$/,
  },
  {
    name: 'a one-parameter callback named err gets null',
    code: "fs.mkdir('d', (err) => {\n  console.log(err === null);\n});\n",
    stdout: 'true\n', element: /^fs\.mkdir$/,
  },
] as const;

for (const c of selected(CALLBACK_ARGUMENTS)) {
  test(`trace: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { mode: 'trace', environments: false });
    assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    assert.deepEqual(r.errors, []);
    assert.equal(r.stdout, c.stdout, r.program);
    assert.ok(r.injections.some((i) => c.element.test(i.element)), r.injections.map((i) => i.element).join(', '));
    assert.equal(r.lines.uncovered.length, 0, r.program);
  });
}

test('trace: a recording proxy lists one key of its own, so for…in and Object.keys loops run their body and the value learnt has that member', async () => {
  const r = await runSnippet('for (var k in obj) {\n  console.log(k, typeof obj[k]);\n}', { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, []);
  assert.equal(r.stdout, 'key string\n');
  assert.match(r.injections.find((i) => i.element === 'obj')?.source ?? '', /^var obj = \{ key: /);
  // A walk over nested keys ends: a member reached by the listed key lists none of its own.
  const walk = await runSnippet('function walk(o, depth) {\n  for (const k in o) {\n    if (typeof o[k] === "object") walk(o[k], depth + 1);\n    else console.log(depth, k);\n  }\n}\nwalk(tree, 0);', { mode: 'trace' });
  assert.equal(walk.status, 'completed');
  assert.deepEqual(walk.errors, []);
  assert.deepEqual(walk.lines.uncovered, [], 'the recursive call runs, and a leaf is reached');
  assert.equal(walk.stdout, '1 key\n');
  assert.equal(walk.injections.find((i) => i.element === 'tree')?.source, 'var tree = { key: _tree_key };');
});

test('trace: text given to JSON.parse is JSON of the value learnt from how the parsed result is used, also through toString()', async () => {
  const r = await runSnippet("const config = JSON.parse(raw);\nconsole.log(config.port + 1, config.hosts.length);\nconst body = JSON.parse(req.body.toString());\nconsole.log(body.user.name);", { mode: 'trace' });
  assert.equal(r.status, 'completed');
  assert.deepEqual(r.lines.uncovered, []);
  assert.match(r.injections.find((i) => i.element === 'raw')?.source ?? '', /^var raw = JSON\.stringify\(/);
  assert.match(r.injections.find((i) => i.element === 'req.body')?.source ?? '', /JSON\.stringify\(/);
  const run = await runWithNode(r.program!, { timeoutMs: 10_000 });
  assert.equal(run.output, r.stdout);
});

test('trace: an arguments object handed to an injected function is not a bag of callbacks: its callee is not called back (no recursion)', async () => {
  const r = await runSnippet("function run() {\n  helper.call(null, arguments);\n  console.log('done');\n}\nrun(1, 2);", { mode: 'trace' });
  assert.equal(r.stdout, 'done\n');
  // `helper.call(…)` says helper is a function (a value with only call, apply or bind used is one): its own call is the platform's.
  assert.equal(r.injections.find((i) => i.element === 'helper')?.category, 'function');
  assert.equal(r.runs, 2, 'one learning run, one measured run: no stack overflow to retry');
});

test('trace: a function its own call-back hands to an injected function again is called back once, not until the tick cap', async () => {
  // Drive calls wrapper; getHolder is learnt from being handed it. Calling back each time would run
  // wrapper 10,000 times (lodash's createHybrid spent 20 s of exploration so).
  const r = await runSnippet("let n = 0;\nfunction wrapper() {\n  n++;\n  getHolder(wrapper);\n  console.log('call', n);\n}", { mode: 'trace' });
  assert.equal(r.status, 'completed');
  assert.equal(r.stdout, 'call 1\ncall 2\n');
  assert.match(r.injections.find((i) => i.element === 'getHolder')?.source ?? '', /getHolder\.calledBack \?\?= new Set\(\)/);
  const run = await runWithNode(r.program!, { timeoutMs: 10_000 });
  assert.equal(run.output, r.stdout);
});

test('trace: a chain of call-backs that comes back to its first function, and a fresh arrow each time, end too', async () => {
  const chain = await runSnippet("let n = 0;\nfunction ping() {\n  n++;\n  api.later(pong);\n}\nfunction pong() {\n  n++;\n  api.later(ping);\n}\nping();\napi.finish(() => console.log('calls', n));", { mode: 'trace', drive: false });
  assert.equal(chain.status, 'completed');
  assert.ok(Number(/calls (\d+)/.exec(chain.stdout)?.[1]) <= 4, chain.stdout);
  const fresh = await runSnippet("let n = 0;\nfunction loop() {\n  n++;\n  poller.next(() => loop());\n}\nloop();\nsetTimeout(() => console.log('calls', n), 100000);", { mode: 'trace', drive: false });
  assert.equal(fresh.status, 'completed');
  assert.equal(fresh.stdout, 'calls 2\n');
});

test('trace: one callback handed twice from outside itself is called back twice (a counter of pending calls reaches zero)', async () => {
  const r = await runSnippet("let pending = 2;\nfunction done() {\n  if (--pending === 0) console.log('all done');\n}\ndb.query('a', done);\ndb.query('b', done);", { mode: 'trace', drive: false });
  assert.equal(r.stdout, 'all done\n');
  assert.doesNotMatch(r.injections.find((i) => i.element === 'db.query')?.source ?? '', /calledBack/);
});

test('trace: a walk up a chain of recording proxies ends (node.parent.parent…): the learning runs neither recurse until memory runs out nor loop', async () => {
  const r = await runSnippet("function isInside(node) {\n  if (node && node.parent) {\n    if (node.parent.type === 'ForStatement') return true;\n    return isInside(node.parent);\n  }\n  return false;\n}\nlet depth = 0;\nfor (let n = start; n; n = n.next) depth++;\nconsole.log(isInside(leaf), depth);", { mode: 'trace', scenarios: 1 });
  assert.equal(r.status, 'completed');
  assert.deepEqual(r.lines.uncovered, []);
  assert.match(r.stdout, /^(true|false) [1-9]\d*\n$/);
  assert.ok(r.runs <= 5, `runs: ${r.runs}`);
});

test('trace: a recursive walk over what recording proxies yield ends (obj[0][1][0]…): the learning run does not spend its whole operation budget', async () => {
  const r = await runSnippet("const seen = [];\nconst visit = (source) => {\n  if (isObject(source)) {\n    for (const value of source) visit(value);\n    seen.push(source);\n  }\n};\nvisit(obj);\nconsole.log(seen.length > 0);", { mode: 'trace', scenarios: 1 });
  assert.equal(r.status, 'completed');
  assert.deepEqual(r.lines.uncovered, []);
  assert.equal(r.stdout, 'true\n');
  assert.ok(r.runs <= 4, `runs: ${r.runs}`);
});

test('trace: a value whose only members used are apply, call or bind is learnt as a function, not an object holding them', async () => {
  const r = await runSnippet('function wrap(helper) {\n  return function () { return helper.apply(this, arguments); };\n}\nconsole.log(typeof handler, typeof wrap(handler), String(handler.call(null, 1)));\n', {});
  assert.equal(r.injections.find((i) => i.element === 'handler')?.category, 'function');
  assert.match(r.stdout, /^function function /);
});

test('trace: a learnt module is a CommonJS value to an interop helper: __esModule is not learnt, its default import is the value itself', async () => {
  const code = "var __toESM = (mod) => (mod && mod.__esModule ? mod : { default: mod });\nvar isArrayLike = __toESM(require('no-such-package-here/isArrayLike'));\nconsole.log(isArrayLike.default([1]) ? 'yes' : 'no');\n";
  const r = await runSnippet(code, {});
  assert.deepEqual(r.injections.filter((i) => i.element.includes('__esModule')), []);
  assert.deepEqual(r.errors, []);
  assert.match(r.stdout, /^(yes|no)\n$/);
});


test('trace: a member read by a string method of a missing value (`headers[name.toLowerCase()]`) is learnt under that key as the definition computes it', async () => {
  // The learning run reads the member by the proxy of `name.toLowerCase()`; the final `name` is a
  // string, and `headers` gets the member under `String(name).toLowerCase()` too, so the measured
  // run reads the learnt member there instead of undefined.
  const code = "if (typeof name !== 'string') throw new TypeError('name must be a string');\nvar lc = name.toLowerCase();\nconsole.log(typeof headers[lc]);\n";
  const r = await runSnippet(code, { mode: 'trace', drive: false, scenarios: 1 });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, 'object\n');
  const headers = r.injections.find((i) => i.element === 'headers');
  assert.match(headers?.source ?? '', /\[String\(name\)\.toLowerCase\(\)\]: /, headers?.source);
  const run = await runWithNode(r.program!, { timeoutMs: 10_000 });
  assert.equal(run.output, 'object\n');
});

test('trace: a member read by a key another missing value gives is learnt under that value: the run with the final key needs no further learning', async () => {
  // `entry[method]`: the learning run reads the member by the recording proxy's own name, `method`;
  // the final `method` is "get" (learnt from the comparison), which the object has as a computed key.
  const code = "if (method === 'get' && key === undefined) throw new Error('unreached');\nconst entry = table.lookup(key);\nentry[method](key);\nconsole.log(typeof entry.get);\n";
  const r = await runSnippet(code, { mode: 'trace', drive: false, scenarios: 1 });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, 'function\n');
  assert.equal(r.runs, 2, 'a learning run, then the measured run: no second learning round for the member the final key reads');
  const entry = r.injections.find((i) => i.element === 'table.lookup()');
  assert.match(entry?.source ?? '', /\[method\]: /, entry?.source);
  // The completed program runs on its own with it.
  const run = await runWithNode(r.program!, { timeoutMs: 10_000 });
  assert.equal(run.output, 'function\n');
});
