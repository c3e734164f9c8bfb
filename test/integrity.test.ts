import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, selected } from './helpers.ts';

/**
 * Integrity of the runtime inside the isolate (issue 12): the snippet cannot reach, call, replace
 * or observe anything of the runtime. Each case runs the real CLI in a child process and checks the
 * run's true status, its exact output and its true coverage: the lines that must stay uncovered
 * (a function nothing calls, a branch never taken) are exactly the uncovered ones, so a forged
 * counter shows. The runs are made with --no-drive, which would call those functions. The host must survive every case.
 *
 * The forging cases know the hook's name: the snippet reads it off its own functions' source
 * (`String(f)` shows the instrumented code), and then tries every way to reach it.
 */
interface IntegrityCase {
  readonly name: string;
  readonly code: string;
  readonly args?: readonly string[];
  readonly status: 'completed' | 'stopped' | 'pending' | 'memory-limit';
  /** The run's stdout, exactly. */
  readonly stdout: string;
  /** The lines the run leaves uncovered, exactly. */
  readonly uncovered: readonly number[];
  /** Error types of the result (caught ones included), in order; [] when omitted, not checked when null. */
  readonly errors?: readonly string[] | null;
}

const GENEROUS_MS = 60_000;

/** Line 2 is the body of a function nothing calls: a forged counter would cover it. */
const NEVER = 'function never() {\n  console.log("never");\n}\n';
const HOOK_NAME = 'const hook = /__snx_[0-9a-f]+/.exec(String(never))[0];\n';
/** Code that, run where the hook is in scope, counts every statement and branch outcome. */
const FORGE = 'const forge = `for (var i = 0; i < 200; i++) { ${hook}.c(i); ${hook}.b(i, 0); ${hook}.b(i, 1); }`;\n';

