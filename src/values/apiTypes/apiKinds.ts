/**
 * The coarse kinds a platform type is read as: a primitive, a category of the value generators
 * (array, element, promise, Date…), `this` (the method returns its receiver), `any` (a type
 * parameter, `any` or `unknown`: the platform does not say).
 */
export const API_KINDS = [
  'number', 'string', 'boolean', 'bigint', 'symbol', 'undefined', 'null', 'never', 'this', 'any',
  'array', 'element', 'promise', 'function', 'Date', 'RegExp', 'Map', 'Set', 'Error', 'object',
] as const;
export type ApiKind = (typeof API_KINDS)[number];

/**
 * The platform interfaces each value category stands for: `roots`, whose family is them and what
 * extends them (an `instanceof` of any of these names that category), and the `representative`
 * whose members (inherited ones included) the category has. `object` is what every object has.
 */
export const API_CATEGORIES = {
  string: { roots: ['String'], representative: 'String' },
  number: { roots: ['Number'], representative: 'Number' },
  boolean: { roots: ['Boolean'], representative: 'Boolean' },
  array: { roots: ['Array', 'ReadonlyArray'], representative: 'Array' },
  Date: { roots: ['Date'], representative: 'Date' },
  RegExp: { roots: ['RegExp'], representative: 'RegExp' },
  Map: { roots: ['Map', 'ReadonlyMap'], representative: 'Map' },
  Set: { roots: ['Set', 'ReadonlySet'], representative: 'Set' },
  promise: { roots: ['Promise'], representative: 'Promise' },
  Error: { roots: ['Error'], representative: 'Error' },
  function: { roots: ['Function'], representative: 'Function' },
  element: { roots: ['Node'], representative: 'HTMLElement' },
  object: { roots: ['Object'], representative: 'Object' },
} as const satisfies Record<string, { roots: readonly string[]; representative: string }>;
export type ApiCategory = keyof typeof API_CATEGORIES;

/** One row of the generated table: `[member, read kinds, call kinds, categories, flags]` (see apiTypeTable.ts). */
export type ApiTypeRow = readonly [string, string, string, string, string];
