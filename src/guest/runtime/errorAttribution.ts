/**
 * Whose fault an error is, and the errors the report lists: each error raised while a hook ran is
 * recorded with its site and attribution (the snippet, an injected value, an environment); an
 * error that ends the run (uncaught) or one the snippet caught itself (its own TypeError on its own
 * values) goes into the report.
 */
import type { Attribution, CaughtError } from '../../protocol/runtime.ts';
import { raisedByEnvironment, raisedBySnippet, restoreMessage } from './errorText.ts';
import { lastCulprit } from './elements.ts';
import { cut, inherits, list, push, rec, removeAt, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, ErrorProto, WM, wmGet, wmHas, wmSet, WS, wsAdd, wsHas } from './primordials.ts';
import { EXIT, HALT, run } from './run.ts';
import { raisedAtPosition } from './stackTrace.ts';

interface ErrorInfo {
  readonly sid: number;
  readonly attribution: Attribution;
  /** The injected element behind it; false for a free name no provider had a value for. */
  readonly culprit?: string | false;
  /** An operation of the snippet's own code raised it. */
  readonly raised?: boolean;
}

const errorInfo: WeakMap<object, ErrorInfo> = new WM();
/** Errors the snippet made itself (`new TypeError(…)`, `TypeError(…)`): its own decision, not a bug. */
const explicitErrors: WeakSet<object> = new WS();
/** Errors the snippet caught itself, reported with caught: true. */
export const caught = list<CaughtError>();
/** The error object of each caught one, to drop it if it ends uncaught after all. */
const caughtErrors = list<unknown>();
const caughtSeen: WeakSet<object> = new WS();

export function hasErrorInfo(e: object): boolean {
  return wmHas(errorInfo, e);
}
export function markExplicit(e: object): void {
  wsAdd(explicitErrors, e);
}

/** Records where an error was raised and whose value caused it; `raised`: an operation of the snippet's own code raised it. */
export function errorCulprit(e: unknown, sid: number, culprit: string | false | undefined, raised: boolean): void {
  if (typeof e === 'object' && e !== null && !wmHas(errorInfo, e)) {
    // Raised inside an environment's own code: the environment's fault, whoever called it.
    const env = !raised && raisedByEnvironment(e);
    wmSet(errorInfo, e, rec<ErrorInfo>({ sid, attribution: env ? 'environment' : culprit !== undefined ? 'injected' : 'snippet', culprit: env ? undefined : culprit, raised }));
  }
}

/**
 * `throw v` at hook site sid. An Error carries where it was made in its stack; a value that is none
 * (a string, a number, a plain object) is placed here, at the throw, as Node places it.
 */
export function thrownAt(sid: number, v: unknown): unknown {
  if (typeof v === 'object' && v !== null) {
    if (!inherits(v, ErrorProto)) errorCulprit(v, sid, undefined, true);
  } else if (typeof v !== 'function') run.lastSite = sid;
  return v;
}

/** A TypeError or ReferenceError of a hook; `culprit` is the injected element behind it, if any. */
export function fail(Ctor: new (message: string) => Error, message: string, sid: number, culprit: string | false | undefined): Error {
  const e = new Ctor(message);
  errorCulprit(e, sid, culprit, true);
  return e;
}

/** An error nothing caught: it ends the run (a timer's or a driver's ends the rest of it). */
export function uncaught(e: unknown): void {
  run.stopped = true;
  recordError(e);
}

/**
 * Records an error nothing caught in the run's errors; `drive`: the drive target whose driven call
 * raised it, which does not end the run (drive goes on to the next target). A halt or exit() does.
 */
export function recordError(e: unknown, drive?: number): void {
  if (e === HALT || e === EXIT) {
    run.stopped = true;
    return;
  }
  if (run.errors.length >= 20) return;
  const info: ErrorInfo = (typeof e === 'object' && e !== null && wmGet(errorInfo, e)) || rec<ErrorInfo>({ sid: run.lastSite, attribution: raisedByEnvironment(e) ? 'environment' : 'snippet' });
  // V8 raised it in the snippet's own code, in an operation no hook runs (`o[k] = v` on null): its
  // stack's first frame is where, which the last hooked site (lines before, or the call it left) is not.
  const at = typeof e === 'object' && e !== null ? raisedAtPosition(e) : undefined;
  for (let i = caughtErrors.length - 1; i >= 0; i--) {
    if (caughtErrors[i] === e) {
      removeAt(caughtErrors, i);
      removeAt(caught, i);
    }
  }
  if (typeof e === 'object' && e !== null) restoreMessage(e, info.sid);
  let type = 'Error';
  let message;
  try {
    type = thrownType(e);
    message = str(e && (e as Dyn).message !== undefined ? (e as Dyn).message : e);
  } catch {
    message = '[unprintable error]';
  }
  const explicit = typeof e === 'object' && e !== null && wsHas(explicitErrors, e);
  push(run.errors, rec({ type: cut(type, 100), message: cut(message, 1000), sid: info.sid, ...(at !== undefined ? { at: [at[0], at[1]] } : {}), attribution: info.attribution, culprit: info.culprit as string | undefined, ...(explicit ? { explicit: true } : {}), ...(drive !== undefined ? { drive } : {}) }));
}

/**
 * The type the report gives a thrown value: its `name` when it has a string one (an Error, an
 * error-like object); else what it is: `string`, `number`, `object`, `null`, `undefined`, …
 */
function thrownType(e: unknown): string {
  const name: unknown = typeof e === 'object' && e !== null ? (e as Dyn).name : typeof e === 'function' ? (e as Dyn).name : undefined;
  if (typeof name === 'string' && name !== '') return name;
  return e === null ? 'null' : typeof e;
}

/**
 * A `catch` of the snippet caught e. A TypeError, RangeError or ReferenceError that an operation
 * of the snippet's own code raised on its own values is reported, as caught; an error a called
 * function throws (a built-in checking its input, an injected value) is its answer, not a bug.
 */
export function caughtBySnippet(e: unknown): void {
  if (e === EXIT) throw EXIT; // exit() is no error a catch of the snippet may keep
  if (typeof e !== 'object' || e === null || wsHas(caughtSeen, e)) return;
  wsAdd(caughtSeen, e);
  const info = wmGet(errorInfo, e) as ErrorInfo | undefined;
  const sid = info !== undefined ? info.sid : run.lastSite;
  restoreMessage(e, sid);
  if (caught.length >= 20 || wsHas(explicitErrors, e) || !inherits(e, ErrorProto)) return;
  let type;
  let message;
  try {
    type = str((e as Dyn).name);
    message = str((e as Dyn).message);
  } catch {
    return;
  }
  if (type !== 'TypeError' && type !== 'RangeError' && type !== 'ReferenceError') return;
  const raised = info !== undefined ? info.raised === true : raisedBySnippet(e);
  const attribution = info !== undefined ? info.attribution : lastCulprit !== undefined ? 'injected' : 'snippet';
  if (!raised || attribution !== 'snippet') return;
  for (let i = 0; i < caught.length; i++) if (caught[i].sid === sid && caught[i].message === cut(message, 1000)) return; // once per site and message
  const at = raisedAtPosition(e);
  push(caught, rec<CaughtError>({ type, message: cut(message, 1000), sid, ...(at !== undefined ? { at: [at[0], at[1]] as [number, number] } : {}), attribution, caught: true }));
  push(caughtErrors, e);
}
