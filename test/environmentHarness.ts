/**
 * Runs code on top of environments in a bare isolate, without the snipexec runtime: how an
 * environment's own tests check its guest bundle before (and beside) the end-to-end tests.
 * The host it gives `setup` is a plain stand-in for the runtime's: values come from `values`.
 */
import ivm from 'isolated-vm';
import { ENVIRONMENTS, type EnvironmentSpec } from '../src/environments/registry.ts';
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
const values = JSON.parse($0);
G.console = { log: (...a) => { logs.push(a.map(String).join(' ')); } };
G.require = (s) => { const k = String(s).replace(/^node:/, ''); if (k in modules) return modules[k]; const e = new Error("Cannot find module '" + s + "'"); e.code = 'MODULE_NOT_FOUND'; throw e; };
const host = {
  global: G,
  defineGlobal(name, value) { Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false }); },
  defineModule(spec, value) { modules[String(spec).replace(/^node:/, '')] = value; },
  afterSnippet(name, drive) { drivers.push(drive); },
  valueOf(id) { return Object.prototype.hasOwnProperty.call(values, id) ? values[id] : undefined; },
  isProbe() { return false; },
};
return {
  setup(factory) { const module = { exports: {} }; factory(module, module.exports); module.exports.setup(host); },
  drive() { for (const d of drivers) d(); },
  logs() { return JSON.stringify(logs); },
  modules() { return JSON.stringify(Object.keys(modules)); },
};`;

/** Bundles the named environments (and the ones they need) and runs `code` on top, then the drivers. */
export async function runWithEnvironments(names: readonly string[], code: string, options: { values?: Record<string, unknown>; registry?: readonly EnvironmentSpec[] } = {}): Promise<HarnessResult> {
  const registry = options.registry ?? ENVIRONMENTS;
  const specs = registry.filter((e) => names.includes(e.name) || names.some((n) => registry.find((r) => r.name === n)?.needs.includes(e.name)));
  const isolate = new ivm.Isolate({ memoryLimit: 256 });
  try {
    const context = await isolate.createContext();
    const host = (await context.evalClosure(HOST_SOURCE, [JSON.stringify(options.values ?? {})], { result: { reference: true } })) as ivm.Reference<Record<string, unknown>>;
    const setup = await host.get('setup', { reference: true }) as ivm.Reference<unknown>;
    for (const spec of specs) {
      const bundle = await bundleGuest({ name: spec.name, entry: new URL(`../src/guest/environments/${spec.entry}`, import.meta.url).pathname, define: spec.define });
      const factory = (await context.evalClosure(`return function (module, exports) {\n${bundle.code}\n}`, [], { result: { reference: true }, filename: environmentFilename(spec.name), timeout: 10_000 })) as ivm.Reference<unknown>;
      await setup.apply(undefined, [factory.derefInto()], { timeout: 10_000 });
    }
    let error: HarnessResult['error'];
    try {
      await context.eval(code, { filename: 'snipexec:snippet', timeout: 10_000 });
      await context.eval('void 0', { timeout: 1_000 }); // microtasks the snippet queued
      await (await host.get('drive', { reference: true }) as ivm.Reference<() => void>).apply(undefined, [], { timeout: 10_000 });
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