const CASES: readonly IntegrityCase[] = [
  {
    name: 'no global, own name (non-enumerable, symbol) or prototype holds the hooks or the lifecycle',
    code: `${NEVER}const hookish = ['c', 'b', 'wp', 'ev', 'main', 'tick', 'drive', 'report', 'adopt', 'afterSnippet', 'loadEnvironment', 'enter'];
const seen = new Set();
const found = [];
const helpers = [];
function walk(v, path, depth) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 5) return;
  seen.add(v);
  let keys;
  try { keys = Reflect.ownKeys(v); } catch { return; }
  let hooks = 0;
  for (const k of keys) {
    if (typeof k === 'string' && hookish.includes(k)) hooks++;
    if (typeof k === 'string' && k.startsWith('__snx')) found.push(path + '.' + k);
    if (typeof k === 'string' && k.startsWith('__snipexec') && depth === 0) helpers.push(k);
    let d;
    try { d = Reflect.getOwnPropertyDescriptor(v, k); } catch { continue; }
    if (d) { walk(d.value, path + '.' + String(k), depth + 1); walk(d.get, path + '.get ' + String(k), depth + 1); walk(d.set, path + '.set ' + String(k), depth + 1); }
  }
  if (hooks >= 2) found.push(path);
  try { walk(Reflect.getPrototypeOf(v), path + '.__proto__', depth + 1); } catch {}
}
walk(globalThis, 'globalThis', 0);
console.log(JSON.stringify(found), seen.size > 500, helpers.sort().join());
`,
    // The helpers injected definitions call are globals, as in the --emit program: they make dummies
    // and the file's own class instances (__snipexec_instance), and reach no hook.
    status: 'completed', stdout: '[] true __snipexec_dummy,__snipexec_element,__snipexec_instance\n', uncovered: [2],
  },
  {
    name: 'the hook named in direct, escaped, spread, shadowed, indirect, optional eval and new Function is refused',
    code: `${NEVER}${HOOK_NAME}${FORGE}const tries = {
  direct() { return eval(forge); },
  escaped() { return eval(forge.replace(/_/g, '\\\\u005f')); },
  braced() { return eval(forge.replace(/_/g, '\\\\u{5f}')); },
  spread() { return eval(...[forge]); },
  parameter() { return (function (eval) { return eval(forge); })(eval); },
  local() { var eval = globalThis.eval; return eval(forge); },
  indirect() { return (0, eval)(forge); },
  optional() { return eval?.(forge); },
  fn() { return new Function(forge)(); },
  global() { return globalThis[hook].c(0); },
};
for (const k of Object.keys(tries)) {
  try { tries[k](); console.log(k, 'ran'); } catch (e) { console.log(k, e.name); }
}
`,
    status: 'completed',
    stdout: ['direct', 'escaped', 'braced', 'spread', 'parameter', 'local', 'indirect', 'optional', 'fn', 'global'].map((k) => `${k} ${k === 'global' ? 'TypeError' : 'ReferenceError'}\n`).join(''),
    // Each try's return is left by the refusal (line 12's first statement runs).
    uncovered: [2, 7, 8, 9, 10, 11, 13, 14, 15, 16],
    errors: null, // which refusals are reported as caught errors is attribution's business, not integrity's
  },
  {
    name: 'with (proxy) is never asked for the hook, so it cannot answer for it',
    code: `${NEVER}const asked = [];
const fake = new Proxy(function () {}, { get: () => fake, apply: () => 0 });
const scope = new Proxy({}, {
  has(t, k) { asked.push(String(k)); return true; },
  get(t, k) { return k === Symbol.unscopables ? undefined : fake; },
});
let covered = 0;
with (scope) {
  covered;
  covered;
}
const answered = asked.filter((k) => k.startsWith('__snx'));
console.log(answered.length, asked.length > 0);
`,
    status: 'completed', stdout: '0 true\n', uncovered: [2],
  },
  {
    name: 'caller and arguments chains from sloppy functions stop at the runtime',
    code: `${NEVER}const mine = new Set();
const reached = [];
function climb(f) {
  for (let i = 0; f && i < 20; i++) {
    if (!mine.has(f)) reached.push(f.name || typeof f);
    let args = [];
    try { args = Array.from(f.arguments || []); } catch {}
    for (const a of args) if (a && (typeof a === 'object' || typeof a === 'function') && ('c' in a || 'tick' in a || 'report' in a)) reached.push('argument');
    f = f.caller;
  }
}
function atTop() { climb(arguments.callee.caller); }
function inTimer() { climb(inTimer.caller); }
function inMap() { climb(inMap.caller); }
function inThen() { climb(inThen.caller); }
function inMicrotask() { climb(inMicrotask.caller); }
function inSort(a, b) { climb(inSort.caller); return a - b; }
function inGetter() { climb(inGetter.caller); return 1; }
function inToString() { climb(inToString.caller); return 'x'; }
function inToJSON() { climb(inToJSON.caller); return 1; }
function nested() { atTop(); }
for (const f of [climb, atTop, inTimer, inMap, inThen, inMicrotask, inSort, inGetter, inToString, inToJSON, nested]) mine.add(f);
atTop();
nested();
setTimeout(inTimer, 1);
[1].map(inMap);
Promise.resolve().then(inThen);
queueMicrotask(inMicrotask);
[2, 1].sort(inSort);
const o = Object.defineProperty({}, 'x', { get: inGetter });
o.x;
String({ toString: inToString });
JSON.stringify({ toJSON: inToJSON });
setTimeout(() => console.log(JSON.stringify(reached)), 5);
`,
    // Every call of the snippet's goes through a hook, so each caller is the runtime's (strict): null; climb's loop never runs.
    status: 'completed', stdout: '[]\n', uncovered: [2, 8, 9, 10, 11, 12],
  },
  {
    name: 'stack frames (prepareStackTrace, captureStackTrace) hand out no runtime function or receiver',
    code: `${NEVER}'snippet-body-marker';
const mine = new Set();
const bad = [];
function look(frames) {
  if (!Array.isArray(frames)) return;
  for (const f of frames) {
    const fn = f.getFunction(), self = f.getThis();
    if (fn !== undefined && !mine.has(fn) && !String(fn).includes('snippet-body-marker')) bad.push('function ' + f.getFunctionName());
    if (self !== undefined && self !== globalThis && (typeof self === 'object' || typeof self === 'function') && !mine.has(self)) bad.push('this ' + f.getFunctionName());
  }
}
Error.prepareStackTrace = (e, frames) => frames;
function made() { look(new Error('x').stack); }
function raised() { try { null.x; } catch (e) { look(e.stack); } }
function captured() { const o = {}; Error.captureStackTrace(o); look(o.stack); }
function inTimer() { made(); raised(); captured(); }
function inGetter() { made(); return 1; }
for (const f of [look, made, raised, captured, inTimer, inGetter]) mine.add(f);
made();
raised();
captured();
setTimeout(inTimer, 1);
Promise.resolve().then(inTimer);
const o = Object.defineProperty({}, 'x', { get: inGetter });
o.x;
setTimeout(() => console.log(JSON.stringify(bad)), 5);
`,
    // null.x is reported once per site and message, though it is caught three times.
    status: 'completed', stdout: '[]\n', uncovered: [2], errors: ['TypeError'],
  },
  {
    name: 'Function.prototype.toString shows no runtime source, and nothing handed over has a prototype leading back',
    code: `const things = { log: console.log, table: console.table, setTimeout, clearTimeout, setInterval, setImmediate, queueMicrotask, Date, now: Date.now, random: Math.random,
  Memory: WebAssembly.Memory, Module: WebAssembly.Module, Instance: WebAssembly.Instance, compile: WebAssembly.compile, instantiate: WebAssembly.instantiate,
  ArrayBuffer, resize: ArrayBuffer.prototype.resize, transfer: ArrayBuffer.prototype.transfer, SharedArrayBuffer, grow: SharedArrayBuffer.prototype.grow };
const shown = Object.keys(things).filter((k) => !/^function \\w*\\(\\) \\{ \\[native code\\] \\}$/.test(Function.prototype.toString.call(things[k])));
const leading = Object.keys(things).filter((k) => things[k].prototype !== undefined && things[k].prototype.constructor !== things[k]);
console.log(JSON.stringify(shown), JSON.stringify(leading), Date.prototype.constructor === Date, new ArrayBuffer(1).constructor === ArrayBuffer);
`,
    status: 'completed', stdout: '[] [] true true\n', uncovered: [],
  },
  ...['none', 'trace'].map((mode): IntegrityCase => ({
    // Patched before the timers, the console and the report run: a one-shot timer fired 10,000 times with splice patched.
    name: `built-ins patched by the snippet take no part in timers, console, promises or the report (mode ${mode})`,
    args: ['--mode', mode],
    code: `const noop = function () { return 0; };
const A = Array.prototype, S = String.prototype;
for (const k of ['push', 'pop', 'shift', 'unshift', 'splice', 'slice', 'map', 'filter', 'forEach', 'join', 'concat', 'indexOf', 'includes', 'fill', 'reduce', 'some', 'every', 'find', 'sort', 'reverse', 'keys', 'values', 'entries']) A[k] = noop;
A[Symbol.iterator] = function* () { yield 'forged'; };
Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true });
for (const k of ['split', 'slice', 'indexOf', 'replace', 'trim', 'repeat', 'padStart', 'toString', 'charCodeAt', 'codePointAt', 'startsWith', 'includes']) S[k] = noop;
S[Symbol.iterator] = noop; S[Symbol.split] = noop; S[Symbol.replace] = noop;
RegExp.prototype.exec = () => null; RegExp.prototype.test = () => true; RegExp.prototype[Symbol.replace] = noop; RegExp.prototype[Symbol.split] = noop;
Promise.prototype.then = noop; Promise.prototype.catch = noop; Promise.prototype.finally = noop; Promise.resolve = noop;
Object.defineProperty(Promise, Symbol.species, { get() { throw new Error('species'); } });
Promise.prototype.constructor = function () { throw new Error('constructor'); };
for (const k of ['get', 'set', 'has', 'delete']) { Map.prototype[k] = noop; Set.prototype[k] = noop; WeakMap.prototype[k] = noop; WeakSet.prototype[k] = noop; }
Set.prototype.add = noop; Map.prototype.entries = noop; Object.getPrototypeOf(new Map().entries()).next = () => ({ done: true });
JSON.stringify = () => '"forged"'; JSON.parse = () => ({ halt: true });
for (const k of ['keys', 'values', 'entries', 'assign', 'freeze', 'create', 'defineProperty', 'getOwnPropertyNames', 'getPrototypeOf', 'setPrototypeOf']) Object[k] = noop;
Function.prototype.call = noop; Function.prototype.apply = noop; Function.prototype.bind = noop;
for (const k of Reflect.ownKeys(Reflect)) if (typeof Reflect[k] === 'function') Reflect[k] = noop;
Array.isArray = () => false; Math.max = () => -1; Math.min = () => 1e9; Math.imul = noop; Math.trunc = noop;
Object.defineProperty(TypeError, Symbol.hasInstance, { value: () => false }); Object.defineProperty(Error, Symbol.hasInstance, { value: () => true });
Object.prototype.toJSON = () => 'forged'; Array.prototype.toJSON = () => 'forged';
Object.prototype.then = function (ok) { ok('forged'); };
Error.prepareStackTrace = () => 'forged';
Date.prototype.toString = noop;
let ticks = 0;
setTimeout(() => { ticks++; console.log('timeout', ticks); }, 10);
const id = setInterval(() => { ticks++; console.log('interval'); clearInterval(id); }, 5);
console.log('a', 1, { b: [2, 3] }, [4, 'five'], null, undefined, true);
console.group('g');
console.log('in');
console.groupEnd();
console.count();
console.count();
console.assert(false, 'bad %s', 'x');
console.table([{ x: 1 }, { x: 2, y: 3 }]);
try { null.x; } catch (e) { console.log('caught'); }
queueMicrotask(() => console.log('micro'));
async function f() { await null; console.log('awaited'); return 1; }
f();
if (ticks === 0) console.log('sync end');
else console.log('never');
`,
    status: 'completed',
    stdout: "a 1 { b: [ 2, 3 ] } [ 4, 'five' ] null undefined true\ng\n  in\ndefault: 1\ndefault: 2\nAssertion failed: bad x\n┌─────────┬───┬───┐\n│ (index) │ x │ y │\n├─────────┼───┼───┤\n│ 0       │ 1 │   │\n│ 1       │ 2 │ 3 │\n└─────────┴───┴───┘\ncaught\nsync end\nmicro\nawaited\ninterval\ntimeout 2\n",
    uncovered: [40],
    errors: ['TypeError'],
  })),
  {
    name: 'accessors on Object.prototype and Array.prototype named as the runtime\'s fields take no part',
    args: ['--mode', 'trace'],
    code: `for (const k of ['0', '1', '2', 'length', 'done', 'id', 'at', 'fn', 'args', 'interval', 'entered', 'halt', 'source', 'probe', 'refs', 'sid', 'attribution', 'stdout', 'errors', 'exit', 'get', 'set', 'constructor', 'then']) {
  Object.defineProperty(Object.prototype, k, { get() { return 'forged'; }, set(v) {}, configurable: true });
}
Object.defineProperty(Array.prototype, '0', { get() { return 'forged'; }, set(v) {}, configurable: true });
setTimeout(() => console.log('timeout'), 10);
for (let i = 0; i < 2; i++) console.log('loop', i);
const text = fs.readFileSync('a.txt', 'utf8');
console.log('done');
`,
    status: 'completed', stdout: 'loop 0\nloop 1\ndone\ntimeout\n', uncovered: [],
  },
  {
    // A value request's reply is read from its own fields only: an inherited halt would end the run as a timeout.
    name: 'values on Object.prototype named as a reply\'s fields (halt, probe, source) do not steer the value requests',
    args: ['--mode', 'trace'],
    code: `Object.prototype.halt = true;
Object.prototype.probe = false;
Object.prototype.source = 'forged';
Object.prototype.refs = ['x'];
const text = fs.readFileSync('a.txt', 'utf8');
console.log('done');
`,
    status: 'completed', stdout: 'done\n', uncovered: [],
  },
  {
    name: 'the top level awaits with Promise.prototype.then and Promise[Symbol.species] patched, and ends when it is done',
    code: `Promise.prototype.then = function () { return this; };
Object.defineProperty(Promise, Symbol.species, { get() { throw new Error('species'); } });
await null;
console.log('after');
await new Promise((resolve) => setTimeout(resolve, 5));
console.log('timer');
`,
    status: 'completed', stdout: 'after\ntimer\n', uncovered: [],
  },
  {
    name: 'a top level waiting forever with Promise.prototype.then patched is pending, not completed',
    code: `Promise.prototype.then = function (ok) { ok(); return this; };
await new Promise(() => {});
console.log('never');
`,
    status: 'pending', stdout: '', uncovered: [2, 3], errors: ['pending'],
  },
  {
    name: 'a WebAssembly.Memory cannot grow past --memory',
    args: ['--memory', '128'],
    code: `const bounded = new WebAssembly.Memory({ initial: 1, maximum: 4 });
console.log(bounded.grow(3), bounded instanceof WebAssembly.Memory);
const m = new WebAssembly.Memory({ initial: 1 });
let pages = 1;
try {
  for (let i = 0; i < 24; i++) { m.grow(1024); pages += 1024; }
} catch (e) {
  console.log(e.name, e.message);
}
console.log(pages, m.buffer.byteLength / 2 ** 20);
try { new WebAssembly.Memory({ initial: 1 }); } catch (e) { console.log(e.name, e.message); }
`,
    status: 'completed',
    // 2048 pages of 64 KiB are 128 MiB; the memory without a maximum may reach what the bounded one left (2044 pages), no more;
    // a maximum is reserved when the memory is made (wasm code can grow it unseen), so a third memory finds no room.
    stdout: '1 true\nRangeError WebAssembly.Memory.grow(): Maximum memory size exceeded\n1025 64.0625\nRangeError WebAssembly.Memory(): could not allocate memory\n',
    uncovered: [6], // the loop the RangeError leaves
    errors: [],
  },
  {
    name: 'a memory a WebAssembly module defines itself cannot grow past --memory, nor be larger',
    args: ['--memory', '128'],
    // (module (memory (export "mem") <limits>) (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))
    code: `const mod = (limits) => new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 6, 1, 0x60, 1, 0x7f, 1, 0x7f, 3, 2, 1, 0, 5, limits.length + 1, 1, ...limits,
  7, 14, 2, 4, 0x67, 0x72, 0x6f, 0x77, 0, 0, 3, 0x6d, 0x65, 0x6d, 2, 0, 10, 8, 1, 6, 0, 0x20, 0, 0x40, 0, 0x0b]);
const { exports } = new WebAssembly.Instance(new WebAssembly.Module(mod([0, 1])));
console.log(exports.grow(1000), exports.grow(1000), exports.grow(1000), exports.mem.buffer.byteLength / 2 ** 20);
try { new WebAssembly.Instance(new WebAssembly.Module(mod([0, 0xb0, 0xea, 0x01]))); } catch (e) { console.log(e.name, e.message); }
WebAssembly.instantiate(mod([1, 1, 2])).then(({ instance }) => console.log('async', instance.exports.grow(1)), (e) => console.log('async', e.name));
`,
    status: 'completed',
    stdout: '1 1001 -1 125.0625\nRangeError WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance\nasync RangeError\n',
    uncovered: [],
  },
  {
    name: 'resizable and growable buffers cannot commit past --memory',
    args: ['--memory', '128'],
    code: `const ab = new ArrayBuffer(0, { maxByteLength: 2 ** 32 });
try { ab.resize(1.5 * 2 ** 30); } catch (e) { console.log(e.name, e.message); }
ab.resize(2 ** 20);
console.log(ab.byteLength, ab.resizable);
try { new ArrayBuffer(2 ** 30, { maxByteLength: 2 ** 30 }); } catch (e) { console.log(e.name); }
try { ab.transfer(2 ** 30); } catch (e) { console.log(e.name); }
const sab = new SharedArrayBuffer(0, { maxByteLength: 2 ** 31 });
try { sab.grow(2 ** 30); } catch (e) { console.log(e.name); }
class Sub extends ArrayBuffer {}
console.log(new Sub(8, { maxByteLength: 16 }) instanceof Sub, new ArrayBuffer(8).byteLength);
`,
    status: 'completed',
    stdout: 'RangeError Array buffer allocation failed\n1048576 true\nRangeError\nRangeError\nRangeError\ntrue 8\n',
    uncovered: [],
  },
];

