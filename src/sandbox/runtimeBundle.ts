import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ivm from 'isolated-vm';
import { NODE_UTIL_GLOBAL, RUNTIME_FILENAME, type RuntimeLifecycle, type StartRuntime } from '../protocol/runtime.ts';
import { bundleGuest, type GuestBundleRequest } from './bundleGuest.ts';

/**
 * What every isolate starts from. Node's util.inspect (node-inspect-extracted, one self-contained
 * file), which the console prints with: evaluating it takes 10-20 ms, so it is evaluated once, into
 * the startup snapshot, and the runtime takes it off the global object before any other code runs.
 * It reads a global URL (to print URL objects, which an isolate has none of): it gets a class of its own.
 */
function snapshotSources(): ivm.SnapshotScriptInfo[] {
  const nodeUtil = readFileSync(createRequire(import.meta.url).resolve('node-inspect-extracted'), 'utf8');
  const code = `globalThis.${NODE_UTIL_GLOBAL} = (function () { const URL = class URL {}, module = { exports: {} }, exports = module.exports;\n${nodeUtil}\n;return module.exports; })();`;
  return [{ code, filename: 'snipexec:node-util' }];
}
let snapshot: ivm.ExternalCopy<ArrayBuffer> | undefined;

/** The startup snapshot every run's isolate is made from (made once per process). */
export function startupSnapshot(): ivm.ExternalCopy<ArrayBuffer> {
  snapshot ??= ivm.Isolate.createSnapshot(snapshotSources());
  return snapshot;
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

/** A compiled script, with what isolated-vm sets on it when asked for V8's code cache (its typings leave these out). */
type CachingScript = ivm.Script & ivm.CachedDataResult & { readonly cachedDataRejected?: boolean };

let source: Promise<string> | undefined;
/** V8's code cache of the runtime's script, made by the first isolate of the process that compiled it. */
let cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined;
/** How the runtime's compilations went in this process: with the code cache, or producing it. */
export const runtimeCompilations = { produced: 0, fromCache: 0, rejected: 0 };

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
 * The runtime's script compiled for an isolate. The bundle is built once per process (and kept on
 * disk between processes); the first compilation produces V8's code cache, which every later
 * isolate compiles from, so starting a run does not parse and compile the runtime again. The code
 * cache is only accepted by isolates made from the same startup snapshot, as all of snipexec's are;
 * a rejected one is produced again.
 */
export function compileRuntime(isolate: ivm.Isolate, code: string): ivm.Script {
  if (cachedData) {
    const script = isolate.compileScriptSync(code, { filename: RUNTIME_FILENAME, cachedData }) as CachingScript;
    if (!script.cachedDataRejected) {
      runtimeCompilations.fromCache++;
      return script;
    }
    runtimeCompilations.rejected++;
    script.release();
  }
  const script = isolate.compileScriptSync(code, { filename: RUNTIME_FILENAME, produceCachedData: true }) as CachingScript;
  if (script.cachedData) {
    cachedData = script.cachedData;
    runtimeCompilations.produced++;
  }
  return script;
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
 * Evaluates the runtime in a fresh context and starts it: the lifecycle's Reference. The bridge,
 * the config, the counters' buffer and the memory limit are handed to `start` as arguments; no
 * global holds them. The calls are synchronous: they run only the runtime's own code (about a millisecond),
 * which never calls the host, and each hop to the isolate's thread costs more than that.
 */
export async function startRuntime(isolate: ivm.Isolate, context: ivm.Context, args: RuntimeArguments, timeout: number): Promise<ivm.Reference<RuntimeLifecycle>> {
  const script = compileRuntime(isolate, await runtimeSource());
  let start: ivm.Reference<StartRuntime> | undefined;
  try {
    start = script.runSync(context, { timeout, reference: true }) as ivm.Reference<StartRuntime>;
    return start.applySync(undefined, [args.bridge, args.config, args.counters, args.memoryLimitMb] as never, { timeout, result: { reference: true } }) as ivm.Reference<RuntimeLifecycle>;
  } finally {
    start?.release();
    script.release();
  }
}
