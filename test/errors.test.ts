import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { formatHuman } from '../src/report/formatHuman.ts';
import { originalMessage } from '../src/engine/originalMessage.ts';
import { callSiteWork } from '../src/instrument/v8CallSite.ts';
import { runSnippet } from '../src/index.ts';
import { cli, selected } from './helpers.ts';

/**
 * Errors as Node prints them for the snippet's own code (issue 11). Each snippet fails with its
 * own values; plain Node 24 runs it in a child process, and snipexec must report the very same
 * type and message, in both modes, with no internal name anywhere.
 */
const NODE_TABLE: readonly { name: string; code: string }[] = [
  // calls: V8 names the callee, not the call
  { name: 'method of an object literal', code: 'const byId = { a: 1 }; byId.map((x) => x.name)' },
  { name: 'call of a call result', code: 'const f = { b() { return 1; } }; f.b(1, 2)()' },
  { name: 'method of a call result', code: 'const f = { b() { return {}; } }; f.b().c()' },
  { name: 'computed string key', code: "const a = {}; a['x-y']()" },
  { name: 'computed variable key', code: "const a = {}; const k = 'q'; a[k]()" },
  { name: 'numeric key', code: 'const a = [1]; a[0]()' },
  { name: 'key expression', code: 'const a = [1]; a[a.length - 1]()' },
  { name: 'plain variable', code: 'const x = 1; x()' },
  { name: 'parenthesised member', code: 'const o = { a: 1 }; (o.a)()' },
  { name: 'object literal callee', code: '({ a: 1 })()' },
  { name: 'conditional callee', code: '(1 ? 2 : 3)()' },
  { name: 'n-ary operator callee', code: 'let a = 1, b = 2, c = 3; (a + b + c)()' },
  { name: 'mixed operator callee', code: 'let a = 1, b = 2, c = 3; (a + b - c)()' },
  { name: 'unary callee', code: 'let a = 1; (typeof a)()' },
  { name: 'method of a new instance', code: 'class F {} new F().bar()' },
  { name: 'optional chain as callee', code: 'const o = { a: {} }; (o?.a)()' },
  { name: 'template literal callee', code: 'let b = 1; `a${b}c`()' },
  { name: 'method of a string', code: "const s = 'x'; s.foo()" },
  { name: 'lost this in a plain call', code: 'function g() { this.format(); } g()' },
  { name: 'this of an extracted method', code: "const person = { name: 'a', greet() { return this.format(this.name); } }; const greet = person.greet; greet();" },
  // new
  { name: 'new of a missing member', code: 'const o = {}; new o.X()' },
  { name: 'new of an arrow function', code: 'const C = () => 1; new C()' },
  { name: 'call of a class', code: 'class A {} A()' },
  // property reads and writes
  { name: 'read through a missing member', code: 'const o = { a: 1 }; o.b.c' },
  { name: 'write through a missing member', code: "const cfg = {}; cfg.db.host = 'x'" },
  { name: 'read of null', code: 'const a = null; a.b' },
  { name: 'read of a null call result', code: 'const o = { g() { return null; } }; o.g().h' },
  // destructuring
  { name: 'object pattern of null', code: 'const { a } = null' },
  { name: 'object pattern of a missing member', code: 'const o = {}; const { a } = o.x' },
  { name: 'object pattern of a call result', code: 'const f = () => {}; const { x } = f();' },
  { name: 'object pattern with a default first', code: 'let u; const { x = 1 } = u;' },
  { name: 'empty object pattern', code: 'const {} = null' },
  { name: 'object pattern in an assignment', code: 'let q; ({ a: q } = null)' },
  { name: 'array pattern of a number', code: 'const [x] = 5' },
  { name: 'array pattern of a variable', code: 'let u; const [x] = u;' },
  { name: 'array pattern of a member', code: 'const o = {}; const [a] = o.x' },
  { name: 'array pattern of a call result', code: 'const f = () => {}; const [x] = f();' },
  { name: 'array pattern of a parenthesised value', code: 'let u; const [x] = (u);' },
  { name: 'array pattern in an assignment', code: 'let x; [x] = {};' },
  { name: 'nested array pattern', code: 'const { a: [b] } = { a: 5 }' },
  // iteration and spread
  { name: 'for-of over a missing member', code: 'const o = {}; for (const x of o.items) {}' },
  { name: 'for-of over a call result', code: 'const f = () => {}; for (const x of f()) {}' },
  { name: 'for-of over a short circuit', code: 'let u; for (const x of u || u) {}' },
  { name: 'for await over an object', code: 'for await (const x of {}) {}' },
  { name: 'for await over a call result', code: 'const o = { m() { return 5; } }; for await (const x of o.m()) {}' },
  { name: 'for await over undefined', code: 'let u; for await (const x of u) {}' },
  { name: 'array spread of an object', code: '[...{}]' },
  { name: 'array spread of a missing member', code: 'const o = {}; [...o.x]' },
  { name: 'call spread of null', code: 'Math.max(...null)' },
  { name: 'call spread of a call result', code: 'const f = () => {}; Math.max(...f());' },
  { name: 'call spread of an object', code: 'const o = { x: {} }; Math.max(...o.x)' },
  { name: 'call spread not last', code: 'let u; Math.max(...u, 1);' },
  // errors inside functions, callbacks, constructors
  { name: 'inside a callback of a built-in', code: 'const list = [1]; list.map((x) => x.name.first)' },
  { name: 'inside a constructor', code: 'class A { constructor() { this.q.r; } } new A()' },
  { name: 'inside a nested function', code: 'function f() { return g(); } function g() { let u; return u.v; } f();' },
  { name: 'inside a timer', code: 'setTimeout(() => { const o = {}; o.a.b(); })' },
  { name: 'a built-in rejects its argument', code: "const n = 5; n.toFixed(200)" },
  { name: 'call through Function.prototype.apply', code: 'const f = function () {}; f.call.apply(1)' },
  // V8 messages of native operations on values a hook returned: never a hook name
  { name: 'optional call on a global', code: 'globalThis.q = { a: 1 }; q?.a()' },
  { name: 'tagged template on a global member', code: "globalThis.q = { a: 1 }; q.a`x`" },
  { name: 'nested pattern of a global', code: 'globalThis.q = {}; const { a: [b] } = q' },
  { name: 'class extending a global member', code: 'globalThis.q = {}; class A extends q.B {}' },
];