interface RunResult {
  status: string;
  stdout: string;
  lines: { uncovered: number[] };
  errors: { type: string; message: string }[];
}

for (const c of selected(CASES)) {
  test(`integrity: ${c.name}`, { timeout: 3 * GENEROUS_MS }, () => {
    // --no-drive: the functions nothing calls must stay uncovered (drive would call them, which is no forgery).
    const r = cli(['run', '-', '--json', '--timeout', String(GENEROUS_MS), '--mode', 'none', '--no-drive', ...(c.args ?? [])], c.code, 3 * GENEROUS_MS);
    assert.equal(r.signal, null, `host killed by ${r.signal}: ${r.stderr}`);
    assert.equal(r.code, c.status === 'completed' ? 0 : 1, `exit ${r.code}: ${r.stderr}`);
    const result = JSON.parse(r.stdout) as RunResult;
    assert.equal(result.status, c.status, JSON.stringify(result.errors));
    assert.equal(result.stdout, c.stdout);
    assert.deepEqual(result.lines.uncovered, c.uncovered, 'the true coverage');
    if (c.errors !== null) assert.deepEqual(result.errors.map((e) => e.type), c.errors ?? [], JSON.stringify(result.errors));
  });
}

test('integrity: the hook name is the source\'s own, stable, and occurs nowhere in the source', async () => {
  const { hookNameFor } = await import('../src/instrument/instrumentSnippet.ts');
  const a = hookNameFor('x = 1');
  assert.match(a, /^__snx_[0-9a-f]{10}$/);
  assert.equal(hookNameFor('x = 1'), a, 'the same source, the same name');
  // A source that holds other sources' names (pasted instrumented code) gets a name of its own that it does not hold.
  const pasted = `${a}.c(0); ${hookNameFor('y')}_e = 1;`;
  assert.ok(!pasted.includes(hookNameFor(pasted)));
  assert.notEqual(hookNameFor(pasted), a);
});
