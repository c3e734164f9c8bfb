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

/** One row of the generated table: `[member, read kinds, call kinds, categories, flags]` (see apiTypeTable.ts). */
export type ApiTypeRow = readonly [string, string, string, string, string];