const PRELOAD = `data:text/javascript,${encodeURIComponent('process.on("uncaughtException", (e) => { process.stdout.write("\\n@@" + JSON.stringify({ type: e.name, message: e.message })); process.exit(7); });')}`;

/** The uncaught error plain Node reports for the code. */
function nodeError(code: string): { type: string; message: string } {
  const r = spawnSync(process.execPath, ['--import', PRELOAD, '-e', code], { encoding: 'utf8', timeout: 30_000 });
  const m = /@@(.*)$/.exec(r.stdout);
  assert.ok(m, `plain node reported no error for ${code}: ${r.stderr}`);
  return JSON.parse(m[1]!) as { type: string; message: string };
}

for (const c of selected(NODE_TABLE)) {
  test(`errors: as node prints it: ${c.name}`, async () => {
    const expected = nodeError(c.code);
    for (const mode of ['none', 'trace'] as const) {
      const r = await runSnippet(c.code, { mode });
      assert.equal(r.status, 'stopped', `${mode}: ${JSON.stringify(r.errors)}`);
      const e = r.errors[0];
      assert.deepEqual({ type: e?.type, message: e?.message }, expected, `${mode}: ${c.code}`);
      assert.equal(e?.attribution, 'snippet', mode);
      const human = formatHuman(r, c.code, false);
      assert.ok(human.includes(`${expected.type}: ${expected.message}`), human);
      assert.doesNotMatch(JSON.stringify(r.errors) + human + r.stdout, /__snx_/);
    }
  });
}

test('errors: the CLI prints the message as node does, in JSON and for humans, with no internal name', () => {
  const code = 'const { a: [b] } = { a: 5 };\n';
  const expected = nodeError(code);
  const json = cli(['run', '-', '--json'], code);
  const human = cli(['run', '-'], code);
  assert.equal((JSON.parse(json.stdout) as { errors: { message: string }[] }).errors[0]?.message, expected.message);
  assert.match(human.stdout, new RegExp(`TypeError: ${expected.message.replace(/[()[\]{}.*+?^$|\\]/g, '\\$&')}`));
  assert.doesNotMatch(json.stdout + human.stdout, /__snx_/);
});

