import type { CallRecord, Snapshot } from '../record/callTrace.ts';
import type { ClassRef } from './programIndex.ts';
import { returnSnapshot } from './readTrace.ts';
import { toReplayValue, type ReplayValue, type ReplayValueContext } from './replayValue.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';

/** An error class as a test names it: a global built-in, or a class reached from its program module. */
export type ErrorRef = { readonly kind: 'builtin'; readonly name: string } | { readonly kind: 'program'; readonly class: ClassRef };

export type Outcome = { readonly kind: 'return'; readonly value: ReplayValue } | { readonly kind: 'throw'; readonly error: ErrorRef; readonly message: string | undefined };

/** A generator's values as the array a test compares `[...generator]` with: JSON values only. */
export function yieldedValues(yields: readonly Snapshot[], context: ReplayValueContext): Outcome | SkipReason {
  const values: unknown[] = [];
  for (const [i, snapshot] of yields.entries()) {
    const value = toReplayValue(snapshot, `value ${i + 1} it yielded`, context);
    if (isSkip(value)) return value;
    if (value.kind !== 'json') return skip('not-json-safe', `value ${i + 1} it yielded is a ${value.kind}, which a test compares only inside JSON`);
    values.push(value.value);
  }
  return { kind: 'return', value: { kind: 'json', value: values } };
}

export function outcomeOf(call: CallRecord, where: string, context: ReplayValueContext): Outcome | SkipReason {
  if (call.threw !== true) {
    const value = toReplayValue(returnSnapshot(call), where, context);
    return isSkip(value) ? value : { kind: 'return', value };
  }
  const exception = call.exception ?? { name: 'Error' };
  if (exception.message?.includes('<redacted') === true) return skip('redacted', `the message of the ${exception.name} it threw was redacted`);
  if (exception.module !== undefined) {
    const outline = context.index.outline(exception.module);
    const binding = isSkip(outline) ? undefined : outline.bindings.get(exception.name);
    if (binding?.kind !== 'class') return skip('unreachable-class', `it threw ${exception.name}, which is not a top-level class of ${exception.module}`);
    return { kind: 'throw', error: { kind: 'program', class: { module: exception.module, name: exception.name, shape: binding.shape } }, message: exception.message };
  }
  const builtin = (globalThis as Record<string, unknown>)[exception.name];
  if (typeof builtin === 'function' && (builtin === Error || builtin.prototype instanceof Error)) return { kind: 'throw', error: { kind: 'builtin', name: exception.name }, message: exception.message };
  return skip('unreachable-class', `it threw ${exception.name}, which is neither a built-in error nor a class of a program module`);
}
