import { readFileSync } from 'node:fs';
import ivm from 'isolated-vm';
import { environmentFilename } from '../protocol/environment.ts';
import { RUNTIME_GLOBALS, type LifecycleDispatch } from '../protocol/runtime.ts';
import type { GuestBundle } from './bundleGuest.ts';
import type { RuntimeConfig } from './runtimeConfig.ts';
import { startRuntime, startupSnapshot } from './runtimeBundle.ts';
import { SharedCounters } from './sharedCounters.ts';

/** This module's own source: the probe's rules, part of the key its verdicts are kept on disk under (environmentSnapshots.ts). */
export const PROBE_SOURCE = readFileSync(new URL(import.meta.url), 'utf8');

/** Whether an environment's module may be evaluated into a startup snapshot, and if not, why. */
export interface ProbeVerdict {
  readonly name: string;
  readonly snapshot: boolean;
  readonly reason?: string;
}

/** Where the watched factory leaves what it saw (in the probe's isolate only, which runs no snippet). */
const PROBE_GLOBAL = '__snipexec_probe';
/** The Symbol.for key of the fresh context's global descriptors, by name (in the probe's isolate only). */
const FRESH_KEY = 'snipexec.probe.fresh';
const PROBE_MEMORY_MB = 512;
const PROBE_TIMEOUT_MS = 20_000;

/**
 * Which environments' modules evaluate the same in a startup snapshot as in a run. A snapshot
 * evaluates them before the runtime starts and before any environment's setup; a run evaluates
 * each after the runtime started and after the setups of the ones before it. So the probe loads
 * them as a run does (the runtime started with `config`, then each module evaluated and set up, in
 * order) and watches each module while it is evaluated: a module may go into the snapshot only when
 * it loaded, read and wrote none of the globals the runtime or an earlier environment defined
 * (nor Math.random, nor the time through Date), made nothing a snapshot cannot hold (a registered
 * finalizer, a WebAssembly object), added no global and changed no built-in.
 * Not seen: a built-in captured through a property descriptor rather than read.
 */
