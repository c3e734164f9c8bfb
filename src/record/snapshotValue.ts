import { types } from 'node:util';
import type { Snapshot, SymbolEntry } from './callTrace.ts';
import { hasInternalSlots, isNative, symbolSnapshot } from './builtinValues.ts';

/** How far a snapshot goes; beyond these a value is `repr` (docs/guide/record.md, huge values). */
export const SNAPSHOT_LIMITS = {
  /** Nesting of arrays, objects, maps, sets and instances. */
  maxDepth: 8,
  /** Elements of one array, map or set, or keys of one object. */
  maxItems: 1000,
  /** Characters of one string. */
  maxString: 10_000,
  /** Values in one snapshot, all levels together. */
  maxNodes: 10_000,
} as const;

/** The redacted stand-in for a value that held a secret. */
export const REDACTED: Snapshot = { serialization: 'repr', value: '<redacted:env>', redacted: true };

export interface SnapshotContext {
  /** True for a string that holds a secret (redactEnvValues.ts). */
  readonly isSecret: (s: string) => boolean;
  /** True for a class the program defines: its objects are snapshotted as `instance`. */
  readonly isProgramClass: (ctor: unknown) => boolean;
  /** The program function whose `new` built objects of this prototype, when one did (its prototype may name no constructor: `Foo.prototype = Object.create(null)`). */
  readonly builtBy?: (proto: object) => object | undefined;
  /** The program function a function value is (its text's), when it is one of the program's. */
  readonly programFunction?: (fn: object) => { readonly module: string; readonly qualname: string } | undefined;
}

// Taken before the program runs: a program that patches built-ins does not change what is recorded.
const { getPrototypeOf, getOwnPropertyDescriptor, prototype: ObjectPrototype } = Object;
const { ownKeys, apply } = Reflect;
const isArray = Array.isArray;
const ArrayPrototype = Array.prototype;
const DateGetTime = Date.prototype.getTime;
const DateToISOString = Date.prototype.toISOString;
const RegExpSource = getOwnPropertyDescriptor(RegExp.prototype, 'source')?.get;
const RegExpFlags = getOwnPropertyDescriptor(RegExp.prototype, 'flags')?.get;
const MapForEach = Map.prototype.forEach;
const SetForEach = Set.prototype.forEach;
const MapSize = getOwnPropertyDescriptor(Map.prototype, 'size')?.get;
const SetSize = getOwnPropertyDescriptor(Set.prototype, 'size')?.get;

/** The own keys every function may have; any other is state a stand-in would lack. */
const FUNCTION_KEYS = new Set<PropertyKey>(['length', 'name', 'prototype', 'arguments', 'caller']);
const FUNCTION_PROTOTYPES = new Set<unknown>([Function.prototype, getPrototypeOf(async () => {}), getPrototypeOf(function* () {}), getPrototypeOf(async function* () {})]);

/** Whether a function object holds more than a function: own properties (chalk's builders keep their styles so) or a prototype of its own. */
function hasOwnState(fn: object): boolean {
  return !FUNCTION_PROTOTYPES.has(getPrototypeOf(fn)) || ownKeys(fn).some((key) => !FUNCTION_KEYS.has(key));
}

/** Thrown inside a walk: the whole snapshot becomes this `repr`. */
class Unreplayable {
  readonly snapshot: Snapshot;
  constructor(snapshot: Snapshot) {
    this.snapshot = snapshot;
  }
}

/** Thrown inside a JSON walk: the value is not all JSON, but its members may each be snapshotted (`object`, `array`). */
class NotJson {}
const NOT_JSON = new NotJson();

const repr = (value: string): Unreplayable => new Unreplayable({ serialization: 'repr', value });

/** A data property's value, never running a getter; undefined for an accessor. */
function dataValue(obj: object, key: PropertyKey): { value: unknown } | undefined {
  const d = getOwnPropertyDescriptor(obj, key);
  return d && 'value' in d ? { value: d.value } : undefined;
}

