import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import ivm from 'isolated-vm';
import { UNIT_CONFIG } from './helpers.ts';
import { HOOKS } from '../src/protocol/hooks.ts';
import { NODE_UTIL_GLOBAL, RUNTIME_FILENAME, TICK_BACKGROUND, TICK_IDLE, type LifecycleDispatch, type StartRuntime, type TickOutcome } from '../src/protocol/runtime.ts';
import { codeCacheOf, compileRuntime, createStartupSnapshot, refreshRuntimeCache, runtimeCompilations, runtimeSource, startRuntime, startupSnapshot, type StartupSnapshot } from '../src/sandbox/runtimeBundle.ts';
import { SharedCounters } from '../src/sandbox/sharedCounters.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';

/**
 * The guest runtime as a unit (src/guest/runtime, bundled and compiled by
 * src/sandbox/runtimeBundle.ts): what starting it leaves in a context, the hook object it hands
 * the snippet, its one start per context, its compilation from V8's code cache, and its
 * typecheck without the DOM or Node.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A fresh isolate and context as a run gets them, with the runtime started in it. */
async function started(snapshot?: StartupSnapshot): Promise<{ isolate: ivm.Isolate; context: ivm.Context; lifecycle: ivm.Reference<LifecycleDispatch>; bridge: ivm.Reference<unknown> }> {
  const isolate = new ivm.Isolate({ memoryLimit: 64, snapshot: (snapshot?.blob ?? startupSnapshot()) });
  const context = await isolate.createContext();
  const bridge = new ivm.Reference(() => '{}');
  const counters = new SharedCounters(UNIT_CONFIG.statements, UNIT_CONFIG.branches);
  const lifecycle = await startRuntime(isolate, context, { bridge, config: JSON.stringify(UNIT_CONFIG), counters: counters.transferable(), memoryLimitMb: 64 }, 10_000, snapshot);
  return { isolate, context, lifecycle, bridge };
}
function globalNames(context: ivm.Context): string[] {
  return JSON.parse(context.evalSync('JSON.stringify(Object.getOwnPropertyNames(globalThis))') as string) as string[];
}

test('guest runtime: starting it adds only the globals the snippet is given, and takes the snapshot\'s Node util off', async () => {
  const isolate = new ivm.Isolate({ memoryLimit: 64, snapshot: startupSnapshot() });
  try {
    const fresh = globalNames(await isolate.createContext());
    const { context, isolate: runIsolate } = await started();
    try {
      const after = globalNames(context);
      // console and Date are V8's own in a fresh context: the runtime replaces them in place.
      // __snipexec_instance: own-class edge values call it (protocol/ownInstance.ts).
      assert.deepEqual(after.filter((n) => !fresh.includes(n)).sort(), ['__snipexec_instance', 'clearImmediate', 'clearInterval', 'clearTimeout', 'queueMicrotask', 'setImmediate', 'setInterval', 'setTimeout']);
      assert.deepEqual(fresh.filter((n) => !after.includes(n)), [NODE_UTIL_GLOBAL]);
    } finally {
      runIsolate.dispose();
    }
  } finally {
    isolate.dispose();
  }
});

test('guest runtime: the hook object has exactly the protocol\'s hook names, and is frozen', async () => {
  const { isolate, context, lifecycle } = await started();
  try {
    const script = (await context.eval('(h) => { globalThis.seen = JSON.stringify([Object.keys(h).sort(), Object.isFrozen(h)]); }', { reference: true })) as ivm.Reference<unknown>;
    await lifecycle.apply(undefined, ['enter', script.derefInto()] as never);
    const [names, frozen] = JSON.parse(context.evalSync('seen') as string) as [string[], boolean];
    assert.deepEqual(names, Object.values(HOOKS).sort());
    assert.equal(frozen, true);
  } finally {
    isolate.dispose();
  }
});

test('guest runtime: it starts once per context', async () => {
  const isolate = new ivm.Isolate({ memoryLimit: 64, snapshot: startupSnapshot() });
  try {
    const context = await isolate.createContext();
    const script = compileRuntime(isolate, await runtimeSource());
    const start = script.runSync(context, { reference: true }) as ivm.Reference<StartRuntime>;
    const args = () => [new ivm.Reference(() => '{}'), JSON.stringify(UNIT_CONFIG), new SharedCounters(1, [2]).transferable(), 64] as never;
    start.applySync(undefined, args(), { result: { reference: true } });
    assert.throws(() => start.applySync(undefined, args(), { result: { reference: true } }), /started already/);
  } finally {
    isolate.dispose();
  }
});

test('guest runtime: compiled from V8\'s code cache after the first isolate of the process', async () => {
  const first = await started();
  first.isolate.dispose();
  const before = { ...runtimeCompilations };
  for (let i = 0; i < 2; i++) (await started()).isolate.dispose();
  assert.deepEqual(runtimeCompilations, { ...before, fromCache: before.fromCache + 2 });
  // Produced by the first isolate, or read from disk, where an earlier process kept it (src/sandbox/snapshotDiskCache.ts).
  assert.equal(runtimeCompilations.produced + (runtimeCompilations.loaded ?? 0), 1);
});

