import type { Snapshot } from '../record/callTrace.ts';
import type { ClassRef, ProgramIndex } from './programIndex.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';

/** A recorded value a generated test can build again; classes are resolved to where a test reaches them. */
export type ReplayValue =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'undefined' }
  | { readonly kind: 'bigint'; readonly value: string }
  | { readonly kind: 'date'; readonly value: string }
  | { readonly kind: 'map'; readonly entries: readonly (readonly [ReplayValue, ReplayValue])[] }
  | { readonly kind: 'set'; readonly values: readonly ReplayValue[] }
  | { readonly kind: 'regexp'; readonly source: string; readonly flags: string }
  | { readonly kind: 'instance'; readonly class: ClassRef; readonly fields: readonly (readonly [string, ReplayValue])[] };

export interface ReplayValueContext {
  readonly index: ProgramIndex;
  /** The module of the call, searched first for a class. */
  readonly near: string;
  /** A call's own result: a date in it may come from the clock. */
  readonly isResult: boolean;
}

/** The snapshot as a value a test can build, or why it cannot be; `where` names it in the reason (`argument items`). */
export function toReplayValue(snapshot: Snapshot, where: string, context: ReplayValueContext): ReplayValue | SkipReason {
  switch (snapshot.serialization) {
    case 'json':
      return { kind: 'json', value: snapshot.value };
    case 'undefined':
      return { kind: 'undefined' };
    case 'bigint':
      return { kind: 'bigint', value: String(snapshot.value) };
    case 'date':
      if (context.isResult) return skip('time-dependent', `${where} holds a date, which may come from the clock`);
      return { kind: 'date', value: String(snapshot.value) };
    case 'regexp': {
      const { source, flags } = snapshot.value as { source: string; flags: string };
      return { kind: 'regexp', source, flags };
    }
    case 'map': {
      const entries: (readonly [ReplayValue, ReplayValue])[] = [];
      for (const [key, value] of snapshot.value as [Snapshot, Snapshot][]) {
        const k = toReplayValue(key, `a key of ${where}`, context);
        if (isSkip(k)) return k;
        const v = toReplayValue(value, `a value of ${where}`, context);
        if (isSkip(v)) return v;
        entries.push([k, v]);
      }
      return { kind: 'map', entries };
    }
    case 'set': {
      const values: ReplayValue[] = [];
      for (const item of snapshot.value as Snapshot[]) {
        const v = toReplayValue(item, `a member of ${where}`, context);
        if (isSkip(v)) return v;
        values.push(v);
      }
      return { kind: 'set', values };
    }
    case 'instance':
      return instanceValue(snapshot, where, context);
    case 'function':
      return skip('function-value', `${where} is a function${typeof snapshot.value === 'string' && snapshot.value !== '' ? ` (${snapshot.value})` : ''}`);
    case 'repr':
      if (snapshot.redacted === true) return skip('redacted', `${where} held a secret and was redacted`);
      return skip('not-json-safe', `${where} is not JSON-safe${typeof snapshot.value === 'string' ? ` (${snapshot.value})` : ''}`);
  }
}

function instanceValue(snapshot: Snapshot, where: string, context: ReplayValueContext): ReplayValue | SkipReason {
  if (snapshot.class === undefined) return skip('unreachable-class', `${where} is an object whose class the trace does not name`);
  const ref = context.index.locateClass(snapshot.class, context.near);
  if (isSkip(ref)) return skip(ref.kind, `${where}: ${ref.detail}`);
  const unbuildable = context.index.unbuildable(ref);
  if (unbuildable !== undefined) return skip(unbuildable.kind, `${where}: ${unbuildable.detail}`);
  const fields: (readonly [string, ReplayValue])[] = [];
  for (const [name, field] of Object.entries(snapshot.value as Record<string, Snapshot>)) {
    const value = toReplayValue(field, `${where}.${name}`, context);
    if (isSkip(value)) return value;
    fields.push([name, value]);
  }
  return { kind: 'instance', class: ref, fields };
}
