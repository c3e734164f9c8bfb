import * as t from '@babel/types';
import { refersTo, type ReplayValue, type SymbolField, type SymbolValue } from './replayValue.ts';

/** How rendered code names things defined elsewhere in the test file. */
export interface RenderNames {
  /** The expression for a top-level function or class of a program module (`cart.Cart`, through the module's variable). */
  reached(module: string, name: string): string;
  /** The file's helper that builds an object without its constructor: `instance(Class, { …fields })`. */
  readonly instanceHelper: string;
  /** The file's helpers for a value that refers to itself: `linked(value)` replaces each `cycle(n)` in it by the object n levels above. */
  readonly cycleHelpers: { readonly cycle: string; readonly linked: string };
}

/** A property name in an object literal or after a dot: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  // `{ __proto__: x }` would set the prototype; a computed key makes an own property as JSON.parse does.
  if (name === '__proto__') return '["__proto__"]';
  return t.isValidIdentifier(name, false) ? name : JSON.stringify(name);
}

/** `.name`, or `["na-me"]` when the name is not an identifier. */
export function propertyAccess(name: string): string {
  return t.isValidIdentifier(name, false) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** A JSON value as a JavaScript literal that builds an equal value (own properties, as JSON.parse makes them). */
export function renderJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(renderJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${propertyKey(key)}: ${renderJson(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** The expression that builds the value again in a generated test. */
export function renderValue(value: ReplayValue, names: RenderNames): string {
  const built = renderParts(value, names);
  // The object a `cycle(n)` below it points at is linked as soon as it is built; a cycle pointing higher is left for an outer one.
  return refersTo(value) ? `${names.cycleHelpers.linked}(${built})` : built;
}

function renderParts(value: ReplayValue, names: RenderNames): string {
  switch (value.kind) {
    case 'cycle':
      return `${names.cycleHelpers.cycle}(${value.up})`;
    case 'json':
      return renderJson(value.value);
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return `${value.value}n`;
    case 'date':
      return `new Date(${JSON.stringify(value.value)})`;
    case 'regexp':
      return `new RegExp(${JSON.stringify(value.source)}, ${JSON.stringify(value.flags)})`;
    case 'map':
      return `new Map([${value.entries.map(([k, v]) => `[${renderValue(k, names)}, ${renderValue(v, names)}]`).join(', ')}])`;
    case 'set':
      return `new Set([${value.values.map((v) => renderValue(v, names)).join(', ')}])`;
    case 'instance': {
      const fields = value.fields.map(([key, field]) => `${propertyKey(key)}: ${renderValue(field, names)}`);
      const object = `${names.instanceHelper}(${names.reached(value.class.module, value.class.name)}, ${fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`})`;
      return withSymbols(object, value.symbols, names);
    }
    case 'object': {
      // `{ __proto__: null, … }`: a literal whose prototype is null (the key is not computed, so it sets the prototype).
      const enumerable = value.symbols.filter((s) => s.enumerable);
      const fields = [
        ...(value.nullPrototype ? ['__proto__: null'] : []),
        ...value.fields.map(([key, field]) => `${propertyKey(key)}: ${renderValue(field, names)}`),
        ...enumerable.map((s) => `[${renderSymbol(s.key)}]: ${renderValue(s.value, names)}`),
      ];
      return withSymbols(fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`, value.symbols.filter((s) => !s.enumerable), names);
    }
    case 'array': {
      const items = `[${value.items.map((item) => renderValue(item, names)).join(', ')}]`;
      if (value.fields.length === 0) return items;
      // Named properties of an array: assigned after its elements (no `__proto__` among them: the snapshot refuses it).
      return `Object.assign(${items}, { ${value.fields.map(([key, field]) => `${propertyKey(key)}: ${renderValue(field, names)}`).join(', ')} })`;
    }
    case 'symbol':
      return renderSymbol(value);
    case 'function': {
      const [head = '', ...rest] = value.path;
      return `${names.reached(value.module, head)}${rest.map(propertyAccess).join('')}`;
    }
    case 'stand-in':
      return value.variable;
    case 'made':
      return 'made';
  }
}

/** `Symbol.for("k")`, `Symbol.iterator`, or a new `Symbol("description")`. */
export function renderSymbol(value: SymbolValue): string {
  if (value.registry === 'registered') return `Symbol.for(${JSON.stringify(value.name ?? '')})`;
  if (value.registry === 'well-known' && value.name !== undefined && t.isValidIdentifier(value.name, false)) return `Symbol.${value.name}`;
  return value.name === undefined ? 'Symbol()' : `Symbol(${JSON.stringify(value.name)})`;
}

/** The object `expression` builds, with these symbol-keyed properties defined on it (enumerable or not, as recorded). */
function withSymbols(expression: string, symbols: readonly SymbolField[], names: RenderNames): string {
  if (symbols.length === 0) return expression;
  const descriptors = symbols.map((s) => `[${renderSymbol(s.key)}]: { value: ${renderValue(s.value, names)}, enumerable: ${s.enumerable}, writable: true, configurable: true }`);
  return `Object.defineProperties(${expression}, { ${descriptors.join(', ')} })`;
}
