import { createHash } from 'node:crypto';
import ivm from 'isolated-vm';
import { environmentFilename } from '../protocol/environment.ts';
import { ENVIRONMENT_MODULES_GLOBAL, RUNTIME_FILENAME, type LifecycleDispatch, type StartRuntime } from '../protocol/runtime.ts';
import { bundleGuest, type GuestBundle, type GuestBundleRequest } from './bundleGuest.ts';
import { ScriptCodeCache, type CodeCacheCounts } from './scriptCodeCache.ts';
import { nodeUtilScript } from './nodeUtil.ts';
import { codeCacheKeeper, readSnapshot, snapshotKey, writeSnapshot } from './snapshotDiskCache.ts';

/**
 * A startup snapshot isolates are made from, with V8's code caches of the scripts compiled in
 * them, which only isolates made from the same snapshot accept.
 */
export interface StartupSnapshot {
  readonly blob: ivm.ExternalCopy<ArrayBuffer>;
  /** The environments whose modules it evaluated (ENVIRONMENT_MODULES_GLOBAL), in load order. */
  readonly environments: readonly string[];
  /** V8's code caches of the scripts compiled in isolates made from this snapshot (the runtime, the environments loaded at run time), by filename. */
  readonly codeCaches: Map<string, ScriptCodeCache>;
  /** What the blob was made from, in this process's V8 (snapshotKey); undefined when that cannot be known: nothing of it is then kept on disk. */
  readonly key?: string;
  /**
   * What its code caches are kept under: the key and the blob's own bytes. Processes that make the
   * same snapshot at once may make different bytes (V8's hash seeds), and keep only one of them on
   * disk; a code cache made in an isolate of another one is refused by V8 (and made again).
   */
  readonly codeCacheKey?: string;
  /** Where it and its code caches are kept (cacheDir() when absent). */
  readonly dir?: string;
}

/**
 * An environment's module evaluated into a snapshot: its factory `(module, exports)` runs as
 * lifecycle.loadEnvironment would run it, in a script named as the run-time one (its stack frames
 * are the environment's), and its module.exports is kept under ENVIRONMENT_MODULES_GLOBAL.
 */
export function environmentScript(bundle: GuestBundle): ivm.SnapshotScriptInfo {
  const modules = `(globalThis.${ENVIRONMENT_MODULES_GLOBAL} || (globalThis.${ENVIRONMENT_MODULES_GLOBAL} = Object.create(null)))`;
  const code = `(function (modules, module) {\n(function (module, exports) {\n${bundle.code}\n}).call(module.exports, module, module.exports);\nmodules[${JSON.stringify(bundle.name)}] = module.exports;\n})(${modules}, { exports: {} });`;
  return { code, filename: environmentFilename(bundle.name) };
}

/** Where the Intl constructors wait while the environments' modules are evaluated into a snapshot (removed after). */
const REAL_INTL = '__snipexec_realIntl';

/**
 * V8 cannot serialise an Intl object (createSnapshot aborts the process on one), and modules make
 * them at evaluation (cssomnom, in the browser environment, a NumberFormat): while the modules are
 * evaluated, each Intl constructor makes a stand-in of its prototype that makes the real object on
 * first use, in the run's isolate, and hands every access to it.
 */
const DEFER_INTL: ivm.SnapshotScriptInfo = {
  filename: 'snipexec:snapshot-intl',
  code: `(function () {
  const real = Object.create(null);
  for (const name of Object.getOwnPropertyNames(Intl)) {
    const C = Intl[name];
    if (typeof C !== 'function' || typeof C.prototype !== 'object') continue;
    real[name] = Object.getOwnPropertyDescriptor(Intl, name);
    const make = (args, newTarget) => {
      let made;
      const it = () => (made ??= Reflect.construct(C, args, newTarget === Deferred ? C : newTarget));
      const at = (k) => { const o = it(), v = Reflect.get(o, k, o); return typeof v === 'function' ? v.bind(o) : v; };
      return new Proxy(Object.create(C.prototype), {
        get: (_, k) => at(k),
        set: (_, k, v) => Reflect.set(it(), k, v),
        has: (_, k) => Reflect.has(it(), k),
        ownKeys: () => Reflect.ownKeys(it()),
        getOwnPropertyDescriptor: (t, k) => { const d = Reflect.getOwnPropertyDescriptor(it(), k); if (d) d.configurable = true; return d; },
      });
    };
    const Deferred = new Proxy(C, { construct: (_, args, nt) => make(args, nt), apply: (_, __, args) => make(args, Deferred) });
    Object.defineProperty(Intl, name, { ...real[name], value: Deferred });
  }
  Object.defineProperty(globalThis, ${JSON.stringify(REAL_INTL)}, { value: real, configurable: true });
})();`,
};
const RESTORE_INTL: ivm.SnapshotScriptInfo = {
  filename: 'snipexec:snapshot-intl',
  code: `(function () {
  const real = globalThis.${REAL_INTL};
  delete globalThis.${REAL_INTL};
  for (const name of Object.keys(real)) Object.defineProperty(Intl, name, real[name]);
})();`,
};