test('errors: the snippet sees the message as node prints it when it catches the error', async () => {
  const code = "const o = {};\ntry { o.p.q; } catch (e) { console.log(e.message); }\ntry { const { a: [b] } = { a: 5 }; } catch (e) { console.log(e.message); }\n";
  const r = await runSnippet(code, { mode: 'none' });
  const plain = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  assert.equal(r.stdout, plain.stdout);
  // Its stack holds the snippet's frames only: none of the runtime's hooks.
  const stack = await runSnippet('function f() { const o = {}; return o.m(); }\ntry { f(); } catch (e) { console.log(e.stack); }\n', { mode: 'none' });
  assert.match(stack.stdout, /^TypeError: o\.m is not a function\n {4}at f \(/);
  assert.doesNotMatch(stack.stdout, /isolated-vm|__snx_|Object\.(mc|call)|invoke/);
});

test('errors: naming the failing expression is linear in the snippet: a chain of 400 operands, or of 400 calls', async () => {
  const n = 400;
  for (const code of [`let a = 1;\nconst s = ${Array.from({ length: n }, () => 'a').join(' + ')};\n`, `const o = { f() { return o; } };\no${'.f()'.repeat(n)};\n`]) {
    const before = { ...callSiteWork };
    const r = await runSnippet(code, { mode: 'none' });
    assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    // Each node is rendered and folded a bounded number of times, into a bounded text (cut at 1,000 characters).
    const steps = callSiteWork.steps - before.steps;
    assert.ok(steps > n && steps < 20 * n, `${steps} steps`);
    assert.ok(callSiteWork.chars - before.chars < 4 * 1000 * n, `${callSiteWork.chars - before.chars} characters`);
  }
});

test('errors: a message that names a hook call is put back as the original names it', () => {
  const hook = '__snx_0123456789';
  assert.equal(originalMessage(`${hook}.ds(...) is not iterable (cannot read property Symbol(Symbol.iterator))`, hook, 'q'), 'q is not iterable (cannot read property Symbol(Symbol.iterator))');
  assert.equal(originalMessage(`${hook}.g(...)?.a is not a function`, hook, 'q'), 'q?.a is not a function');
  assert.equal(originalMessage(`${hook}.m(...) is not a function`, hook, undefined), '(intermediate value) is not a function');
  assert.equal(originalMessage('x is not a function', hook, 'q'), 'x is not a function');
});

/** The other reproductions of §2: what is reported for errors the snippet catches, and for a lost `this`. */
const SPEC_TABLE: readonly {
  name: string; code: string; mode?: 'none' | 'trace'; status: string;
  errors: readonly { type: string; message: string; line: number; caught?: true }[];
  stdout?: string; injected?: RegExp; notInjected?: RegExp;
}[] = [
  {
    name: 'a TypeError the snippet catches is reported as caught; the run completes',
    code: "const cfg = {};\ntry { cfg.db.host = 'x'; } catch (e) { console.error(e.message); }\n",
    status: 'completed', errors: [{ type: 'TypeError', message: "Cannot set properties of undefined (setting 'host')", line: 2, caught: true }],
    stdout: "Cannot set properties of undefined (setting 'host')\n",
  },
  {
    name: 'an operation no hook runs (a member set on null) is placed where V8 raised it, not at the last hooked site before it',
    code: "function f(target, source) {\n  String(source).trim();\n  target[source] = true;\n}\ntry { f(null, 'abc'); } catch (e) { console.log(e.message); }\nconst o = null;\nString(o).trim();\no.x = 1;\n",
    status: 'stopped',
    errors: [{ type: 'TypeError', message: "Cannot set properties of null (setting 'x')", line: 8 }, { type: 'TypeError', message: "Cannot set properties of null (setting 'abc')", line: 3, caught: true }],
    stdout: "Cannot set properties of null (setting 'abc')\n",
  },
  {
    name: 'a catch without a binding, or with a pattern, still sees the error',
    code: 'try { null.x; } catch { }\ntry { const t = {}; t.run(); } catch ({ message }) { console.log(message); }\n',
    status: 'completed',
    errors: [{ type: 'TypeError', message: "Cannot read properties of null (reading 'x')", line: 1, caught: true }, { type: 'TypeError', message: 't.run is not a function', line: 2, caught: true }],
    stdout: 't.run is not a function\n',
  },
  {
    name: 'an error raised in a callback and caught around the call is caught',
    code: 'try {\n  [1].forEach((x) => x.a.b);\n} catch (e) {}\n',
    status: 'completed', errors: [{ type: 'TypeError', message: "Cannot read properties of undefined (reading 'b')", line: 2, caught: true }],
  },
  {
    name: 'errors the snippet throws itself, and errors a built-in throws for its input, are not reported when caught',
    code: "try { throw new TypeError('mine'); } catch (e) {}\ntry { throw TypeError('mine too'); } catch (e) {}\ntry { JSON.parse('{'); } catch (e) {}\ntry { 'x'.repeat(-1); } catch (e) {}\nconsole.log('done');\n",
    status: 'completed', errors: [], stdout: 'done\n',
  },
  {
    name: 'a missing name the snippet probes for with try is not its bug',
    code: "let ok = true;\ntry { undefinedHelper(); } catch (e) { ok = false; }\nconsole.log(ok);\n", mode: 'none',
    status: 'completed', errors: [], stdout: 'false\n',
  },
  {
    name: 'an error caught and thrown again is reported once, as what stopped the run',
    code: 'try { null.x; } catch (e) { throw e; }\n',
    status: 'stopped', errors: [{ type: 'TypeError', message: "Cannot read properties of null (reading 'x')", line: 1 }],
  },
  {
    name: 'an error caught by two nested catches is reported once',
    code: 'try {\n  try { null.x; } catch (e) { throw e; }\n} catch (e2) {}\n',
    status: 'completed', errors: [{ type: 'TypeError', message: "Cannot read properties of null (reading 'x')", line: 2, caught: true }],
  },
  {
    name: 'lost this: a method called plainly gets no global injected for this.format',
    code: "const person = {\n  name: 'Ada',\n  greet() { return this.format(this.name); },\n};\nconst greet = person.greet;\ngreet();\n",
    status: 'stopped', errors: [{ type: 'TypeError', message: 'this.format is not a function', line: 3 }], notInjected: /./,
  },
  {
    name: 'lost this: a function callback of a timer in a method',
    code: "function View() {}\nView.prototype.show = function () {\n  setTimeout(function () { this.render(); });\n};\nnew View().show();\n",
    status: 'stopped', errors: [{ type: 'TypeError', message: 'this.render is not a function', line: 3 }], notInjected: /./,
  },
  {
    name: 'a missing member of an object the snippet built is its bug',
    code: 'const o = { a: 1 };\nconsole.log(o.b.c);\n',
    status: 'stopped', errors: [{ type: 'TypeError', message: "Cannot read properties of undefined (reading 'c')", line: 2 }], notInjected: /./,
  },
  {
    name: 'this of the snippet itself is still injected',
    code: 'console.log(this.title.toUpperCase());\n',
    status: 'completed', errors: [], injected: /^this/,
  },
  {
    name: 'this in a class field is the instance, not the snippet receiver',
    code: 'class Counter {\n  n = 1;\n  get = () => this.n;\n  static label = this.name;\n}\nconsole.log(new Counter().get(), Counter.label);\n',
    status: 'completed', errors: [], stdout: '1 Counter\n', notInjected: /./,
  },
];

for (const c of selected(SPEC_TABLE)) {
  test(`errors: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { mode: c.mode ?? 'trace' });
    assert.equal(r.status, c.status, JSON.stringify(r.errors));
    assert.deepEqual(r.errors.map((e) => ({ type: e.type, message: e.message, line: e.line, ...(e.caught ? { caught: true } : {}) })), c.errors);
    for (const e of r.errors) assert.equal(e.attribution, 'snippet');
    if (c.stdout !== undefined) assert.equal(r.stdout, c.stdout);
    const elements = r.injections.map((i) => i.element);
    if (c.injected) assert.ok(elements.some((id) => c.injected!.test(id)), `injected: ${elements.join(', ')}`);
    if (c.notInjected) assert.deepEqual(elements.filter((id) => c.notInjected!.test(id)), []);
  });
}
