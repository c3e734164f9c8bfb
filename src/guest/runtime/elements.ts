/**
 * Which element each injected value is: the element id of every injected object or function, and
 * of the class of each instance of an injected class, so an error it causes is blamed on it and a
 * missing member of it can be injected too.
 */
import { isIdentifierName, isObjectLike, rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, G, getPrototypeOf, stringify, WM, wmGet, wmHas, wmSet } from './primordials.ts';

/** Injected object or function -> element id. */
const owner: WeakMap<object, string> = new WM();
/** Instance of an injected class -> the class's element id. */
const instanceOf: WeakMap<object, string> = new WM();
/** The value the last hook returned, and the injected element it came from, if any. */
let lastResult: unknown;
export let lastCulprit: string | undefined;

/** The element id of an injected value ('' for the global object), undefined for any other. */
export function ownerOf(v: unknown): string | undefined {
  if (v === G) return '';
  if (isObjectLike(v)) return wmGet(owner, v);
  return undefined;
}
export function isInjected(v: unknown): boolean {
  return ownerOf(v) !== undefined && v !== G;
}
/** The injected element a value comes from: its own id, its class's, or the last hook result's. */
export function culpritOf(v: unknown): string | undefined {
  if (isObjectLike(v)) {
    if (v === G) return undefined;
    const id = wmGet(owner, v);
    if (id !== undefined) return id;
    const cls = wmGet(instanceOf, v);
    return cls !== undefined ? `new ${cls}` : undefined;
  }
  return lastResult === v ? lastCulprit : undefined;
}
/** A hook's result, remembered with the injected element it came from. */
export function result<T>(v: T, culprit: string | undefined): T {
  lastResult = v;
  lastCulprit = culprit;
  return v;
}
/** Registers v as element id's value (the first id a value gets stays). */
export function register(v: unknown, id: string): void {
  if (isObjectLike(v) && !wmHas(owner, v)) wmSet(owner, v, id);
}
export function isRegistered(v: object): boolean {
  return wmHas(owner, v);
}
/** Records v as an instance of the injected class cls. */
export function registerInstance(v: object, cls: string): void {
  wmSet(instanceOf, v, cls);
}
/** The id of a member of element parent. */
export function childId(parent: string, key: string): string {
  if (parent === '') return key;
  return isIdentifierName(key) ? `${parent}.${key}` : `${parent}[${stringify(key)}]`;
}
/**
 * holderFor(obj).id without making the record (the member hook asks it of every read it cannot
 * answer): a record's setPrototypeOf costs more than the rest of the hook.
 */
export function holderId(obj: unknown): string | undefined {
  const cls = isObjectLike(obj) ? wmGet(instanceOf, obj) : undefined;
  return cls !== undefined ? `new ${cls}` : ownerOf(obj);
}
/** Where a missing member of obj goes: an instance's class prototype, else obj itself (id undefined: not injected). */
export function holderFor(obj: unknown): { id: string | undefined; target: Dyn } {
  const cls = isObjectLike(obj) ? wmGet(instanceOf, obj) : undefined;
  return cls !== undefined ? rec({ id: `new ${cls}` as string | undefined, target: getPrototypeOf(obj as object) as Dyn }) : rec({ id: ownerOf(obj), target: obj as Dyn });
}