/**
 * What createSnapshot runs, after the scripts, in a context of its own that the snapshot leaves out
 * (ivm's warm-up script): each environment's setup(host) with a host that stands in for the
 * runtime's, then the drivers it added. V8 keeps the functions it compiled there in the snapshot
 * (the scripts' functions are shared by both contexts), so a run does not compile setup and the
 * modules' functions it calls again. Nothing it does reaches the snapshot's context; what fails
 * for want of the real runtime only leaves those functions to be compiled at run time.
 */
export function warmUpScript(names: readonly string[]): string {
  return `(function () {
  const modules = globalThis.${ENVIRONMENT_MODULES_GLOBAL} || {};
  const drives = [];
  const host = {
    global: globalThis,
    defineGlobal(name, value) { Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false }); },
    defineModule() {},
    defineModuleLoader() {},
    require() { return undefined; },
    afterSnippet(name, drive) { drives.push(drive); },
    topLevelFunctions() { return []; },
    exit() { throw new Error('exit'); },
    valueOf() { return undefined; },
    isProbe() { return false; },
    nextTick() {},
  };
  for (const name of ${JSON.stringify(names)}) {
    try { modules[name].setup(host); } catch {}
  }
  for (const drive of drives) {
    try { drive(); } catch {}
  }
})();`;
}

/** How createStartupSnapshot makes a blob and where it keeps it. */
export interface SnapshotMaking {
  /** What makes the blob when none is kept: ivm.Isolate.createSnapshot; tests count its calls. */
  readonly make?: (scripts: ivm.SnapshotScriptInfo[], warmUp?: string) => ivm.ExternalCopy<ArrayBuffer>;
  /** Where blobs are kept between processes (src/sandbox/snapshotDiskCache.ts): cacheDir() when absent. */
  readonly dir?: string;
}

/**
 * A startup snapshot with Node's util and these environments' modules evaluated (and their setup
 * compiled, warmUpScript): the one kept on disk under the same key when there is one whole, else
 * made (ivm.Isolate.createSnapshot) and kept. Throws what ivm.Isolate.createSnapshot throws.
 */
export function createStartupSnapshot(environments: readonly GuestBundle[], { make = (scripts, warmUp) => ivm.Isolate.createSnapshot(scripts, warmUp), dir }: SnapshotMaking = {}): StartupSnapshot {
  const scripts = environments.length === 0 ? [nodeUtilScript()] : [nodeUtilScript(), DEFER_INTL, ...environments.map(environmentScript), RESTORE_INTL];
  const warmUp = environments.length === 0 ? undefined : warmUpScript(environments.map((e) => e.name));
  const key = snapshotKey(scripts, warmUp);
  const kept = key === undefined ? undefined : readSnapshot(key, dir);
  const blob = kept ?? make(scripts, warmUp);
  if (key !== undefined && kept === undefined) writeSnapshot(key, blob, dir);
  const codeCacheKey = key === undefined ? undefined : createHash('sha256').update(key).update(new Uint8Array(blob.copy() as ArrayBuffer)).digest('hex');
  return { blob, environments: environments.map((e) => e.name), codeCaches: new Map(), ...(key === undefined ? {} : { key, codeCacheKey }), ...(dir === undefined ? {} : { dir }) };
}

let base: StartupSnapshot | undefined;

/** The startup snapshot of a run without environments in it (made once per process, or read from disk: createStartupSnapshot). */
export function baseSnapshot(): StartupSnapshot {
  base ??= createStartupSnapshot([]);
  return base;
}

/** The base startup snapshot's blob (baseSnapshot). */
export function startupSnapshot(): ivm.ExternalCopy<ArrayBuffer> {
  return baseSnapshot().blob;
}

/** The guest runtime's bundle (src/guest/runtime), built like the environments' and cached with them. */
export const RUNTIME_BUNDLE: GuestBundleRequest = { entry: 'src/guest/runtime/index.ts', name: 'runtime' };

/**
 * The runtime's script: the CommonJS bundle in a strict function, evaluating to its `start`
 * (StartRuntime). Nothing of it lands on the global object.
 */
