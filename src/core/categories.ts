/** Value categories of the dummy table; `Dummy` absorbs any operation and is the last resort. */
export const CATEGORIES = [
  'undefined', 'null', 'boolean', 'number', 'string', 'array', 'tuple', 'object', 'function', 'class', 'promise',
  'Map', 'Set', 'Date', 'RegExp', 'Error', 'element', 'Dummy',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** What a missing element is: a free name, the top-level `this`, a member, a call's result, a module, a part of a value. */
export type ElementKind = 'global' | 'receiver' | 'member' | 'return' | 'module' | 'part' | 'callee' | 'constructor' | 'iterable' | 'destructure' | 'argument' | 'environment';
