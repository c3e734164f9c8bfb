import type { FunctionInfo } from './functionNames.ts';

/** The global through which recorded code reaches the recorder (recordHooks.ts defines it, non-enumerable). */
export const RECORDER_GLOBAL = '__snipexecRecorder';

// Taken before the program runs: a program that patches built-ins does not change what is found.
const fnToString = Function.prototype.toString;
const { apply } = Reflect;
const { getOwnPropertyDescriptor } = Object;
/** The first call to the recorder in an instrumented function's text: its own prologue (instrumentCalls.ts). */
const ID = new RegExp(`${RECORDER_GLOBAL}\\.(?:enter|gen)\\((\\d+),`);
const ids = new WeakMap<object, number | null>();

/**
 * The recorder's id of an instrumented function (not a class, bound or built-in one), read from
 * its text once per function object: it names the function (FunctionInfo), not which of the
 * closures made of one text it is. Runs no program code.
 */
export function functionId(fn: object): number | undefined {
  let id = ids.get(fn);
  if (id === undefined) {
    id = idFromText(fn);
    ids.set(fn, id);
  }
  return id ?? undefined;
}

function idFromText(fn: object): number | null {
  let text: string;
  try {
    text = apply(fnToString, fn, []) as string;
  } catch {
    return null;
  }
  if (text.startsWith('class')) return null;
  const match = ID.exec(text);
  return match === null ? null : Number(match[1]);
}

/**
 * The program function a function value is, by its id, or the program class it is (a class has no
 * id; `classModules` knows it, a function constructor has one), named as its module names it.
 */
export function programFunction(fn: object, functions: readonly FunctionInfo[], classModules: WeakMap<object, string>): { readonly module: string; readonly qualname: string } | undefined {
  const id = functionId(fn);
  const info = id === undefined ? undefined : functions[id];
  if (info !== undefined) return { module: info.module, qualname: info.qualname };
  const module = classModules.get(fn);
  const name = module === undefined ? undefined : getOwnPropertyDescriptor(fn, 'name');
  return module !== undefined && name !== undefined && 'value' in name && typeof name.value === 'string' && name.value !== '' ? { module, qualname: name.value } : undefined;
}
