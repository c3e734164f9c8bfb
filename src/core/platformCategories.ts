import type { Category } from './categories.ts';

// What the platform's declaration files call each value category: the interfaces the generated
// platform table is read from (src/values/apiTypes/), and the type names a snippet's annotations
// are read by (src/instrument/typeShape.ts).

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
} as const satisfies Partial<Record<Category, { roots: readonly string[]; representative: string }>>;
export type ApiCategory = keyof typeof API_CATEGORIES;