test('guest runtime: the code cache is produced again from the isolates of finished runs, on the 1st, 2nd, 4th… run, with the functions they compiled', async (t) => {
  // A cache directory of its own: no code cache an earlier process kept.
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-runtime-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const snapshot = createStartupSnapshot([], { dir });
  const code = await runtimeSource();
  const size = () => codeCacheOf(snapshot, RUNTIME_FILENAME).bytes;
  const run = async (beforeRefresh?: () => void) => {
    const { isolate, lifecycle } = await started(snapshot);
    try {
      // The report compiles functions the runtime's top level did not.
      assert.equal(typeof lifecycle.applySync(undefined, ['report'] as never, { result: { copy: true } }), 'string');
      beforeRefresh?.();
      refreshRuntimeCache(isolate, code, snapshot);
    } finally {
      isolate.dispose();
    }
  };
  const before = { ...runtimeCompilations };
  let atCompile = 0;
  // The first run refreshes the cache produced when it compiled the runtime: now with what the run compiled.
  await run(() => { atCompile = size(); });
  assert.ok(atCompile > 0);
  assert.equal(runtimeCompilations.refreshed, before.refreshed + 1);
  assert.ok(size() > atCompile, `${size()} > ${atCompile}`);
  await run();
  assert.equal(runtimeCompilations.refreshed, before.refreshed + 2);
  // Run 3 is no power of two: the cache stays; the later isolates compiled from the refreshed cache.
  await run();
  assert.equal(runtimeCompilations.refreshed, before.refreshed + 2);
  assert.equal(runtimeCompilations.rejected, before.rejected);
  assert.equal(runtimeCompilations.fromCache, before.fromCache + 2);
  assert.equal(runtimeCompilations.produced, before.produced + 1);
});

test('guest runtime: typechecks with the ECMAScript library only (no DOM, no Node)', () => {
  const tsc = spawnSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '--noEmit', '-p', `${ROOT}src/guest/runtime/tsconfig.json`], { encoding: 'utf8', timeout: 300_000 });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});

test('guest runtime: the lifecycle dispatch calls only the lifecycle\'s own methods', async () => {
  const { isolate, lifecycle } = await started();
  try {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      await assert.rejects(lifecycle.apply(undefined, [name] as never, { result: { copy: true } }), /no lifecycle method/, name);
    }
    assert.equal(typeof (await lifecycle.apply(undefined, ['report'] as never, { result: { copy: true } })), 'string');
  } finally {
    isolate.dispose();
  }
});

/**
 * What a tick answers when no timer is left and the top level still waits: TICK_BACKGROUND only
 * when the run started work V8 settles off the isolate's thread (an asynchronous WebAssembly
 * compile, Atomics.waitAsync), which the host then waits for; the synchronous WebAssembly API
 * starts none, so its top level waits on nothing that could settle and the run ends at once.
 */
const WAITING: readonly { readonly name: string; readonly code: string; readonly outcome: TickOutcome }[] = [
  { name: 'a WebAssembly.Memory', code: 'new WebAssembly.Memory({ initial: 1 });', outcome: TICK_IDLE },
  { name: 'a WebAssembly.Module and Instance compiled synchronously', code: 'new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])));', outcome: TICK_IDLE },
  { name: 'WebAssembly.validate', code: 'WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));', outcome: TICK_IDLE },
  { name: 'Atomics.waitAsync left pending', code: 'Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(16)), 0, 0, 100000);', outcome: TICK_BACKGROUND },
];

for (const c of WAITING) {
  test(`guest runtime: a top level waiting forever after ${c.name}: the tick answers ${c.outcome === TICK_IDLE ? 'idle' : 'background work'}`, async () => {
    const { isolate, context, lifecycle } = await started();
    try {
      const script = (await context.eval(`(h) => h.main(async function () { ${c.code} await new Promise(() => {}); })`, { reference: true })) as ivm.Reference<unknown>;
      await lifecycle.apply(undefined, ['enter', script.derefInto()] as never);
      assert.equal(await lifecycle.apply(undefined, ['tick'] as never, { result: { copy: true } }), c.outcome);
    } finally {
      isolate.dispose();
    }
  });
}

test('guest runtime: the memory cap, installed before the run\'s start, holds WebAssembly memory to that run\'s --memory', async () => {
  // The cap's wrappers are made once per context (boot); the budget they draw on is the limit `start` is handed.
  const code = 'const m = new WebAssembly.Memory({ initial: 1, maximum: 65536 });\nlet pages = 1;\ntry { for (;;) { m.grow(16); pages += 16; } } catch {}\nconsole.log(pages);';
  const pagesUnder = async (memoryLimitMb: number) => {
    const r = await runSnippet(code, { mode: 'none', memoryLimitMb });
    assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    return Number(r.stdout.trim());
  };
  // 64 KiB pages: 32 MiB is 512 of them, 64 MiB 1024.
  const small = await pagesUnder(32);
  const larger = await pagesUnder(64);
  assert.ok(small > 256 && small <= 512, `--memory 32: ${small} pages`);
  assert.ok(larger > 512 && larger <= 1024, `--memory 64: ${larger} pages`);
});
