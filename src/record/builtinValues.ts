import { types } from 'node:util';
import type { Snapshot } from './callTrace.ts';

/**
 * What snapshotValue.ts needs to know of built-ins: which functions are built in, which objects
 * hold internal state no field shows, and how a symbol is named. Everything is taken before the
 * program runs and read without running the program's code.
 */
const { getOwnPropertyDescriptor } = Object;
const { apply } = Reflect;
const isArray = Array.isArray;

// The well-known symbols (`Symbol.iterator`), by symbol: a test names them as `Symbol[name]`.
const WELL_KNOWN = new Map<symbol, string>();
for (const name of Object.getOwnPropertyNames(Symbol)) {
  const d = getOwnPropertyDescriptor(Symbol, name);
  const value: unknown = d && 'value' in d ? d.value : undefined;
  if (typeof value === 'symbol') WELL_KNOWN.set(value, name);
}
const { keyFor } = Symbol;
const SymbolDescription = getOwnPropertyDescriptor(Symbol.prototype, 'description')?.get;
const FunctionToString = Function.prototype.toString;
const nativeFunctions = new WeakMap<object, boolean>();

/** Whether a function is built in (`[native code]`): its objects may hold internal state no field shows. Function.prototype.toString runs no program code. */
export function isNative(fn: object): boolean {
  let native = nativeFunctions.get(fn);
  if (native === undefined) {
    native = (apply(FunctionToString, fn, []) as string).endsWith('[native code] }');
    nativeFunctions.set(fn, native);
  }
  return native;
}

/** Objects with internal slots (beyond Map, Set, Date and RegExp, handled before): their fields are not their state. */
export function hasInternalSlots(value: object): boolean {
  return isArray(value) || types.isNativeError(value) || types.isTypedArray(value) || types.isAnyArrayBuffer(value) || types.isDataView(value) || types.isPromise(value)
    || types.isWeakMap(value) || types.isWeakSet(value) || types.isBoxedPrimitive(value) || types.isGeneratorObject(value) || types.isMapIterator(value) || types.isSetIterator(value)
    || types.isModuleNamespaceObject(value) || types.isExternal(value) || types.isArgumentsObject(value) || types.isMap(value) || types.isSet(value) || types.isDate(value) || types.isRegExp(value);
}

/** `Symbol.for(key)`, a well-known symbol (`Symbol.iterator`), or a unique one by its description. */
export function symbolSnapshot(value: symbol): Snapshot {
  const key = keyFor(value);
  if (key !== undefined) return { serialization: 'symbol', symbol: 'registered', value: key };
  const known = WELL_KNOWN.get(value);
  if (known !== undefined) return { serialization: 'symbol', symbol: 'well-known', value: known };
  // Read through the getter taken at load: a program that redefines `description` does not run here.
  const description = SymbolDescription ? (apply(SymbolDescription, value, []) as string | undefined) : undefined;
  return description === undefined ? { serialization: 'symbol', symbol: 'unique' } : { serialization: 'symbol', symbol: 'unique', value: description };
}
