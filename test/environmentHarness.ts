/**
 * Runs code on top of environments in a bare isolate, without the snipexec runtime: how an
 * environment's own tests check its guest bundle before (and beside) the end-to-end tests.
 * The host it gives `setup` is a plain stand-in for the runtime's: values come from `values`.
 */
import ivm from 'isolated-vm';
import { ENVIRONMENTS, type EnvironmentSpec } from '../src/environments/registry.ts';
import { environmentBundleRequest } from '../src/environments/loadEnvironments.ts';
import { environmentFilename } from '../src/protocol/environment.ts';
import { bundleGuest } from '../src/sandbox/bundleGuest.ts';

export interface HarnessResult {
  /** What console.log printed, one entry per call, arguments joined by spaces (String of each). */
  readonly logs: string[];
  /** The uncaught error, as `Name: message`, with the script file it was raised in. */
  readonly error?: { readonly text: string; readonly file: string };
  /** The module specifiers the environments defined. */
  readonly modules: string[];
}

const HOST_SOURCE = `
const G = globalThis, modules = Object.create(null), drivers = [], logs = [];
const values = JSON.parse($0), options = JSON.parse($1);
G.console = { log: (...a) => { logs.push(a.map(String).join(' ')); } };
// Opt-in stand-ins for the runtime's virtual timers and its top-level function list (tracked by name after the snippet).
const timers = [], tracked = [], called = new Set();
let clock = 0, seq = 0;
if (options.timers) {
  const add = (fn, ms, a, every) => { timers.push({ fn, at: clock + Math.max(0, Number(ms) || 0), a, every: every ? Math.max(1, Number(ms) || 0) : 0, id: ++seq }); return seq; };
  const clear = (id) => { const i = timers.findIndex((t) => t.id === id); if (i >= 0) timers.splice(i, 1); };
  Object.assign(G, { setTimeout: (fn, ms, ...a) => add(fn, ms, a, false), setInterval: (fn, ms, ...a) => add(fn, ms, a, true), setImmediate: (fn, ...a) => add(fn, 0, a, false), clearTimeout: clear, clearInterval: clear, clearImmediate: clear });
}
G.require = (s) => { const k = String(s).replace(/^node:/, ''); if (k in modules) return modules[k]; const e = new Error("Cannot find module '" + s + "'"); e.code = 'MODULE_NOT_FOUND'; throw e; };
const host = {
  global: G,
  defineGlobal(name, value) { Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false }); },
  defineModule(spec, value) { modules[String(spec).replace(/^node:/, '')] = value; },
  afterSnippet(name, drive) { drivers.push(drive); },
  valueOf(id) { return Object.prototype.hasOwnProperty.call(values, id) ? values[id] : undefined; },
  isProbe() { return false; },
  outcomeOf(id) { return options.outcomes?.[id]; },
  nextTick(fn, args) { Promise.resolve().then(() => fn(...args)); },
  topLevelFunctions() { return tracked.map((t) => ({ name: t.name, fn: t.fn, called: called.has(t.name) })); },
};
return {
  setup(factory) { const module = { exports: {} }; factory(module, module.exports); module.exports.setup(host); },
  drive() { for (const d of drivers) d(); },
  track() { for (const name of options.topLevelFunctions ?? []) if (typeof G[name] === 'function') { const fn = new Proxy(G[name], { apply: (f, self, a) => { called.add(name); return Reflect.apply(f, self, a); } }); G[name] = fn; tracked.push({ name, fn }); } },
  step() { if (timers.length === 0) return false; timers.sort((x, y) => x.at - y.at || x.id - y.id); const t = timers[0]; clock = t.at; if (t.every) t.at += t.every; else timers.shift(); t.fn(...t.a); return true; },
  logs() { return JSON.stringify(logs); },
  modules() { return JSON.stringify(Object.keys(modules)); },
};`;

export interface HarnessOptions {
  /** What host.valueOf gives, by element id. */
  readonly values?: Record<string, unknown>;
  readonly registry?: readonly EnvironmentSpec[];
  /** Virtual setTimeout/setInterval/setImmediate, run after the snippet and again after the drivers. */
  readonly timers?: boolean;
  /** The snippet's top-level function declarations host.topLevelFunctions lists, `called` counting calls made after the snippet ran. */
  readonly topLevelFunctions?: readonly string[];
}

/** Bundles the named environments (and the ones they need) and runs `code` on top, then the drivers. */
export async function runWithEnvironments(names: readonly string[], code: string, options: HarnessOptions = {}): Promise<HarnessResult> {
  const registry = options.registry ?? ENVIRONMENTS;
  const specs = registry.filter((e) => names.includes(e.name) || names.some((n) => registry.find((r) => r.name === n)?.needs.includes(e.name)));
  const isolate = new ivm.Isolate({ memoryLimit: 256 });
  try {
    const context = await isolate.createContext();
    const host = (await context.evalClosure(HOST_SOURCE, [JSON.stringify(options.values ?? {}), JSON.stringify({ timers: options.timers ?? false, topLevelFunctions: options.topLevelFunctions ?? [] })], { result: { reference: true } })) as ivm.Reference<Record<string, unknown>>;
    const setup = await host.get('setup', { reference: true }) as ivm.Reference<unknown>;
    for (const spec of specs) {
      const bundle = await bundleGuest(environmentBundleRequest(spec));
      const factory = (await context.evalClosure(`return function (module, exports) {\n${bundle.code}\n}`, [], { result: { reference: true }, filename: environmentFilename(spec.name), timeout: 10_000 })) as ivm.Reference<unknown>;
      await setup.apply(undefined, [factory.derefInto()], { timeout: 10_000 });
    }
    let error: HarnessResult['error'];
    try {
      await context.eval(code, { filename: 'snipexec:snippet', timeout: 10_000 });
      await context.eval('void 0', { timeout: 1_000 }); // microtasks the snippet queued
      const call = async (name: string) => (await host.get(name, { reference: true }) as ivm.Reference<() => boolean>).apply(undefined, [], { timeout: 10_000 });
      // one timer per call, so the microtasks each one queues run before the next, as in the runtime
      const settle = async () => { for (let n = 0; n < 10_000 && (await call('step')); n++); };
      await call('track');
      await settle();
      await call('drive');
      await context.eval('void 0', { timeout: 1_000 });
      await settle();
    } catch (e) {
      const stack = e instanceof Error ? e.stack ?? '' : '';
      const file = /snipexec:[\w:.-]+/.exec(stack.split('\n').find((l) => l.includes('    at ')) ?? '')?.[0] ?? '';
      error = { text: e instanceof Error ? `${e.name}: ${e.message}` : String(e), file };
    }
    const logs = JSON.parse((await context.evalClosure('return $0.logs()', [host.derefInto()])) as string) as string[];
    const modules = JSON.parse((await context.evalClosure('return $0.modules()', [host.derefInto()])) as string) as string[];
    return { logs, modules, ...(error ? { error } : {}) };
  } finally {
    isolate.dispose();
  }
}