/** The name of an object's class, read from data properties only (a Proxy's traps are not run: it has none). */
export function className(value: object): string | undefined {
  if (types.isProxy(value)) return undefined;
  const proto = getPrototypeOf(value) as object | null;
  const ctor = proto ? dataValue(proto, 'constructor')?.value : undefined;
  const name = typeof ctor === 'function' ? dataValue(ctor, 'name')?.value : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** The constructor an object's prototype names, read from a data property. */
export function constructorOf(value: object): unknown {
  if (types.isProxy(value)) return undefined;
  const proto = getPrototypeOf(value) as object | null;
  return proto ? dataValue(proto, 'constructor')?.value : undefined;
}

/** An object's own data properties as the snapshot reads them: enumerable string keys, and every symbol key (symbol-keyed state is often hidden: `defineProperty(this, kType, { value })`). */
interface OwnFields {
  readonly strings: (readonly [string, PropertyDescriptor])[];
  readonly symbols: (readonly [symbol, PropertyDescriptor])[];
}

class Walk {
  private nodes = 0;
  private readonly ancestors: object[] = [];
  private readonly ctx: SnapshotContext;
  constructor(ctx: SnapshotContext) {
    this.ctx = ctx;
  }

  private count(depth: number): void {
    if (++this.nodes > SNAPSHOT_LIMITS.maxNodes) throw repr(`too large (over ${SNAPSHOT_LIMITS.maxNodes} values)`);
    if (depth > SNAPSHOT_LIMITS.maxDepth) throw repr(`too deep (over ${SNAPSHOT_LIMITS.maxDepth} levels)`);
  }

  private string(s: string): string {
    if (s.length > SNAPSHOT_LIMITS.maxString) throw repr(`string of ${s.length} characters`);
    if (this.ctx.isSecret(s)) throw new Unreplayable(REDACTED);
    return s;
  }

  private enter<T>(obj: object, fn: () => T): T {
    // A stack, not a Set: it is at most maxDepth deep. Its callers (object, json) have already met a cycle.
    this.ancestors.push(obj);
    try {
      return fn();
    } finally {
      this.ancestors.pop();
    }
  }

  /** A value as the snapshot it stands for. */
  snap(value: unknown, depth: number): Snapshot {
    this.count(depth);
    switch (typeof value) {
      case 'undefined': return { serialization: 'undefined' };
      case 'bigint': return { serialization: 'bigint', value: this.string(String(value)) };
      case 'symbol': return this.symbol(value);
      case 'function': {
        // A proxied function's traps are the program's code: its name is not read.
        if (types.isProxy(value)) throw repr('Proxy');
        const name = dataValue(value, 'name')?.value;
        const program = this.ctx.programFunction?.(value);
        const own = program !== undefined && hasOwnState(value) ? { withState: true as const } : {};
        return { serialization: 'function', value: typeof name === 'string' ? this.string(name) : '', ...(program !== undefined ? { function: program } : {}), ...own };
      }
      case 'object': if (value !== null) return this.object(value, depth);
    }
    return { serialization: 'json', value: this.json(value, depth) };
  }

  /** `Symbol.for(key)`, a well-known symbol, or a unique one by its description (the key or description checked as any string). */
  private symbol(value: symbol): Snapshot {
    const s = symbolSnapshot(value);
    if (typeof s.value === 'string') this.string(s.value);
    return s;
  }

  private object(value: object, depth: number): Snapshot {
    if (types.isProxy(value)) throw repr('Proxy');
    // A reference back to an object being snapshotted: it is rebuilt as the same object (a parent link, `a.self = a`).
    const at = this.ancestors.lastIndexOf(value);
    if (at >= 0) return { serialization: 'cycle', value: this.ancestors.length - at };
    if (types.isDate(value)) {
      if (Number.isNaN(apply(DateGetTime, value, []))) throw repr('Invalid Date');
      return { serialization: 'date', value: apply(DateToISOString, value, []) as string };
    }
    if (types.isRegExp(value) && RegExpSource && RegExpFlags) {
      return { serialization: 'regexp', value: { source: this.string(apply(RegExpSource, value, []) as string), flags: apply(RegExpFlags, value, []) as string } };
    }
    if (types.isMap(value) && MapSize) return this.enter(value, () => this.collection(value, MapSize, MapForEach, 'map', depth));
    if (types.isSet(value) && SetSize) return this.enter(value, () => this.collection(value, SetSize, SetForEach, 'set', depth));
    const proto = getPrototypeOf(value);
    if (proto === ObjectPrototype || proto === null || (proto === ArrayPrototype && isArray(value))) {
      const nodes = this.nodes;
      try {
        return { serialization: 'json', value: this.json(value, depth) };
      } catch (e) {
        if (!(e instanceof NotJson)) throw e;
        this.nodes = nodes;
      }
      return this.enter(value, () => (isArray(value) ? this.elements(value, depth) : this.fields(value, proto === null, depth)));
    }
    if (this.isInstance(value)) return this.enter(value, () => this.instance(value, depth));
    throw repr(`[object ${className(value) ?? 'Object'}]`);
  }

  /** An object of a class or function constructor whose own fields are its state: the program's classes, and any constructor not built in. */
  private isInstance(value: object): boolean {
    if (hasInternalSlots(value)) return false;
    const ctor = this.constructorOf(value);
    if (typeof ctor !== 'function' || types.isProxy(ctor)) return false;
    return this.ctx.isProgramClass(ctor) || (!isNative(ctor) && className(value) !== undefined);
  }

  /** The function constructor `new` built the object with, as recorded, else the constructor its prototype names. */
  private constructorOf(value: object): unknown {
    if (types.isProxy(value)) return undefined;
    const proto = getPrototypeOf(value) as object | null;
    return (proto !== null ? this.ctx.builtBy?.(proto) : undefined) ?? constructorOf(value);
  }

  private collection(value: object, size: () => unknown, forEach: (this: object, cb: (v: unknown, k: unknown) => void) => void, kind: 'map' | 'set', depth: number): Snapshot {
    if ((apply(size, value, []) as number) > SNAPSHOT_LIMITS.maxItems) throw repr(`${kind === 'map' ? 'Map' : 'Set'} of ${apply(size, value, []) as number} entries`);
    const out: unknown[] = [];
    apply(forEach, value, [(v: unknown, k: unknown) => {
      out.push(kind === 'map' ? [this.snap(k, depth + 1), this.snap(v, depth + 1)] : this.snap(v, depth + 1));
    }]);
    return { serialization: kind, value: out };
  }

  private instance(value: object, depth: number): Snapshot {
    const own = this.ownFields(value);
    const fields: Record<string, Snapshot> = {};
    for (const [key, d] of own.strings) {
      if (!('value' in d)) throw repr(`[object ${className(value) ?? 'Object'}] with an accessor`);
      if (key === '__proto__') throw repr('object with an own __proto__');
      fields[this.string(key)] = this.snap(d.value, depth + 1);
    }
    const symbols = this.symbolEntries(own, depth);
    const ctor = this.constructorOf(value);
    const name = typeof ctor === 'function' ? dataValue(ctor, 'name')?.value : undefined;
    return { serialization: 'instance', class: typeof name === 'string' && name !== '' ? name : (className(value) ?? 'Object'), value: fields, ...(symbols.length > 0 ? { symbols } : {}) };
  }

  /** A plain or null-prototype object that is not all JSON, field by field. */
  private fields(value: object, nullPrototype: boolean, depth: number): Snapshot {
    const own = this.ownFields(value);
    const fields: Record<string, Snapshot> = {};
    for (const [key, d] of own.strings) {
      if (!('value' in d)) throw repr('object with an accessor');
      if (key === '__proto__') throw repr('object with an own __proto__');
      fields[this.string(key)] = this.snap(d.value, depth + 1);
    }
    const symbols = this.symbolEntries(own, depth);
    return { serialization: 'object', value: fields, ...(nullPrototype ? { nullPrototype: true } : {}), ...(symbols.length > 0 ? { symbols } : {}) };
  }

  /** An array that is not all JSON, element by element. */
  private elements(value: unknown[], depth: number): Snapshot {
    const length = dataValue(value, 'length')?.value as number;
    if (length > SNAPSHOT_LIMITS.maxItems) throw repr(`Array of ${length} elements`);
    const own = this.ownFields(value);
    if (own.strings.length < length || own.symbols.length > 0) throw repr('sparse array or array with symbol keys');
    const out: Snapshot[] = [];
    for (let i = 0; i < length; i++) {
      // Own keys list the indices first, in order: a dense array's first `length` keys are 0, 1, ….
      const [key, d] = own.strings[i] as readonly [string, PropertyDescriptor];
      if (key !== String(i)) throw repr('sparse array');
      if (!('value' in d)) throw repr('array with an accessor');
      out.push(this.snap(d.value, depth + 1));
    }
    // Named properties after the elements (marked's `tokens.links`).
    const fields: Record<string, Snapshot> = {};
    for (const [key, d] of own.strings.slice(length)) {
      if (!('value' in d)) throw repr('array with an accessor');
      if (key === '__proto__') throw repr('object with an own __proto__');
      fields[this.string(key)] = this.snap(d.value, depth + 1);
    }
    // As array() does for a JSON array: bytes among the elements may spell a secret.
    const bytes = out.map((e) => e.value).filter((b, i) => out[i]?.serialization === 'json' && Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255) as number[];
    if (bytes.length >= 6 && this.ctx.isSecret(String.fromCharCode(...bytes))) throw new Unreplayable(REDACTED);
    return own.strings.length > length ? { serialization: 'array', value: out, fields } : { serialization: 'array', value: out };
  }

  private symbolEntries(own: OwnFields, depth: number): SymbolEntry[] {
    return own.symbols.map(([key, d]) => {
      if (!('value' in d)) throw repr('object with a symbol-keyed accessor');
      return { key: this.symbol(key), value: this.snap(d.value, depth + 1), enumerable: d.enumerable === true };
    });
  }

  /** Own enumerable string keys and all symbol keys, with their descriptors (read once). */
  private ownFields(value: object): OwnFields {
    const strings: (readonly [string, PropertyDescriptor])[] = [];
    const symbols: (readonly [symbol, PropertyDescriptor])[] = [];
    for (const key of ownKeys(value)) {
      const d = getOwnPropertyDescriptor(value, key);
      if (d === undefined) continue;
      if (typeof key === 'symbol') symbols.push([key, d]);
      else if (d.enumerable) strings.push([key, d]);
    }
    if (strings.length + symbols.length > SNAPSHOT_LIMITS.maxItems) throw repr(`object with ${strings.length + symbols.length} keys`);
    return { strings, symbols };
  }

  /** Own enumerable string keys with their descriptors (read once); a symbol key, enumerable or not, makes the value not all JSON. */
  private ownEnumerable(value: object): (readonly [string, PropertyDescriptor])[] {
    const { strings, symbols } = this.ownFields(value);
    if (symbols.length > 0) throw NOT_JSON;
    return strings;
  }

  /** A JSON value exactly as it is (deepStrictEqual to the original), or a throw saying why not: NOT_JSON when its members can be snapshotted one by one. */
  private json(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case 'string': return this.string(value);
      case 'boolean': return value;
      case 'number':
        if (!Number.isFinite(value)) throw repr(String(value));
        if (Object.is(value, -0)) throw repr('-0');
        return value;
      case 'object': {
        if (value === null) return null;
        if (types.isProxy(value)) throw repr('Proxy');
        const proto = getPrototypeOf(value);
        if (this.ancestors.includes(value)) throw NOT_JSON;
        if (isArray(value) && proto === ArrayPrototype) return this.enter(value, () => this.array(value, depth));
        if (proto === ObjectPrototype) return this.enter(value, () => this.plain(value, depth));
        throw NOT_JSON;
      }
      default: throw NOT_JSON;
    }
  }

  private array(value: unknown[], depth: number): unknown[] {
    const length = dataValue(value, 'length')?.value as number;
    if (length > SNAPSHOT_LIMITS.maxItems) throw repr(`Array of ${length} elements`);
    const fields = this.ownEnumerable(value);
    // More keys than elements: named properties too, snapshotted one by one (`array`); fewer: holes.
    if (fields.length > length) throw NOT_JSON;
    if (fields.length !== length) throw repr('sparse array or array with extra properties');
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      // Indices come first, in order: the i-th field is index i unless an index is not among them (a hole, or not enumerable): then it is looked up.
      const field = fields[i];
      const d = field !== undefined && field[0] === String(i) ? field[1] : getOwnPropertyDescriptor(value, i);
      if (!d || !('value' in d)) throw repr('array with an accessor');
      this.count(depth + 1);
      out.push(this.json(d.value, depth + 1));
    }
    // An array of bytes is text to a program (Buffer.from(secret), [...new TextEncoder().encode(secret)]): read as such.
    if (out.length >= 6 && out.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255) && this.ctx.isSecret(String.fromCharCode(...(out as number[])))) throw new Unreplayable(REDACTED);
    return out;
  }

  private plain(value: object, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, d] of this.ownEnumerable(value)) {
      if (!('value' in d)) throw repr('object with an accessor');
      if (d.value === undefined) throw NOT_JSON;
      if (key === '__proto__') throw repr('object with an own __proto__');
      this.count(depth + 1);
      out[this.string(key)] = this.json(d.value, depth + 1);
    }
    return out;
  }
}

/**
 * A JSON-safe snapshot of a value (callTrace.ts `Snapshot`), taken without running any of the
 * program's code (no getters, no proxies, no `toJSON`). A value that is too deep or too
 * large, or not replayable is `repr`; a value holding a secret anywhere is the redacted `repr`.
 */
export function snapshotValue(value: unknown, ctx: SnapshotContext): Snapshot {
  try {
    return new Walk(ctx).snap(value, 0);
  } catch (e) {
    if (e instanceof Unreplayable) return e.snapshot;
    return { serialization: 'repr', value: 'unreadable' };
  }
}
