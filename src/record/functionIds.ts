/** The global through which recorded code reaches the recorder (recordHooks.ts defines it, non-enumerable). */
export const RECORDER_GLOBAL = '__snipexecRecorder';

// Taken before the program runs: a program that patches built-ins does not change what is found.
const fnToString = Function.prototype.toString;
const { apply } = Reflect;
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