export function runtimeScriptSource(bundleCode: string): string {
  return `(function () {\n'use strict';\nconst module = { exports: {} };\n(function (module, exports) {\n${bundleCode}\n})(module, module.exports);\nreturn module.exports.start;\n})()`;
}

let source: Promise<string> | undefined;
/** How the runtime's compilations went in this process: with the code cache, or producing it. */
export const runtimeCompilations: CodeCacheCounts = { produced: 0, fromCache: 0, rejected: 0, refreshed: 0, loaded: 0 };
/** How the compilations of the environments' bundles loaded at run time went in this process. */
export const environmentCompilations: CodeCacheCounts = { produced: 0, fromCache: 0, rejected: 0, refreshed: 0, loaded: 0 };

/** The code cache of a script (by filename) for the isolates made from `snapshot`, kept on disk with the snapshot. */
export function codeCacheOf(snapshot: StartupSnapshot, filename: string): ScriptCodeCache {
  let cache = snapshot.codeCaches.get(filename);
  if (!cache) {
    const kept = snapshot.codeCacheKey === undefined ? undefined : codeCacheKeeper(snapshot.codeCacheKey, filename, snapshot.dir);
    cache = new ScriptCodeCache(filename, filename === RUNTIME_FILENAME ? runtimeCompilations : environmentCompilations, kept);
    snapshot.codeCaches.set(filename, cache);
  }
  return cache;
}

/** The runtime's script source, bundled on first use (a failed build is tried again by the next run). */
export async function runtimeSource(): Promise<string> {
  source ??= bundleGuest(RUNTIME_BUNDLE).then((b) => runtimeScriptSource(b.code));
  try {
    return await source;
  } catch (error) {
    source = undefined;
    throw error;
  }
}

/**
 * The runtime's script compiled for an isolate made from `snapshot`: the bundle is built once per
 * process (and kept on disk between processes), and compiled from the snapshot's code cache of it
 * (ScriptCodeCache), so starting a run does not parse and compile the runtime again.
 */
export function compileRuntime(isolate: ivm.Isolate, code: string, snapshot: StartupSnapshot = baseSnapshot()): ivm.Script {
  return codeCacheOf(snapshot, RUNTIME_FILENAME).compile(isolate, code);
}

/** Counts a finished run of an isolate made from `snapshot`, which may produce the runtime's code cache again (ScriptCodeCache.refresh). */
export function refreshRuntimeCache(isolate: ivm.Isolate, code: string, snapshot: StartupSnapshot): void {
  codeCacheOf(snapshot, RUNTIME_FILENAME).refresh(isolate, code);
}

/** What `start` (StartRuntime) is handed, in its order. */
export interface RuntimeArguments {
  readonly bridge: ivm.Reference<unknown>;
  /** The RuntimeConfig, as JSON. */
  readonly config: string;
  readonly counters: ivm.Copy<SharedArrayBuffer>;
  readonly memoryLimitMb: number;
}

/**
 * Evaluates the runtime in a fresh context of an isolate made from `snapshot` (the base one when absent) and starts it: the lifecycle's Reference
 * (`compiled`: the runtime's script compiled in this isolate already, which it runs and keeps). The bridge,
 * the config, the counters' buffer and the memory limit are handed to `start` as arguments; no
 * global holds them. The calls are synchronous: they run only the runtime's own code (about a millisecond),
 * which never calls the host, and each hop to the isolate's thread costs more than that.
 */
export async function startRuntime(isolate: ivm.Isolate, context: ivm.Context, args: RuntimeArguments, timeout: number, snapshot?: StartupSnapshot, compiled?: ivm.Script): Promise<ivm.Reference<LifecycleDispatch>> {
  // A script compiled in this isolate before (a warm isolate's, src/sandbox/isolatePool.ts) runs again in the new context, and stays its owner's.
  const script = compiled ?? compileRuntime(isolate, await runtimeSource(), snapshot);
  try {
    return callStart(script.runSync(context, { timeout, reference: true }) as ivm.Reference<unknown>, args, timeout);
  } finally {
    if (compiled === undefined) script.release();
  }
}

/**
 * Calls `start`, what the runtime's script evaluated to in a context (released after), synchronously: the lifecycle's Reference.
 * startRuntime's second half, for a context whose runtime was evaluated ahead of its run (src/sandbox/isolatePool.ts).
 */
export function callStart(start: ivm.Reference<unknown>, args: RuntimeArguments, timeout: number): ivm.Reference<LifecycleDispatch> {
  try {
    return (start as ivm.Reference<StartRuntime>).applySync(undefined, [args.bridge, args.config, args.counters, args.memoryLimitMb] as never, { timeout, result: { reference: true } }) as ivm.Reference<LifecycleDispatch>;
  } finally {
    start.release();
  }
}