export async function probeEnvironments(environments: readonly GuestBundle[], config: RuntimeConfig): Promise<ProbeVerdict[]> {
  const isolate = new ivm.Isolate({ memoryLimit: PROBE_MEMORY_MB, snapshot: startupSnapshot() });
  const bridge = new ivm.Reference(() => '{}');
  let lifecycle: ivm.Reference<LifecycleDispatch> | undefined;
  try {
    const context = await isolate.createContext();
    // The fresh context's globals, to tell the ones the runtime and the setups define or replace.
    await context.eval(`Object.defineProperty(globalThis, Symbol.for(${JSON.stringify(FRESH_KEY)}), { value: new Map(Object.getOwnPropertyNames(globalThis).map((n) => [n, Object.getOwnPropertyDescriptor(globalThis, n)])) })`);
    const counters = new SharedCounters(config.statements, config.branches);
    lifecycle = await startRuntime(isolate, context, { bridge, config: JSON.stringify(config), counters: counters.transferable(), memoryLimitMb: PROBE_MEMORY_MB }, PROBE_TIMEOUT_MS);
    const verdicts: ProbeVerdict[] = [];
    for (const env of environments) {
      let failure: unknown;
      try {
        const factory = (await context.evalClosure(watchedFactory(env.code), [], { filename: environmentFilename(env.name), timeout: PROBE_TIMEOUT_MS, result: { reference: true } })) as ivm.Reference<unknown>;
        failure = await lifecycle.apply(undefined, ['loadEnvironment', env.name, factory.derefInto()] as never, { timeout: PROBE_TIMEOUT_MS, result: { copy: true } });
        factory.release();
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      const seen = JSON.parse(((await context.eval(`JSON.stringify(globalThis.${PROBE_GLOBAL} ?? null)`)) as string) || 'null') as Seen | null;
      await context.eval(`delete globalThis.${PROBE_GLOBAL}`);
      verdicts.push({ name: env.name, ...verdictOf(failure, seen) });
    }
    return verdicts;
  } finally {
    lifecycle?.release();
    bridge.release();
    if (!isolate.isDisposed) isolate.dispose();
  }
}

/** What the watched factory saw while the module was evaluated. */
interface Seen {
  readonly read: string[];
  readonly written: string[];
  readonly added: string[];
  readonly builtinsChanged: boolean;
}

function verdictOf(failure: unknown, seen: Seen | null): { snapshot: boolean; reason?: string } {
  if (typeof failure === 'string' && failure !== '') return { snapshot: false, reason: `it failed to load: ${failure}` };
  if (!seen) return { snapshot: false, reason: 'it was not evaluated' };
  const uniq = (names: string[]) => [...new Set(names)].join(', ');
  if (seen.read.length > 0) return { snapshot: false, reason: `its module reads what the runtime or an earlier environment provides: ${uniq(seen.read)}` };
  if (seen.written.length > 0) return { snapshot: false, reason: `its module writes globals the runtime or an earlier environment defined: ${uniq(seen.written)}` };
  if (seen.added.length > 0) return { snapshot: false, reason: `its module adds globals: ${uniq(seen.added)}` };
  if (seen.builtinsChanged) return { snapshot: false, reason: 'its module changes built-ins' };
  return { snapshot: true };
}

/**
 * The module's factory `(module, exports)`, wrapped to watch what its evaluation does: every global
 * a fresh context lacks or has with another value, and the ones the runtime replaces, become
 * accessors that note reads and writes (restored after), except Date, which notes a call for the time
 * (a call or `new` without arguments, or `now`), and ArrayBuffer and SharedArrayBuffer, which note a
 * resizable or growable buffer (the runtime's counting ones are theirs with the same prototype); and
 * a snapshot of the built-ins' own properties is compared before and after.
 */
function watchedFactory(code: string): string {
  return `const fresh = globalThis[Symbol.for(${JSON.stringify(FRESH_KEY)})];
const same = (a, b) => a !== undefined && b !== undefined && Object.is(a.value, b.value) && a.get === b.get && a.set === b.set;
const replaced = ${JSON.stringify(RUNTIME_GLOBALS)};
return function (module, exports) {
  const G = globalThis, read = [], written = [], restore = [];
  const watch = (owner, key, label, wrap) => {
    const d = Object.getOwnPropertyDescriptor(owner, key);
    if (!d || !d.configurable) return;
    const value = () => (d.get ? d.get.call(owner) : d.value);
    const get = function () { if (!wrap) read.push(label); return wrap ? wrap(value()) : value(); };
    const set = function (v) { written.push(label); Object.defineProperty(owner, key, { value: v, writable: true, configurable: true, enumerable: d.enumerable }); };
    Object.defineProperty(owner, key, { get, set, configurable: true, enumerable: d.enumerable });
    restore.push(() => {
      const now = Object.getOwnPropertyDescriptor(owner, key);
      if (now && now.get === get) Object.defineProperty(owner, key, d);
      else if (!now || now.set !== set) written.push(label);
    });
  };
  // Constructors the runtime replaces with one of the same prototype and statics: capturing the
  // original is the same, except for the time (Date) and for buffers held to the memory limit.
  const proxied = Object.create(null);
  const wrapping = {
    Date: (D) => new Proxy(D, {
      apply(t, self, args) { read.push('Date()'); return Reflect.apply(t, self, args); },
      construct(t, args, nt) { if (args.length === 0) read.push('new Date()'); return Reflect.construct(t, args, nt === proxied.Date ? t : nt); },
      get(t, k) { if (k === 'now') read.push('Date.now'); return Reflect.get(t, k, t); },
    }),
    ArrayBuffer: (B) => resizable(B, 'ArrayBuffer'),
    SharedArrayBuffer: (B) => resizable(B, 'SharedArrayBuffer'),
  };
  const resizable = (B, name) => new Proxy(B, {
    construct(t, args, nt) { if (args[1] && args[1].maxByteLength !== undefined) read.push('new ' + name + '(n, { maxByteLength })'); return Reflect.construct(t, args, nt === proxied[name] ? t : nt); },
  });
  const names = Object.getOwnPropertyNames(G);
  for (const name of names) {
    const wrap = wrapping[name];
    if (typeof wrap === 'function' && typeof G[name] === 'function') watch(G, name, name, (v) => (proxied[name] ??= wrap(v)));
    else if (replaced.includes(name) || !same(fresh.get(name), Object.getOwnPropertyDescriptor(G, name))) watch(G, name, name);
  }
  watch(Math, 'random', 'Math.random');
  // What V8 cannot serialise into a snapshot (createSnapshot aborts the process on it): registered
  // finalizers and WebAssembly objects. Intl objects it can neither, but the snapshot defers those.
  const calls = (label) => (f) => typeof f !== 'function' ? f : new Proxy(f, {
    apply(t, self, args) { read.push(label); return Reflect.apply(t, self, args); },
    construct(t, args, nt) { read.push(label); return Reflect.construct(t, args, nt); },
  });
  if (typeof FinalizationRegistry === 'function') watch(FinalizationRegistry.prototype, 'register', 'FinalizationRegistry#register', calls('FinalizationRegistry#register'));
  if (typeof WebAssembly === 'object') for (const k of Object.getOwnPropertyNames(WebAssembly)) if (typeof WebAssembly[k] === 'function') watch(WebAssembly, k, 'WebAssembly.' + k, calls('WebAssembly.' + k));
  const owners = [Object, Object.prototype, Function.prototype, Array, Array.prototype, String, String.prototype, Number, Number.prototype, Boolean.prototype, Symbol, Symbol.prototype, Promise, Promise.prototype, Map.prototype, Set.prototype, WeakMap.prototype, WeakSet.prototype, RegExp, RegExp.prototype, Error, Error.prototype, JSON, Math, Reflect, ArrayBuffer, ArrayBuffer.prototype, Object.getPrototypeOf(Uint8Array), Object.getPrototypeOf(Uint8Array.prototype), Uint8Array.prototype, DataView.prototype, Date.prototype, Iterator.prototype, Object.getPrototypeOf(function* () {}).prototype];
  const builtins = () => owners.flatMap((o) => Reflect.ownKeys(o).map((k) => { const d = Reflect.getOwnPropertyDescriptor(o, k); return [o, k, d.value, d.get, d.set]; }));
  const before = builtins();
  try {
    (function (module, exports) {
${code}
}).call(this, module, exports);
  } finally {
    const after = builtins();
    const builtinsChanged = before.length !== after.length || before.some((e, i) => e.some((x, j) => !Object.is(x, after[i][j])));
    for (const undo of restore) undo();
    const added = Object.getOwnPropertyNames(G).filter((n) => !names.includes(n));
    Object.defineProperty(G, ${JSON.stringify(PROBE_GLOBAL)}, { value: { read, written, added, builtinsChanged }, configurable: true, writable: true });
  }
};`;
}
