/**
 * The calls a recording proxy records, and the callbacks it is handed, which it runs as the real
 * API would: at once with an element for array-like methods (and a few others), else on a later
 * tick; error-first callbacks get null first, as the host's conventions say
 * (CALLBACK_CONVENTIONS, src/protocol/callbackConventions.ts, which this module imports: they are no run's to choose).
 */
import { callbackElementId } from '../../protocol/elementIds.ts';
import { CALLBACK_CONVENTIONS } from '../../protocol/callbackConventions.ts';
import type { CallbackRecord, CallRecord, Trace } from '../../protocol/trace.ts';
import { addTimer } from './clock.ts';
import { exec, isIdentifierName, list, push, put, rec, splitOn, test } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, fnToString, getOwnPropertyDescriptor, isArray, MathMax, ObjectCreate, ownKeys, RegExpCtor, strIndexOf, strSlice, strTrim } from './primordials.ts';
import { child, injectedFailure, isProbe, kindOf, note, outcomeOf, primitiveOf, probeFor, probeId, probes, traceOf, type ProbeInfo } from './probes.ts';

/** A set of names, as a record without a prototype (no name the snippet puts on Object.prototype is in it). */
function nameSet(names: readonly string[]): Record<string, 1> {
  const set: Record<string, 1> = ObjectCreate(null);
  for (let i = 0; i < names.length; i++) set[names[i] as string] = 1;
  return set;
}
const ELEMENT_CALLBACKS = nameSet(CALLBACK_CONVENTIONS.elementWise);
const SYNC_CALLBACKS = nameSet(CALLBACK_CONVENTIONS.sync);
const EVENT_METHODS = nameSet(CALLBACK_CONVENTIONS.eventMethods);
const ERROR_FIRST = new RegExpCtor(CALLBACK_CONVENTIONS.errorFirst, 'i');
const ERROR_ONLY = new RegExpCtor(CALLBACK_CONVENTIONS.errorOnly, 'i');
const ERROR_EVENT = new RegExpCtor(CALLBACK_CONVENTIONS.errorEvent, 'i');
const PARAMETER_LIST = /^(?:async\s*)?(?:function\s*\*?\s*[\w$]*\s*)?\(([^)]*)\)/;
const ONE_PARAMETER_ARROW = /^(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/;
const ERROR_HANDLER = /^(on)?(error|fail|failure|reject|rejected|catch)$/i;


/** Node's error-first convention (callbackConventions.ts): whether the callback's first parameter is an error, null when none happened. */
function errorFirst(names: readonly string[], params: number, method: string | undefined): boolean {
  if (method !== undefined && EVENT_METHODS[method] === 1) return false; // an event handler's parameter is an event
  return MathMax(params, names.length) >= 2 ? test(ERROR_FIRST, names[0] || '') : test(ERROR_ONLY, names[0] || '');
}

/** Parameter names of a callback, read off its source; [] when they are not plain names. */
function paramNames(fn: unknown): string[] {
  let src: string;
  try {
    src = apply(fnToString, fn, []);
  } catch {
    return list();
  }
  const m = exec(PARAMETER_LIST, src) || exec(ONE_PARAMETER_ARROW, src);
  const names = list<string>();
  if (!m || apply(strTrim, m[1], []) === '') return names;
  const parts = splitOn(m[1], ',');
  for (let i = 0; i < parts.length && i < 8; i++) {
    let p = parts[i];
    const eq = apply(strIndexOf, p, ['=']);
    if (eq >= 0) p = apply(strSlice, p, [0, eq]);
    p = apply(strTrim, p, []);
    push(names, isIdentifierName(p) ? p : '');
  }
  return names;
}

/**
 * An error-first callback, or a listener of an error event, that this scenario calls with an error
 * (exploration's outcome `error`) is marked `failed`.
 */
function callbackRecord(id: string, index: number, prop: string | undefined, params: number, names: string[], isErrorFirst: boolean, onError: boolean): CallbackRecord {
  const failed = (isErrorFirst || onError) && outcomeOf(callbackElementId(id, index, prop)) === 'error';
  return rec<CallbackRecord>({ index, ...(prop === undefined ? {} : { prop }), params, names, errorFirst: isErrorFirst, ...(onError ? { onError: true } : {}), ...(failed ? { failed: true } : {}) });
}

/** `emitter.on('error', listener)`: the listener of an error event (CALLBACK_CONVENTIONS.errorEvent). */
function errorEventListener(method: string | undefined, args: readonly Dyn[], index: number): boolean {
  return method !== undefined && EVENT_METHODS[method] === 1 && index > 0 && typeof args[0] === 'string' && test(ERROR_EVENT, args[0]);
}

/** Records the arguments of a call or `new`; returns the callbacks among them. */
export function recordCall(t: Trace, field: 'calls' | 'constructs', args: readonly Dyn[]): readonly CallbackRecord[] {
  const call = rec({ argc: args.length, args: list<string>(), values: list<CallRecord['values'][number]>(), callbacks: list<CallbackRecord>() });
  for (let i = 0; i < args.length && i < 8; i++) {
    const a = args[i];
    push(call.args, kindOf(a));
    const p = primitiveOf(a);
    push(call.values, p === undefined ? null : p);
    if (isProbe(a)) {
      note(t, 'argProbes', probeId(a));
      continue;
    }
    if (typeof a === 'function') {
      const names = paramNames(a);
      push(call.callbacks, callbackRecord(t.id, i, undefined, a.length, names, errorFirst(names, a.length, t.key), errorEventListener(t.key, args, i)));
    } else if (a !== null && typeof a === 'object' && !isArray(a)) {
      const keys = ownKeys(a);
      for (let k = 0; k < keys.length && k < 16; k++) {
        const key = keys[k];
        if (typeof key !== 'string' || test(ERROR_HANDLER, key)) continue;
        // An options object's callbacks are its enumerable members: not `arguments.callee` (handed
        // over by `slice.call(arguments, 1)`), which calling would recurse into the snippet's own function.
        if (getOwnPropertyDescriptor(a, key)?.enumerable !== true) continue;
        let v;
        try {
          v = a[key];
        } catch {
          continue;
        }
        if (typeof v === 'function' && !isProbe(v)) {
          const names = paramNames(v);
          push(call.callbacks, callbackRecord(t.id, i, key, v.length, names, errorFirst(names, v.length, t.key), false));
        }
      }
    }
  }
  note(t, field, call);
  return call.callbacks;
}

function isClass(fn: unknown): boolean {
  try {
    return apply(strSlice, apply(fnToString, fn, []), [0, 5]) === 'class';
  } catch {
    return false;
  }
}

/** Calls the callbacks a probe was given, with probes for their arguments, as the real API would. */
export function runCallbacks(info: ProbeInfo, callbacks: readonly CallbackRecord[], args: readonly Dyn[]): void {
  const key = info.key;
  const parent = info.parent !== undefined ? probes[info.parent] : undefined;
  const elementWise = key !== undefined && ELEMENT_CALLBACKS[key] === 1 && parent !== undefined;
  const sync = elementWise || (key !== undefined && SYNC_CALLBACKS[key] === 1);
  for (let c = 0; c < callbacks.length; c++) {
    const cb = callbacks[c];
    const fn = cb.prop === undefined ? args[cb.index] : args[cb.index][cb.prop];
    if (isClass(fn)) continue; // a class handed over is not a callback
    if (cb.onError && !cb.failed) continue; // nothing failed: an emitter emits no error
    const base = callbackElementId(info.id, cb.index, cb.prop);
    // Called with an error (exploration), an error-first callback gets nothing else, as Node's APIs do.
    const n = cb.failed ? 1 : MathMax(cb.params, cb.names.length);
    const cbArgs = list<unknown>();
    for (let k = 0; k < n; k++) {
      if (k === 0 && cb.failed) {
        // The error is learnt like any value (`err.code === 'ENOENT'`), and made an Error with what was read of it.
        traceOf(`${base}#arg0`).failure = true;
        push(cbArgs, probeFor(`${base}#arg0`, undefined, undefined));
      }
      else if (k === 0 && cb.errorFirst) push(cbArgs, null);
      else if (elementWise && k === 0) push(cbArgs, child(parent, `${info.parent}[0]`, '0'));
      else if (elementWise && k === 1) push(cbArgs, 0);
      else if (elementWise && k === 2) push(cbArgs, parent);
      else {
        const arg = probeFor(`${base}#arg${k}`, undefined, undefined);
        const at = traceOf(`${base}#arg${k}`);
        if (cb.names[k] && at.name === undefined) at.name = cb.names[k];
        push(cbArgs, arg);
      }
    }
    if (key === 'reduce' && parent !== undefined) {
      put(cbArgs, 0, args.length > 1 ? args[1] : child(parent, `${info.parent}[0]`, '0'));
      put(cbArgs, 1, child(parent, `${info.parent}[0]`, '0'));
    }
    const self = probeFor(`${base}#this`, undefined, undefined);
    if (sync) {
      apply(fn, self, cbArgs);
      continue;
    }
    // A function handed over by its own call-back, or by one it led to, is not called back again:
    // the chain would run until the tick cap (`function wrapper() { getHolder(wrapper); }`).
    if (inChain(fn)) {
      traceOf(info.id).callbackLoop = true;
      continue;
    }
    const from = chain;
    addTimer(
      () => {
        const saved = chain;
        chain = rec({ fn, text: sourceOf(fn), up: from });
        try {
          apply(fn, self, cbArgs);
        } catch {
        } finally {
          chain = saved;
        }
      },
      0,
      [],
      false,
    );
  }
}

/** The call-backs running now, innermost first: each one a recording proxy called back later, and the one whose call led to it. */
interface Link {
  readonly fn: unknown;
  readonly text: string;
  readonly up: Link | undefined;
}
let chain: Link | undefined;
/** A chain of call-backs this long is a loop too, whatever functions make it. */
const MAX_CHAIN = 64;

/** Whether fn, or a function of the same source (a fresh closure of the same arrow), is in the running chain. */
function inChain(fn: unknown): boolean {
  if (chain === undefined) return false;
  const text = sourceOf(fn);
  let depth = 0;
  for (let l: Link | undefined = chain; l !== undefined; l = l.up) {
    if (l.fn === fn || (text !== '' && l.text === text) || ++depth >= MAX_CHAIN) return true;
  }
  return false;
}

function sourceOf(fn: unknown): string {
  try {
    return apply(fnToString, fn, []);
  } catch {
    return '';
  }
}
