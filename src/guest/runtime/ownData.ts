/**
 * The runtime's own data, out of the snippet's reach: lists (arrays without a prototype) and
 * records (objects without one) that it writes by defining properties, so nothing the snippet puts
 * on Array.prototype, Object.prototype or String.prototype (a setter, an index, a method, a
 * Symbol.replace) takes part; and the string operations it needs, done with captured methods.
 */
import { apply, defineProperty, getPrototypeOf, isArray, ObjectCreate, ownKeys, regexpExecOf, setPrototypeOf, StringCtor, strIndexOf, strSlice } from './primordials.ts';

const DATA: PropertyDescriptor = ObjectCreate(null);
DATA.writable = true;
DATA.enumerable = true;
DATA.configurable = true;

/**
 * Sets o[k] by defining it: no setter the snippet put on a prototype takes part. The runtime's own
 * lists and records have no prototype, so a plain assignment is just as safe on them, and about
 * twenty times cheaper than defining (V8 takes its slow path for defineProperty on an array index).
 */
export function put<T>(o: object, k: PropertyKey, v: T): T {
  if (getPrototypeOf(o) === null) {
    (o as Record<PropertyKey, unknown>)[k] = v;
    return v;
  }
  DATA.value = v;
  defineProperty(o, k, DATA);
  DATA.value = undefined;
  return v;
}
/** Appends v to an array by defining its next index (Array.prototype's push would call setters on the prototype). */
export const push = <T>(a: T[], v: T): void => {
  put(a, a.length, v);
};
/** A runtime list: an array without a prototype, so no method or index of Array.prototype is ever read through it. */
export function list<T>(): T[] {
  const a: T[] = [];
  setPrototypeOf(a, null);
  return a;
}
/** A runtime record: o, without a prototype (as `{ __proto__: null, … }` makes it). */
export function rec<T extends object>(o: T): T {
  setPrototypeOf(o, null);
  return o;
}
/** Removes a[i] (Array.prototype.splice would read the species and the prototype's indexes). */
export function removeAt(a: unknown[], i: number): void {
  for (let j = i; j < a.length - 1; j++) put(a, j, a[j + 1]);
  a.length = a.length - 1;
}
/** The last element of a, removed. */
export function pop<T>(a: T[]): T {
  const v = a[a.length - 1];
  a.length = a.length - 1;
  return v;
}
export const exec = regexpExecOf;
export const test = (re: RegExp, s: string): boolean => regexpExecOf(re, s) !== null;
const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;
/** Whether s is written as a plain (ASCII) identifier: `a.s` rather than `a["s"]`. */
export const isIdentifierName = (s: string): boolean => regexpExecOf(IDENTIFIER_NAME, s) !== null;
/** s with its first occurrence of `find` (a string) replaced; String.prototype.replace would ask String.prototype[Symbol.replace]. */
export function replaceFirst(s: string, find: string, by: string): string {
  const i = apply(strIndexOf, s, [find]);
  return i < 0 ? s : apply(strSlice, s, [0, i]) + by + apply(strSlice, s, [i + find.length]);
}
/** s cut at each `sep` (a string); String.prototype.split would ask String.prototype[Symbol.split]. */
export function splitOn(s: string, sep: string): string[] {
  const out = list<string>();
  let from = 0;
  for (let i = apply(strIndexOf, s, [sep]); i >= 0; i = apply(strIndexOf, s, [sep, from])) {
    push(out, apply(strSlice, s, [from, i]));
    from = i + sep.length;
  }
  push(out, apply(strSlice, s, [from]));
  return out;
}
export function joinWith(a: readonly string[], sep: string): string {
  let out = '';
  for (let i = 0; i < a.length; i++) out += (i === 0 ? '' : sep) + a[i];
  return out;
}
/** `v instanceof C` for a built-in C, by the prototype chain: the snippet may give C a Symbol.hasInstance. */
export function inherits(v: unknown, proto: object): boolean {
  if ((typeof v !== 'object' || v === null) && typeof v !== 'function') return false;
  try {
    for (let p = getPrototypeOf(v as object); p !== null; p = getPrototypeOf(p)) if (p === proto) return true;
  } catch {}
  return false;
}
/**
 * Data parsed from JSON (by the runtime's own JSON.parse, without a reviver), made of records and
 * lists all the way down: nothing it lacks is read from a prototype. Such data has own data
 * properties only, so reading them runs no getter and asks no prototype; only objects are visited
 * (a long list of numbers, as the position table is, costs one pass and no more).
 */
export function detached<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') detached(x);
    }
  } else {
    const keys = ownKeys(v);
    for (let i = 0; i < keys.length; i++) {
      const x: unknown = (v as Record<PropertyKey, unknown>)[keys[i]];
      if (x !== null && typeof x === 'object') detached(x);
    }
  }
  setPrototypeOf(v, null);
  return v;
}
/**
 * A list of primitives parsed from JSON (the position table), without a prototype: there is nothing
 * in it to visit, so this costs nothing per element, where detached, interpreted in a fresh context,
 * costs a loop step each.
 */
export function flatList<T extends string | number | boolean | null>(a: T[]): T[] {
  setPrototypeOf(a, null);
  return a;
}
export const str = (v: unknown): string => {
  try {
    return StringCtor(v);
  } catch {
    return '[unprintable]';
  }
};
export const cut = (s: string, n: number): string => (s.length > n ? apply(strSlice, s, [0, n]) + '…' : s);
/** Whether v is an object or a function (a value that has an identity). */
export const isObjectLike = (v: unknown): v is object => (typeof v === 'object' && v !== null) || typeof v === 'function';
