import assert from 'node:assert/strict';
import { after, beforeEach, test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { drainIsolatePool, releasePrepared, returnIsolate, setMaxIsolateRuns, takeIsolate, watchIsolatePool, type DiscardReason, type PoolEvent } from '../src/sandbox/isolatePool.ts';
import { baseSnapshot, compileRuntime, runtimeSource } from '../src/sandbox/runtimeBundle.ts';
import { selected } from './helpers.ts';

/**
 * Warm isolates (src/sandbox/isolatePool.ts) keep cross-snippet isolation as strong as an isolate
 * per run: snippet A poisons what it can reach, then snippet B runs next. When A leaves nothing
 * outside its context, B runs IN A'S ISOLATE (the pool's events say so: otherwise the case proves
 * nothing) and its result (status, output, errors, lines, branches and every counter) is exactly
 * that of B in an isolate of its own. When A used what outlives a context, or ran into a limit,
 * its isolate is disposed with that reason and B gets another.
 */

/** What B reports of the world it runs in: each line is something A tried to change. */
const PROBE = `
const seen = [];
const o = {};
for (const k in o) seen.push('Object.prototype.' + k);
for (const k in []) seen.push('Array.prototype.' + k);
seen.push('fn:' + typeof Function.prototype.poisoned, 'own:' + Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('poison')).join());
seen.push('sym:' + String(Symbol.for('poison.key').description), 'keyFor:' + Symbol.keyFor(Symbol.for('poison.key')));
seen.push('prepare:' + typeof Error.prepareStackTrace, 'limit:' + Error.stackTraceLimit);
seen.push('then:' + (Promise.prototype.then.name), 'json:' + JSON.stringify({ a: [1, 2] }) + ':' + JSON.parse('[3]')[0]);
seen.push('random:' + Math.random().toFixed(12) + ',' + Math.random().toFixed(12));
seen.push('date:' + Date.now(), 'console:' + typeof console.log + ':' + Object.keys(console).length);
seen.push('String:' + 'abc'.toUpperCase() + ',' + [3, 1, 2].sort().join('') + ',' + (1).toFixed(2));
seen.push('regexp:' + /a(b)/.exec('ab')[1] + ',' + RegExp.$1);
seen.push('names:' + ['WeakRef', 'FinalizationRegistry', 'SharedArrayBuffer', 'Atomics', 'WebAssembly', 'Reflect', 'Proxy'].map((n) => typeof globalThis[n]).join());
function branchy(n) {
  if (n > 1) return 'big';
  return n ? 'one' : 'zero';
}
seen.push([0, 1, 2].map(branchy).join());
setTimeout(() => { seen.push('timer'); console.log(seen.join('\\n')); }, 5);
Promise.resolve().then(() => seen.push('microtask'));
await new Promise((r) => setTimeout(r, 1));
seen.push('awaited');
`;

/**
 * What A does that stays in its context: everything it can reach on the global object and the
 * built-ins, the Symbol.for registry, promises that never settle (not awaited), garbage. None of it
 * may reach B, and none of it keeps the isolate from hosting B.
 */
const POISON_IN_CONTEXT = `
Object.prototype.poisonedKey = 'A';
Object.defineProperty(Object.prototype, 'poisonSetter', { set() { globalThis.poisonSet = true; }, get() { return 'A'; }, enumerable: true, configurable: false });
Array.prototype.poisonedIndex = 'A';
Array.prototype[0] = 'A';
Array.prototype.map = function () { return ['A']; };
Array.prototype.sort = function () { return this; };
Array.prototype.join = function () { return 'A'; };
Function.prototype.poisoned = () => 'A';
Function.prototype.call = function () { return 'A'; };
Function.prototype.apply = function () { return 'A'; };
globalThis.poisonGlobal = 'A';
Object.defineProperty(globalThis, 'poisonFrozen', { value: 'A', writable: false, configurable: false });
Symbol.for('poison.key');
Object.defineProperty(Symbol.prototype, 'description', { get() { return 'A'; } });
Error.prepareStackTrace = () => 'A';
Error.stackTraceLimit = 0;
Promise.prototype.then = function () { return 'A'; };
Promise.resolve = () => 'A';
JSON.stringify = () => 'A';
JSON.parse = () => ['A'];
Math.random = () => 0.5;
Date.now = () => 0;
console.log = () => {};
console.poison = 'A';
String.prototype.toUpperCase = () => 'A';
Number.prototype.toFixed = () => 'A';
RegExp.prototype.exec = () => ['A', 'A'];
/(A)/.test('A');
Reflect.apply = () => 'A';
globalThis.Proxy = function () { return 'A'; };
globalThis.setTimeout = () => 0;
new Promise(() => {});
const never = new Promise(() => {});
never.then(() => { globalThis.poisonLate = 'A'; });
let garbage = [];
for (let i = 0; i < 40; i++) garbage.push(new Array(100000).fill(i));
garbage = null;
try { Object.freeze(Object.prototype); Object.freeze(Array.prototype); Object.freeze(Function.prototype); } catch {}
`;

let events: PoolEvent[] = [];
const stop = watchIsolatePool((e) => events.push(e));
after(() => {
  stop();
  drainIsolatePool();
});
beforeEach(() => {
  drainIsolatePool();
  events = [];
});

/** The isolates each run of `fn` had, in order, and how many of its runs had a context the isolate prepared ahead (after its previous run). */
async function isolatesOf<T>(fn: () => Promise<T>): Promise<{ result: T; isolates: number[]; prepared: number }> {
  const from = events.length;
  const result = await fn();
  const seen = events.slice(from);
  return { result, isolates: seen.filter((e) => e.kind === 'run').map((e) => e.isolate), prepared: seen.filter((e) => e.kind === 'prepared').length };
}

/** Why each isolate went, by isolate number. */
function discards(): Map<number, DiscardReason> {
  return new Map(events.filter((e) => e.kind === 'discard').map((e) => [e.isolate, e.reason]));
}

const run = (code: string, timeoutMs = 5_000) => runSnippet(code, { mode: 'none', timeoutMs });

/** What must be the same as in a fresh isolate: the result without its timing, with every counter. */
function observable(r: RunResult): unknown {
  return { status: r.status, stdout: r.stdout, errors: r.errors, lines: r.lines, branches: r.branches, exitCode: r.exitCode, counters: r.detail?.coverage };
}

/** B in an isolate of its own: the pool is drained, so its run makes a new isolate. */
async function fresh(code: string): Promise<unknown> {
  drainIsolatePool();
  const { result, isolates } = await isolatesOf(() => run(code));
  assert.equal(isolates.length, 1);
  drainIsolatePool();
  return observable(result);
}

test('warm isolates: B runs in the isolate A poisoned and sees nothing of it', async () => {
  const expected = await fresh(PROBE);
  assert.match((expected as { stdout: string }).stdout, /^fn:undefined\nown:\nsym:poison\.key/);
  const a = await isolatesOf(() => run(POISON_IN_CONTEXT));
  assert.equal(a.result.status, 'completed', JSON.stringify(a.result.errors));
  const b = await isolatesOf(() => run(PROBE));
  assert.deepEqual(b.isolates, a.isolates, 'B ran in the isolate A poisoned');
  assert.equal(b.prepared, 1, 'B ran in the context the isolate made after A');
  assert.deepEqual(observable(b.result), expected);
});

test('warm isolates: a run of B after B sees the same as the first (its own changes do not carry over either)', async () => {
  const expected = await fresh(PROBE);
  const first = await isolatesOf(() => run(PROBE));
  const second = await isolatesOf(() => run(PROBE));
  assert.deepEqual(second.isolates, first.isolates);
  assert.equal(second.prepared, 1);
  assert.deepEqual(observable(first.result), expected);
  assert.deepEqual(observable(second.result), expected);
});

interface Tainting {
  readonly name: string;
  readonly code: string;
  /** Why A's isolate must go. */
  readonly reason: DiscardReason;
  readonly timeoutMs?: number;
}

/** What A may do that outlives its context, or ends it: each disposes A's isolate. */
const TAINTING: readonly Tainting[] = [
  { name: 'a FinalizationRegistry whose cleanup would run in a later run', reason: 'tainted', code: `const r = new FinalizationRegistry(() => { Object.prototype.poisonedKey = 'A'; });\nfor (let i = 0; i < 1000; i++) r.register({}, i);\nconsole.log('registered');` },
  { name: 'a FinalizationRegistry made through a subclass', reason: 'tainted', code: `class R extends FinalizationRegistry {}\nnew R(() => {}).register({}, 1);` },
  { name: 'a FinalizationRegistry made through its prototype\'s constructor', reason: 'tainted', code: `const C = Object.getPrototypeOf(FinalizationRegistry.prototype) && FinalizationRegistry.prototype.constructor;\nnew C(() => {}).register({}, 1);` },
  { name: 'a FinalizationRegistry made through Reflect.construct', reason: 'tainted', code: `Reflect.construct(FinalizationRegistry, [() => {}]).register({}, 1);` },
  { name: 'a FinalizationRegistry\'s register called through Function.prototype.call', reason: 'tainted', code: `const { register } = FinalizationRegistry.prototype;\nregister.call(new FinalizationRegistry(() => {}), {}, 1);` },
  { name: 'a WeakRef read back', reason: 'tainted', code: `const w = new WeakRef({ a: 1 });\nconsole.log(typeof w.deref());` },
  { name: 'a WeakRef read back through a subclass and a captured method', reason: 'tainted', code: `class W extends WeakRef {}\nconst deref = W.prototype.deref;\nconsole.log(typeof Reflect.apply(deref, new W({}), []));` },
  { name: 'a SharedArrayBuffer and Atomics.wait', reason: 'tainted', code: `const s = new SharedArrayBuffer(16);\nconsole.log(Atomics.wait(new Int32Array(s), 0, 0, 0));` },
  { name: 'Atomics.waitAsync left pending', reason: 'tainted', code: `const s = new SharedArrayBuffer(16);\nAtomics.waitAsync(new Int32Array(s), 0, 0, 100000).value.then(() => { Object.prototype.poisonedKey = 'A'; });` },
  { name: 'a WebAssembly.Memory', reason: 'tainted', code: `const m = new WebAssembly.Memory({ initial: 10 });\nconsole.log(m.buffer.byteLength);` },
  { name: 'WebAssembly.compile left pending', reason: 'tainted', code: `WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => { Object.prototype.poisonedKey = 'A'; });` },
  {
    name: 'a WeakRef, then every way A has to clear the note',
    reason: 'tainted',
    code: `new WeakRef({}).deref();\nObject.defineProperty(Object.prototype, 'tainted', { set() {}, get() { return undefined; } });\nArray.prototype.push = () => 0;\nJSON.stringify = () => '{}';\nglobalThis.WeakRef = undefined;\nfor (const k of Object.getOwnPropertyNames(globalThis)) { try { delete globalThis[k]; } catch {} }`,
  },
  { name: 'an endless microtask chain', reason: 'timeout', timeoutMs: 500, code: `const spin = () => Promise.resolve().then(spin);\nspin();` },
  { name: 'an endless loop', reason: 'timeout', timeoutMs: 500, code: `for (;;) {}` },
  { name: 'an allocation past the memory limit', reason: 'memory-limit', code: `const keep = [];\nfor (;;) keep.push(new Array(1e6).fill(1));` },
  // In pieces: one string of most of the limit makes V8 itself run out of memory while it interns it (the process aborts, isolate per run or not).
  { name: 'strings kept alive by the Symbol.for registry, most of the memory limit', reason: 'heap', code: `for (let i = 0; i < 8; i++) Symbol.for(String(i).repeat(9 * 1024 * 1024));\nconsole.log('kept');` },
];

for (const c of selected(TAINTING)) {
  test(`warm isolates: after ${c.name}, the isolate is disposed (${c.reason}) and B runs in another`, async () => {
    const expected = await fresh(PROBE);
    const a = await isolatesOf(() => run(c.code, c.timeoutMs));
    assert.equal(a.isolates.length, 1);
    assert.equal(discards().get(a.isolates[0] as number), c.reason, `A (${a.result.status}: ${JSON.stringify(a.result.errors)}) left its isolate for another run`);
    const b = await isolatesOf(() => run(PROBE));
    assert.notDeepEqual(b.isolates, a.isolates);
    assert.deepEqual(observable(b.result), expected);
  });
}

/** What A leaves waiting in its released context: each would poison B if it ever ran, and nothing can run it. */
const LEFT_WAITING: readonly { readonly name: string; readonly code: string }[] = [
  { name: 'a timer left pending', code: `setInterval(() => { Object.prototype.poisonedKey = 'A'; globalThis.poisonTimer = 1; }, 1);` },
  { name: 'a timeout far in the future', code: `setTimeout(() => { Function.prototype.poisoned = 1; }, 1e9);` },
  { name: 'a top level waiting on a promise that never settles', code: `Promise.prototype.then.call(new Promise(() => {}), () => { Object.prototype.poisonedKey = 'A'; });\nawait new Promise(() => {});\nObject.prototype.poisonedKey = 'A';` },
  { name: 'a promise whose resolver A kept on its own global', code: `globalThis.poisonResolve = null;\nnew Promise((r) => { globalThis.poisonResolve = r; }).then(() => { Object.prototype.poisonedKey = 'A'; });\nawait new Promise(() => {});` },
];

for (const c of selected(LEFT_WAITING)) {
  test(`warm isolates: after ${c.name}, B runs in A's isolate and nothing of A runs or shows`, async () => {
    const expected = await fresh(PROBE);
    const a = await isolatesOf(() => run(c.code));
    assert.equal(a.isolates.length, 1);
    assert.equal(discards().get(a.isolates[0] as number), undefined, `A (${a.result.status}) cost its isolate`);
    const b = await isolatesOf(() => run(PROBE));
    assert.deepEqual(b.isolates, a.isolates, 'B ran in the isolate A left work waiting in');
    assert.equal(b.prepared, 1, 'B ran in the context the isolate made after A');
    assert.deepEqual(observable(b.result), expected);
  });
}

/**
 * What A leaves unhandled: isolated-vm raises a rejection nobody handled as the error of the call
 * that left it (the run ends as stopped, with an UnhandledRejection) and forgets it (its list is
 * emptied after each call into the isolate), so nothing of it reaches B, and A keeps its isolate.
 */
const LEFT_REJECTED: readonly { readonly name: string; readonly code: string }[] = [
  { name: 'a rejection at the top level', code: `Object.prototype.poisonedKey = 'A';\nPromise.reject(new Error('A'));` },
  { name: 'a rejection in a timer, with a timer still pending', code: `setTimeout(() => { Function.prototype.poisoned = 1; Promise.reject(new Error('A')); }, 1);\nsetInterval(() => { Object.prototype.poisonedKey = 'A'; }, 1e9);` },
  { name: 'an async function that throws, never awaited, and a promise left waiting', code: `(async () => { throw new Error('A'); })();\nnew Promise(() => {}).then(() => { Object.prototype.poisonedKey = 'A'; });` },
];

for (const c of selected(LEFT_REJECTED)) {
  test(`warm isolates: after ${c.name}, B runs in A's isolate and nothing of A shows`, async () => {
    const expected = await fresh(PROBE);
    const a = await isolatesOf(() => run(c.code));
    assert.equal(a.result.status, 'stopped');
    assert.deepEqual(a.result.errors.map((e) => e.type), ['UnhandledRejection']);
    assert.equal(discards().get(a.isolates[0] as number), undefined, 'A cost its isolate');
    const b = await isolatesOf(() => run(PROBE));
    assert.deepEqual(b.isolates, a.isolates, 'B ran in the isolate A left a rejection in');
    assert.equal(b.prepared, 1, 'B ran in the context the isolate made after A');
    assert.deepEqual(observable(b.result), expected);
  });
}

test('warm isolates: an isolate hosts at most maxRuns runs, and with 1 none is reused', async () => {
  const before = setMaxIsolateRuns(2);
  try {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push((await isolatesOf(() => run('console.log(1);'))).isolates[0]);
    assert.equal(runs[0], runs[1]);
    assert.notEqual(runs[1], runs[2]);
    assert.equal(discards().get(runs[0] as number), 'runs');
    setMaxIsolateRuns(1);
    const one = (await isolatesOf(() => run('console.log(1);'))).isolates[0];
    const two = (await isolatesOf(() => run('console.log(1);'))).isolates[0];
    assert.notEqual(one, two);
  } finally {
    setMaxIsolateRuns(before);
  }
});

test('warm isolates: runs in flight at once each have an isolate of their own, and as many stay idle', () => {
  // At the pool's level, where two leases are in flight at once by construction (two runs of runSnippet may not overlap).
  const snapshot = baseSnapshot();
  const first = [takeIsolate(snapshot, 64), takeIsolate(snapshot, 64)];
  assert.notEqual(first[0]?.id, first[1]?.id);
  for (const lease of first) returnIsolate(lease, undefined);
  assert.deepEqual([...discards().keys()], []);
  const second = [takeIsolate(snapshot, 64), takeIsolate(snapshot, 64), takeIsolate(snapshot, 64)];
  try {
    assert.deepEqual(new Set(second.slice(0, 2).map((l) => l.id)), new Set(first.map((l) => l.id)));
    // A third in flight is a new isolate: no idle one was left for it.
    assert.ok(!first.some((l) => l.id === second[2]?.id));
  } finally {
    for (const lease of second) returnIsolate(lease, undefined);
  }
  // Three ran at once: all three stay idle.
  assert.deepEqual([...discards().keys()], []);
});

test('warm isolates: runs of another environment set in between do not cost a run its idle isolate', async () => {
  const plain = (await isolatesOf(() => run('console.log(1);'))).isolates[0];
  const browser = (await isolatesOf(() => run('console.log(typeof document.title);'))).isolates[0];
  assert.notEqual(browser, plain);
  assert.equal((await isolatesOf(() => run('console.log(2);'))).isolates[0], plain);
  assert.equal((await isolatesOf(() => run('console.log(typeof document.body);'))).isolates[0], browser);
});

test('warm isolates: an idle isolate prepares the next context, and one disposed while it does goes quietly', async () => {
  const unhandled: unknown[] = [];
  const note = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', note);
  try {
    const snapshot = baseSnapshot();
    const source = await runtimeSource();
    const lease = takeIsolate(snapshot, 64);
    lease.runtimeScript(source, () => compileRuntime(lease.isolate, source, snapshot));
    returnIsolate(lease, undefined);
    // Disposed at once, while the context is still being made on the isolate's thread.
    drainIsolatePool();
    assert.equal(discards().get(lease.id), 'drained');
    assert.equal(await lease.takePrepared(), undefined);
    const kept = takeIsolate(snapshot, 64);
    kept.runtimeScript(source, () => compileRuntime(kept.isolate, source, snapshot));
    returnIsolate(kept, undefined);
    const again = takeIsolate(snapshot, 64);
    assert.equal(again.id, kept.id);
    const prepared = await again.takePrepared();
    assert.ok(prepared !== undefined, 'the kept isolate prepared a context');
    assert.equal(prepared.start.typeof, 'function', "the runtime's script was evaluated in it");
    // What every run shares was set up there too (boot): the run's start is left only what its config decides.
    // (A context of the isolate has no setTimeout of V8's own: the runtime's is there.)
    assert.equal(prepared.context.evalSync('typeof setTimeout'), 'function');
    const bare = await again.isolate.createContext();
    assert.equal(bare.evalSync('typeof setTimeout'), 'undefined');
    bare.release();
    releasePrepared(prepared);
    returnIsolate(again, 'failed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', note);
  }
});
