import type { Snapshot, SymbolRegistry } from '../record/callTrace.ts';
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
  | { readonly kind: 'instance'; readonly class: ClassRef; readonly fields: readonly (readonly [string, ReplayValue])[]; readonly symbols: readonly SymbolField[] }
  | { readonly kind: 'object'; readonly nullPrototype: boolean; readonly fields: readonly (readonly [string, ReplayValue])[]; readonly symbols: readonly SymbolField[] }
  | { readonly kind: 'array'; readonly items: readonly ReplayValue[]; readonly fields: readonly (readonly [string, ReplayValue])[] }
  /** The object `up` levels above (1: the one holding it), as recorded (callTrace.ts `cycle`). */
  | { readonly kind: 'cycle'; readonly up: number }
  /** A program function, the object itself: reached from `module`'s reach() through `path` (functionValues.ts). */
  | { readonly kind: 'function'; readonly module: string; readonly path: readonly string[] }
  /** A stand-in for a program function no test reaches, held in the test's variable (functionValues.ts). */
  | { readonly kind: 'stand-in'; readonly variable: string }
  /** The object a closure sequence's maker call returned, the test's `made` (closureSequences.ts): a result compared by identity. */
  | { readonly kind: 'made' }
  | SymbolValue;

/** A symbol as a test makes it: `Symbol.for(name)`, `Symbol[name]`, or a new `Symbol(name)` (unique: equal to the recorded one only by description). */
export interface SymbolValue {
  readonly kind: 'symbol';
  readonly registry: SymbolRegistry;
  readonly name: string | undefined;
}

/** A symbol-keyed own property of an object a test builds. */
export interface SymbolField {
  readonly key: SymbolValue;
  readonly value: ReplayValue;
  readonly enumerable: boolean;
}

export interface ReplayValueContext {
  readonly index: ProgramIndex;
  /** The module of the call, searched first for a class. */
  readonly near: string;
  /** A call's own result: a date in it may come from the clock. */
  readonly isResult: boolean;
  /** How the tested call's values give function values again (functionValues.ts; in a result, only as the program's own object); without it, a function value is skipped. */
  readonly functions?: { resolve(snapshot: Snapshot, where: string, standIn: boolean): ReplayValue | SkipReason };
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
    case 'object': {
      const fields = fieldValues(snapshot, where, context);
      if (isSkip(fields)) return fields;
      const symbols = symbolFields(snapshot, where, context);
      if (isSkip(symbols)) return symbols;
      return { kind: 'object', nullPrototype: snapshot.nullPrototype === true, fields, symbols };
    }
    case 'array': {
      const items: ReplayValue[] = [];
      for (const [index, item] of (snapshot.value as Snapshot[]).entries()) {
        const v = toReplayValue(item, `${where}[${index}]`, context);
        if (isSkip(v)) return v;
        items.push(v);
      }
      const fields = fieldValues({ ...snapshot, value: snapshot.fields ?? {} }, where, context);
      if (isSkip(fields)) return fields;
      return { kind: 'array', items, fields };
    }
    case 'cycle':
      return { kind: 'cycle', up: Number(snapshot.value) };
    case 'symbol': {
      const symbol = symbolValue(snapshot);
      // The program compares its own unique symbols by identity (emittery's listenerAdded): a test's new one is another.
      if (symbol.registry === 'unique' && !context.isResult) return skip('not-json-safe', `${where} is the unique symbol Symbol(${symbol.name ?? ''}), which a test cannot make again`);
      return symbol;
    }
    case 'function':
      if (context.functions !== undefined) return context.functions.resolve(snapshot, where, !context.isResult);
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
  const fields = fieldValues(snapshot, where, context);
  if (isSkip(fields)) return fields;
  const symbols = symbolFields(snapshot, where, context);
  if (isSkip(symbols)) return symbols;
  return { kind: 'instance', class: ref, fields, symbols };
}

function fieldValues(snapshot: Snapshot, where: string, context: ReplayValueContext): (readonly [string, ReplayValue])[] | SkipReason {
  const fields: (readonly [string, ReplayValue])[] = [];
  for (const [name, field] of Object.entries(snapshot.value as Record<string, Snapshot>)) {
    const value = toReplayValue(field, `${where}.${name}`, context);
    if (isSkip(value)) return value;
    fields.push([name, value]);
  }
  return fields;
}

function symbolValue(snapshot: Snapshot): SymbolValue {
  return { kind: 'symbol', registry: snapshot.symbol ?? 'unique', name: typeof snapshot.value === 'string' ? snapshot.value : undefined };
}

/**
 * The symbol-keyed state of an object. A test can make a registered or well-known key again, not
 * a unique one: the program would not find state under the test's new `Symbol(name)`, so an
 * argument or receiver holding one is skipped; a result's is compared by description.
 */
function symbolFields(snapshot: Snapshot, where: string, context: ReplayValueContext): SymbolField[] | SkipReason {
  const fields: SymbolField[] = [];
  for (const entry of snapshot.symbols ?? []) {
    const key = symbolValue(entry.key);
    const name = key.registry === 'registered' ? `Symbol.for(${JSON.stringify(key.name)})` : key.registry === 'well-known' ? `Symbol.${key.name ?? ''}` : `Symbol(${key.name ?? ''})`;
    if (key.registry === 'unique' && !context.isResult) return skip('not-json-safe', `${where} holds state under the unique symbol ${name}, which a test cannot make again`);
    const value = toReplayValue(entry.value, `${where}[${name}]`, context);
    if (isSkip(value)) return value;
    fields.push({ key, value, enumerable: entry.enumerable });
  }
  return fields;
}

/** The values a value is built of: entries, members, elements, fields, symbol keys and their values. */
export function replayParts(value: ReplayValue): readonly ReplayValue[] {
  switch (value.kind) {
    case 'map': return value.entries.flat();
    case 'set': return value.values;
    case 'array': return [...value.items, ...value.fields.map(([, v]) => v)];
    case 'object':
    case 'instance': return [...value.fields.map(([, v]) => v), ...value.symbols.flatMap((s) => [s.key, s.value])];
    default: return [];
  }
}

/** Whether a value holds a reference to itself (to exactly it, from any depth below). */
export function refersTo(value: ReplayValue): boolean {
  const visit = (part: ReplayValue, depth: number): boolean => (part.kind === 'cycle' ? part.up === depth : replayParts(part).some((p) => visit(p, depth + 1)));
  return replayParts(value).some((part) => visit(part, 1));
}

/** Whether a value holds a unique symbol (as a value or a key): a test compares it by description. */
export function holdsUniqueSymbol(value: ReplayValue): boolean {
  return (value.kind === 'symbol' && value.registry === 'unique') || replayParts(value).some(holdsUniqueSymbol);
}
