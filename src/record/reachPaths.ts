import { types } from 'node:util';
import type { ReachedFunction } from './callTrace.ts';
import { functionId } from './functionIds.ts';
import type { FunctionInfo } from './functionNames.ts';

// Taken before the program runs: a program that patches built-ins does not change what is found.
const { getOwnPropertyDescriptor, getOwnPropertyNames } = Object;
const isArray = Array.isArray;

/** How deep a path goes below what reach() gives (`module.exports`, `plural`: 2). */
const MAX_PATH = 4;
/** Values looked at in all, over every module: a program with huge exported objects is searched no further. */
const MAX_VALUES = 50_000;
/** Function properties that hold no function of the program a test calls through its path (`prototype`: its methods need an object of the class). */
const SKIPPED_KEYS = new Set(['prototype', 'caller', 'arguments', 'constructor']);

/**
 * The program functions a test reaches through a property path from what its module's reach()
 * gives (callTrace.ts REACH_SYMBOL: top-level bindings, and a CommonJS module's `module.exports`),
 * as the program left them at exit: a UMD factory's members (`module.exports.plural`), a function
 * that is a module's whole export, an anonymous function stored in an exported object. A function
 * is known by the recorder's id in its instrumented text (`__snipexecRecorder.enter(7, …`, the
 * first call to the recorder in it: its own prologue); only a qualname its module gives one
 * function is listed (a test names the function by it), and only when one function object of that
 * text is found (closures made by one factory share it). The first path found wins, searched
 * breadth first from the function's own module, then from the others. Reads only data
 * properties, and the recorder's own getters: no program code runs.
 */
export function reachPaths(roots: ReadonlyMap<string, object>, functions: readonly FunctionInfo[], makerOf: (fn: object) => number | undefined = () => undefined): ReachedFunction[] {
  const unique = new Map<string, number>();
  for (const f of functions) unique.set(`${f.module}#${f.qualname}`, (unique.get(`${f.module}#${f.qualname}`) ?? 0) + 1);
  const found = new Map<number, ReachedFunction>();
  // Closures of one function text (`H(l)` returning `(t) => …` for each `l`) share an id: which of them a call ran is not known, so none is listed.
  const objectOf = new Map<number, object>();
  const ambiguous = new Set<number>();
  // Closures of one text told apart by the call that made them (closureOrigins.ts): each is listed with its maker, when no other object has both.
  const byMaker = new Map<string, ReachedFunction>();
  const makerObjects = new Map<string, object>();
  const makerAmbiguous = new Set<string>();
  let budget = MAX_VALUES;
  const search = (root: string, getters: object, wanted: (info: FunctionInfo) => boolean): void => {
    const seen = new Set<unknown>();
    const queue: { value: unknown; path: string[] }[] = [];
    for (const key of getOwnPropertyNames(getters)) {
      try {
        queue.push({ value: (getters as Record<string, unknown>)[key], path: [key] });
      } catch {
        // a binding not initialized (its module failed before it)
      }
    }
    while (queue.length > 0 && budget-- > 0) {
      const { value, path } = queue.shift() as { value: unknown; path: string[] };
      if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value) || types.isProxy(value)) continue;
      seen.add(value);
      if (typeof value === 'function') {
        const id = functionId(value);
        const info = id === undefined ? undefined : functions[id];
        if (id !== undefined && (objectOf.get(id) ?? value) !== value) ambiguous.add(id);
        if (id !== undefined) objectOf.set(id, value);
        const maker = id === undefined ? undefined : makerOf(value);
        if (id !== undefined && info !== undefined && maker !== undefined && wanted(info) && unique.get(`${info.module}#${info.qualname}`) === 1) {
          const key = `${id}@${maker}`;
          if ((makerObjects.get(key) ?? value) !== value) makerAmbiguous.add(key);
          makerObjects.set(key, value);
          if (!byMaker.has(key)) byMaker.set(key, { module: info.module, qualname: info.qualname, root, path, params: info.params.map((p) => ({ name: p.name, rest: p.form === 'rest' })), async: info.isAsync, generator: info.isGenerator, maker });
        }
        if (id !== undefined && info !== undefined && !found.has(id) && wanted(info) && unique.get(`${info.module}#${info.qualname}`) === 1) {
          found.set(id, { module: info.module, qualname: info.qualname, root, path, params: info.params.map((p) => ({ name: p.name, rest: p.form === 'rest' })), async: info.isAsync, generator: info.isGenerator });
        }
      }
      if (path.length >= MAX_PATH || isArray(value) || types.isMap(value) || types.isSet(value)) continue;
      for (const key of getOwnPropertyNames(value)) {
        if (SKIPPED_KEYS.has(key)) continue;
        const d = getOwnPropertyDescriptor(value, key);
        if (d !== undefined && 'value' in d) queue.push({ value: d.value, path: [...path, key] });
      }
    }
  };
  for (const [root, getters] of roots) search(root, getters, (info) => info.module === root);
  for (const [root, getters] of roots) search(root, getters, () => true);
  const closures = [...byMaker].filter(([key]) => ambiguous.has(Number(key.split('@')[0])) && !makerAmbiguous.has(key)).map(([, reached]) => reached);
  return [...[...found].filter(([id]) => !ambiguous.has(id)).map(([, reached]) => reached), ...closures];
}
