/**
 * The EnvironmentHost an environment's setup(host) gets (src/protocol/environment.ts), the
 * modules and drivers environments add, and exit(). Reachable only through setup's argument.
 */
import type { EnvironmentHost } from '../../protocol/environment.ts';
import { entered, functions } from './driveTargets.ts';
import { inject, NONE } from './injection.ts';
import { cut, list, push, rec, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, defineProperty, G, ObjectCreate, ObjectFreeze, parse, strSlice } from './primordials.ts';
import { isProbe, outcomeOf } from './probes.ts';
import { config, EXIT, run } from './run.ts';
import { nextTick } from './ticks.ts';
import { requireModule } from './valueHooks.ts';

/** Module specifier (without `node:`) -> an environment's value. */
export const environmentModules: Record<string, unknown> = ObjectCreate(null);
/** Module specifier -> the loader of a module not loaded yet (defineModuleLoader). */
export const moduleLoaders: Record<string, () => unknown> = ObjectCreate(null);
/** The loaders that threw, with their errors (the report's moduleFailures). */
export const moduleFailures = list<{ readonly specifier: string; readonly message: string }>();
/** The environments' drivers, in the order added. */
export const drivers = list<{ readonly name: string; readonly drive: Dyn }>();
/** Element id -> the value valueOf gave in this run. */
const environmentValues: Record<string, unknown> = ObjectCreate(null);

export const environmentHost: EnvironmentHost = ObjectFreeze({
  global: G,
  defineGlobal(name: string, value: unknown) {
    defineProperty(G, str(name), rec({ value, writable: true, configurable: true, enumerable: false }));
  },
  defineModule(specifier: string, value: unknown) {
    let key = str(specifier);
    if (apply(strSlice, key, [0, 5]) === 'node:') key = apply(strSlice, key, [5]);
    environmentModules[key] = value;
  },
  defineModuleLoader(specifier: string, load: () => unknown) {
    if (typeof load === 'function') moduleLoaders[str(specifier)] = load;
  },
  require(specifier: string) {
    return requireModule(-1, str(specifier));
  },
  afterSnippet(name: string, drive: () => void) {
    if (typeof drive === 'function') push(drivers, rec({ name: str(name), drive }));
  },
  topLevelFunctions() {
    const out: { readonly name: string; readonly fn: (...args: never[]) => unknown; readonly called: boolean }[] = [];
    for (let k = 0; k < functions.length; k++) {
      const fn = functions[k];
      const target = config.driveTargets[k];
      if (fn === undefined || !target?.topLevel) continue;
      push(out, ObjectFreeze({ name: target.name, fn, called: entered[k] === true }));
    }
    return out;
  },
  exit(code: number): never {
    // Once the run ends (an earlier exit(), a stalled loop), exit() ends nothing more: what ends it is thrown again.
    if (run.unwind === undefined) {
      run.unwind = EXIT;
      run.exitCode = typeof code === 'number' && code === code ? code : 0;
      run.stopped = true;
    }
    throw run.unwind;
  },
  valueOf(id: string, reason: string) {
    const key = str(id);
    if (key in environmentValues) return environmentValues[key];
    run.lastSite = -1;
    // `require("x")` (Node's require asking for a module it does not provide) is the module itself,
    // as the require hook asks for it: the same element, of kind module.
    const spec = requiredSpecifier(key);
    const v = inject(spec === undefined ? rec({ id: key, kind: 'environment', sid: -1, message: cut(str(reason), 500) }) : rec({ id: key, kind: 'module', sid: -1, key: spec, message: cut(str(reason), 500) }));
    const value = v === NONE ? undefined : v;
    environmentValues[key] = value;
    return value;
  },
  isProbe(v: unknown) {
    return isProbe(v);
  },
  outcomeOf(id: string) {
    return outcomeOf(str(id));
  },
  nextTick(fn: (...args: never[]) => unknown, args: readonly unknown[]) {
    nextTick(fn, args);
  },
});

/** The specifier of an element id `require("<spec>")` (JSON-quoted, as the require hook names modules); undefined for any other id. */
function requiredSpecifier(id: string): string | undefined {
  if (apply(strSlice, id, [0, 9]) !== 'require("' || apply(strSlice, id, [-2]) !== '")') return undefined;
  try {
    const spec: unknown = parse(apply(strSlice, id, [8, -1]));
    return typeof spec === 'string' ? spec : undefined;
  } catch {
    return undefined;
  }
}
