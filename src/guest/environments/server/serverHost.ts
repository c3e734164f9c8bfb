/**
 * What the server environment's modules share: the runtime's host (values learnt from usage), the
 * request dispatches queued for after the snippet, and what each response got.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';

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

/** Every response the drivers made, in order (kept in the environment: no host call reports them yet). */
export const exchanges: ExchangeRecord[] = [];

/** Keeps the runtime's host and the timer the environment raises asynchronous errors with. */
export function bindHost(host: EnvironmentHost): void {
  current = host;
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

/** Runs fn on the runtime's virtual clock (a 0 ms timer), or after the current job where there is none. */
export function later(fn: () => void): void {
  if (defer) defer(fn);
  else void Promise.resolve().then(fn);
}
