import { types } from 'node:util';
import type { MadeBy } from './callTrace.ts';
import { functionId } from './functionIds.ts';

// Taken before the program runs: a program that patches built-ins does not change what is found.
const { getOwnPropertyDescriptor, getOwnPropertyNames } = Object;
const isArray = Array.isArray;

/** How deep a path goes into a call's result (`result.api.on`: 2). */
const MAX_PATH = 3;
/** Values looked at in one call's result: a big result is searched no further. */
const MAX_VALUES = 200;
/** Calls whose closures the recorder keeps the paths of; past this, later calls' closures are not attributed. */
const MAX_MAKERS = 50_000;

/**
 * Where the closures a call returned are in its result, so a test can call them there. A nested
 * function's prologue names the call of its enclosing function that made it (instrumentCalls.ts
 * passes the enclosing call's id, a variable of the enclosing body), so which closure object a
 * later call ran is known without wrapping it: by that maker call and the function's id. When a
 * call of a function enclosing others returns, its result is searched (own data properties only,
 * no getter or Proxy trap runs) for program functions, each kept with its path; a function id
 * found at two paths as two objects is kept with none (which one a call ran is not known).
 */
export class ClosureOrigins {
  /** By maker call id, by function id: the path in the maker's result, or null when ambiguous. */
  private readonly paths = new Map<number, Map<number, readonly string[] | null>>();
  /** By the object a maker call returned: that call (a closure returning it gives its maker's result back: `returnsMade`). */
  private readonly results = new WeakMap<object, number>();
  /** By function object: the call that returned it first (reachPaths tells closures of one text apart by it). */
  private readonly makers = new WeakMap<object, number>();

  /** A call of a function enclosing others returned `value`: the program functions in it, with their paths. */
  returned(callId: number, value: unknown): void {
    if (this.paths.size >= MAX_MAKERS || (typeof value !== 'object' && typeof value !== 'function') || value === null) return;
    const found = new Map<number, { object: object; path: readonly string[] | null }>();
    const seen = new Set<unknown>();
    const queue: { value: unknown; path: string[] }[] = [{ value, path: [] }];
    for (let budget = MAX_VALUES; queue.length > 0 && budget > 0; budget--) {
      const next = queue.shift() as { value: unknown; path: string[] };
      const v = next.value;
      if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v) || types.isProxy(v)) continue;
      seen.add(v);
      if (typeof v === 'function') {
        const id = functionId(v);
        const known = id === undefined ? undefined : found.get(id);
        if (id !== undefined && known === undefined) found.set(id, { object: v, path: next.path });
        else if (known !== undefined && known.object !== v) known.path = null;
      }
      if (next.path.length >= MAX_PATH || types.isMap(v) || types.isSet(v) || (isArray(v) && v.length > MAX_VALUES)) continue;
      let keys: string[];
      try {
        keys = getOwnPropertyNames(v);
      } catch {
        continue;
      }
      for (const key of keys) {
        if (typeof v === 'function' && (key === 'prototype' || key === 'caller' || key === 'arguments')) continue;
        const d = getOwnPropertyDescriptor(v, key);
        // Only objects and functions can hold or be a closure: primitives are not queued (a result of 200 numbers costs 200 descriptor reads).
        if (d !== undefined && 'value' in d && ((typeof d.value === 'object' && d.value !== null) || typeof d.value === 'function')) queue.push({ value: d.value, path: [...next.path, key] });
      }
    }
    if (found.size === 0) return;
    for (const f of found.values()) if (f.path !== null && !this.makers.has(f.object)) this.makers.set(f.object, callId);
    if (!this.results.has(value)) this.results.set(value, callId);
    this.paths.set(callId, new Map([...found].map(([id, f]) => [id, f.path])));
  }

  /** `made`, a closure call's maker, saying whether the call's result `value` is the object that maker returned. */
  withResult(made: MadeBy, value: unknown): MadeBy {
    const object = (typeof value === 'object' && value !== null) || typeof value === 'function';
    return object && this.results.get(value) === made.callId ? { ...made, returnsMade: true } : made;
  }

  /** The call that returned the function object `fn` (first), when one did. */
  makerOf(fn: object): number | undefined {
    return this.makers.get(fn);
  }

  /** Where the closure `fn` that call `maker` made is in the maker's result, when it returned it at one path. */
  madeBy(maker: number, fn: number, rest: boolean): MadeBy | undefined {
    const path = this.paths.get(maker)?.get(fn);
    return path === undefined || path === null ? undefined : { callId: maker, path, ...(rest ? { rest: true } : {}) };
  }
}
