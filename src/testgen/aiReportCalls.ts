/**
 * The child side of `gen-tests --ai`: the driver script aiRunCalls.ts writes loads the program as a
 * generated test does, then hands its calls to reportCalls, which makes them one by one and reports
 * each outcome on file descriptor 3 (the program keeps stdout and stderr to itself).
 */
import { writeSync } from 'node:fs';
import { REACH_SYMBOL, type CallRecord, type Snapshot } from '../record/callTrace.ts';
import { SecretScanner } from '../record/redactEnvValues.ts';
import { className, constructorOf, snapshotValue } from '../record/snapshotValue.ts';

/** What one call of the real function did: its result as a snapshot, or what it threw. */
export type CallOutcome = { readonly returned: Snapshot } | { readonly threw: NonNullable<CallRecord['exception']> };

/** One line on the report descriptor: the program has loaded, call `start` began, call `done` ended so. */
export type DriverMessage = { readonly ready: true } | { readonly start: number } | { readonly done: number; readonly outcome: CallOutcome };

/** The child's descriptor the reports go to (the parent opens it as a pipe). */
export const REPORT_FD = 3;

/**
 * Makes each call in order, awaiting those the tests await (`awaited[i]`), and reports it: `start`
 * before, `done` with its outcome after. A call that never ends is the parent's to stop.
 */
export async function reportCalls(calls: readonly (() => unknown)[], awaited: readonly boolean[]): Promise<void> {
  const scanner = new SecretScanner(process.env);
  const isSecret = (s: string): boolean => scanner.isSecret(s);
  send({ ready: true });
  for (const [index, call] of calls.entries()) {
    send({ start: index });
    let outcome: CallOutcome;
    try {
      const value = awaited[index] === true ? await call() : call();
      const classes = programClasses();
      outcome = { returned: snapshotValue(value, { isSecret, isProgramClass: (ctor) => classes.has(ctor) }) };
    } catch (error) {
      outcome = { threw: describeError(error, isSecret) };
    }
    send({ done: index, outcome });
  }
}

/** What was thrown, as the recorder names it: the class, the program module that defines it at the top level, the message unless it holds a secret. */
function describeError(error: unknown, isSecret: (s: string) => boolean): NonNullable<CallRecord['exception']> {
  if ((typeof error !== 'object' || error === null) && typeof error !== 'function') {
    const text = typeof error === 'symbol' ? undefined : String(error);
    return { name: typeof error, ...(text !== undefined && !isSecret(text) ? { message: text } : {}) };
  }
  const name = className(error) ?? 'Object';
  const module = programClasses().get(constructorOf(error));
  const found = module?.name === name ? module.module : undefined;
  const own = Object.getOwnPropertyDescriptor(error, 'message');
  const message = own && 'value' in own && typeof own.value === 'string' && !isSecret(own.value) ? own.value : undefined;
  return { name, ...(found !== undefined ? { module: found } : {}), ...(message !== undefined ? { message } : {}) };
}

/** The classes the loaded program modules declare at the top level (testHooks' reach), with where a test reaches each. */
function programClasses(): Map<unknown, { module: string; name: string }> {
  const classes = new Map<unknown, { module: string; name: string }>();
  const reached = (globalThis as Record<symbol, unknown>)[Symbol.for(REACH_SYMBOL)];
  if (!(reached instanceof Map)) return classes;
  for (const [module, bindings] of reached as Map<string, Record<string, unknown>>) {
    for (const name of Object.keys(bindings)) {
      try {
        const value = bindings[name];
        if (typeof value === 'function' && !classes.has(value)) classes.set(value, { module, name });
      } catch {
        // a binding not initialised yet holds no class
      }
    }
  }
  return classes;
}

function send(message: DriverMessage): void {
  const bytes = Buffer.from(`${JSON.stringify(message)}\n`);
  for (let written = 0; written < bytes.length; ) {
    try {
      written += writeSync(REPORT_FD, bytes, written);
    } catch (error) {
      // The pipe is full (non-blocking descriptor): the parent is reading; try again.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
}
