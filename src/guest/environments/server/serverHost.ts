/**
 * What the server environment's modules share: the runtime's host (values learnt from usage), the
 * request dispatches queued for after the snippet, and what each response got.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { learnJsonParse, type JsonStandIns } from '../shared/learnJsonParse.ts';

/** What a response got, recorded for the report (status, headers, body, redirect, view). */
export interface ExchangeRecord {
  readonly request: string;
  status: number;
  headers: Record<string, unknown>;
  body?: unknown;
  redirect?: string;
  view?: string;
  ended: boolean;
}

let current: EnvironmentHost | undefined;
let defer: ((fn: () => void) => void) | undefined;
let standIns: JsonStandIns | undefined;

/** Every response the drivers made, in order (kept in the environment: no host call reports them yet). */
export const exchanges: ExchangeRecord[] = [];

/** Keeps the runtime's host and the timer the environment raises asynchronous errors with. */
export function bindHost(host: EnvironmentHost): void {
  current = host;
  standIns = learnJsonParse(host.global);
  const setTimer = host.global.setTimeout;
  defer = typeof setTimer === 'function' ? (fn) => { setTimer(fn, 0); } : undefined;
}

/**
 * The value learnt for a request part, e.g. `GET /users/:id req.body`: a recording proxy in a
 * learning run of trace mode, the synthesized value after; `undefined` when nothing is known.
 */
export function learnt(id: string, reason: string): unknown {
  return current?.valueOf(id, reason);
}

/** Whether v is a recording proxy of trace mode: the environment must not read or copy it. */
export function isProbe(v: unknown): boolean {
  return current?.isProbe(v) ?? false;
}

/**
 * The text a body that is a recording proxy streams as (see shared/learnJsonParse.ts):
 * `JSON.parse` of it gives the proxy back, so the body is learnt as JSON of the shape used.
 */
export function probeText(probe: unknown, id: string): string {
  return standIns?.text(probe, id) ?? '';
}

/** An object value learnt for `id`, or `{}`: query strings and headers are always objects. */
export function learntObject(id: string, reason: string): Record<string, unknown> {
  const v = learnt(id, reason);
  return (typeof v === 'object' || typeof v === 'function') && v !== null ? (v as Record<string, unknown>) : {};
}

/**
 * Ends the run with e as the snippet's uncaught error, from asynchronous code: thrown from a timer,
 * which the runtime reports as it reports the snippet's own timers' errors.
 */
export function raiseLater(e: unknown): void {
  if (defer) defer(() => { throw e; });
  else void Promise.reject(e);
}

/** Registers the driver that runs after the snippet. */
export function afterSnippet(name: string, drive: () => void): void {
  current?.afterSnippet(name, drive);
}

/**
 * Runs fn after the current job (a microtask, as Node's process.nextTick for stream events); what
 * it throws is raised as the snippet's uncaught error (raiseLater), as Node's uncaught exception
 * is: `then(fn, raiseLater)` would leave it an unhandled rejection of the promise then returns.
 */
export function soon(fn: () => void): void {
  void Promise.resolve().then(() => {
    try {
      fn();
    } catch (e) {
      raiseLater(e);
    }
  });
}

/** Runs fn on the runtime's virtual clock (a 0 ms timer), or after the current job where there is none. */
export function later(fn: () => void): void {
  if (defer) defer(fn);
  else soon(fn);
}
