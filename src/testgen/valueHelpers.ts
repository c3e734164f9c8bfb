/**
 * Helpers a generated test file declares when its values need them (renderSnapshot.ts names them):
 * `cycle(n)` and `linked(value)` rebuild a value that refers to an object holding it, and
 * `bySymbolDescription(value)` compares a result holding unique symbols by their descriptions.
 */
export const VALUE_HELPERS = {
  cycle: `/** Where a recorded value referred to an object holding it: the object \`up\` levels above (linked() puts it there). */
class Cycle {
  constructor(up) {
    this.up = up;
  }
}

function cycle(up) {
  return new Cycle(up);
}`,
  linked: `/** \`root\` with each cycle(n) below it replaced by the object n levels above that place; one pointing above \`root\` is left for an outer linked(). */
function linked(root) {
  const above = [];
  const visit = (value) => {
    if (value instanceof Cycle) return above.length - value.up >= 0 ? above[above.length - value.up] : value;
    if (typeof value !== 'object' || value === null || above.includes(value)) return value;
    above.push(value);
    if (value instanceof Map) for (const [key, item] of [...value]) value.delete(key), value.set(visit(key), visit(item));
    else if (value instanceof Set) for (const item of [...value]) value.delete(item), value.add(visit(item));
    else {
      for (const key of Reflect.ownKeys(value)) {
        const property = Object.getOwnPropertyDescriptor(value, key);
        const next = 'value' in property ? visit(property.value) : undefined;
        if (next !== undefined && next !== property.value) Object.defineProperty(value, key, { ...property, value: next });
      }
    }
    above.pop();
    return value;
  };
  return visit(root);
}`,
  bySymbolDescription: `/**
 * A copy of \`value\` with every unique symbol, as a value or a key, replaced by the string \`Symbol(description)\`
 * (prototypes kept): a test's \`Symbol("x")\` is never the program's, so the two are compared by description.
 */
function bySymbolDescription(value, copies = new Map()) {
  const wellKnown = Object.getOwnPropertyNames(Symbol).map((name) => Symbol[name]);
  const described = (v) => (typeof v === 'symbol' && Symbol.keyFor(v) === undefined && !wellKnown.includes(v) ? \`Symbol(\${v.description ?? ''})\` : v);
  if (typeof value !== 'object' || value === null) return described(value);
  if (copies.has(value)) return copies.get(value);
  if (value instanceof Date || value instanceof RegExp) return value;
  const each = (v) => bySymbolDescription(v, copies);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [each(k), each(v)]));
  if (value instanceof Set) return new Set([...value].map(each));
  if (Array.isArray(value)) return value.map(each);
  const copy = Object.create(Object.getPrototypeOf(value));
  copies.set(value, copy);
  for (const key of Reflect.ownKeys(value)) {
    const property = Object.getOwnPropertyDescriptor(value, key);
    if ('value' in property) Object.defineProperty(copy, described(key), { ...property, value: each(property.value) });
  }
  return copy;
}`,
} as const;
