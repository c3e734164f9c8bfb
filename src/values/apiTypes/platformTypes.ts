import type { Category } from '../../core/categories.ts';
import type { ApiCategory } from '../../core/platformCategories.ts';
import type { ApiKind } from './apiKinds.ts';
import { API_INSTANCE_ROWS, API_TYPE_ROWS } from './apiTypeTable.ts';

/** What the platform's declaration files say of one member name (one row of apiTypeTable.ts). */
export interface ApiMember {
  /** Kinds of its value when read as a property; empty when only methods have the name, or the platform does not say. */
  readonly read: readonly ApiKind[];
  /** Kinds of what calling it returns; empty when nothing callable has the name, or the platform does not say. */
  readonly call: readonly ApiKind[];
  /** Categories whose representative interface has it (String for `string`, HTMLElement for `element`…). */
  readonly of: ReadonlySet<ApiCategory>;
  /** The read (call) type is fixed: the deciding declarations agree, and so do most of the platform's. */
  readonly readFixed: boolean;
  readonly callFixed: boolean;
  /** The core (ECMAScript's built-ins, an HTML element and what it inherits, events) decided the read (call) type. */
  readonly readCore: boolean;
  readonly callCore: boolean;
  /** Nothing but the families of the categories in `of` declares it. */
  readonly only: boolean;
  /** A method of the categories in `of` (their families declare it callable only). */
  readonly method: boolean;
}

const MEMBERS: ReadonlyMap<string, ApiMember> = new Map(API_TYPE_ROWS.map(([name, read, call, of, flags]) => [name, {
  read: read === '' ? [] : (read.split('|') as ApiKind[]),
  call: call === '' ? [] : (call.split('|') as ApiKind[]),
  of: new Set(of === '' ? [] : (of.split(' ') as ApiCategory[])),
  readFixed: flags.includes('r'), readCore: flags.includes('R'), callFixed: flags.includes('c'), callCore: flags.includes('C'), only: flags.includes('x'), method: flags.includes('m'),
}]));

/** The platform's facts about a member name, if it has any worth keeping. */
export function apiMember(name: string): ApiMember | undefined {
  return MEMBERS.get(name);
}

function membersOf(category: ApiCategory): string[] {
  return [...MEMBERS].filter(([, m]) => m.of.has(category)).map(([name]) => name);
}

/** Members every object has (Object's), and `__proto__`: reading them says nothing about a value's shape. */
export const OBJECT_KEYS: ReadonlySet<string> = new Set([...membersOf('object'), '__proto__']);

/** Members every function has (Function's, Object's). */
export const FUNCTION_KEYS: ReadonlySet<string> = new Set([...membersOf('function'), ...OBJECT_KEYS]);

/** RegExp's members: a value that only has these, and calls `test` or `exec`, is a RegExp. */
export const REGEXP_KEYS: ReadonlySet<string> = new Set(membersOf('RegExp').filter((k) => !OBJECT_KEYS.has(k)));

/** Methods both strings and arrays have (`slice`, `includes`, `indexOf`…): their use decides which. */
export const SHARED_SEQUENCE_METHODS: ReadonlySet<string> = new Set(
  [...MEMBERS].filter(([name, m]) => m.of.has('string') && m.of.has('array') && m.method && !OBJECT_KEYS.has(name)).map(([name]) => name),
);

/** The categories a single member can reveal; Map, Set and Error are told by combinations of members instead. */
export type RevealedCategory = 'string' | 'array' | 'number' | 'Date' | 'promise' | 'element';
const REVEALED: readonly RevealedCategory[] = ['string', 'array', 'number', 'Date', 'promise', 'element'];

/** The members that reveal a category: methods when called, properties when read. */
export interface Revealing {
  readonly methods: ReadonlySet<string>;
  readonly properties: ReadonlySet<string>;
}

/**
 * A member reveals a category when that category's representative has it and no other revealing
 * category's does, and it is no member of every object; an element's only when nothing but DOM
 * nodes declares it, since the DOM shares names with data (`id`, `title`, `value`).
 */
function revealing(category: RevealedCategory): Revealing {
  const methods = new Set<string>();
  const properties = new Set<string>();
  for (const [name, m] of MEMBERS) {
    if (!m.of.has(category) || OBJECT_KEYS.has(name) || REVEALED.some((c) => c !== category && m.of.has(c))) continue;
    if (category === 'element' && !m.only) continue;
    (m.method ? methods : properties).add(name);
  }
  return { methods, properties };
}

/** The members that reveal each category, derived from the table. */
export const REVEALING: Readonly<Record<RevealedCategory, Revealing>> = Object.fromEntries(REVEALED.map((c) => [c, revealing(c)])) as Record<RevealedCategory, Revealing>;

/** Whether members called (`methods`) or read (`reads`) reveal the category. `length` reveals nothing: strings, arrays and functions have one. */
export function reveals(category: RevealedCategory, methods: readonly string[] | undefined, reads: readonly string[] | undefined): boolean {
  const r = REVEALING[category];
  return (methods?.some((m) => r.methods.has(m) || r.properties.has(m)) ?? false) || (reads?.some((k) => r.properties.has(k) && k !== 'length') ?? false);
}

const INSTANCE: ReadonlyMap<string, Category> = new Map(API_INSTANCE_ROWS.map(([name, category]) => [name, category as Category]));

/** The category of an `instanceof` target that names a platform interface (`TypeError` → Error, `HTMLInputElement` → element). */
export function instanceCategory(name: string): Category | undefined {
  return INSTANCE.get(name);
}

/** The last step of an element's access path: the member it reads, and whether it is that member's call result. */
export function lastStep(id: string): { readonly parent: string; readonly key: string; readonly call: boolean } | undefined {
  if (id.startsWith('await ')) return undefined;
  const call = id.endsWith('()');
  const path = call ? id.slice(0, -2) : id;
  const dotted = /^(.+)\.([A-Za-z_$][\w$]*)$/.exec(path);
  if (dotted) return { parent: dotted[1] as string, key: dotted[2] as string, call };
  const quoted = /^(.+)\[("(?:[^"\\]|\\.)*")\]$/.exec(path);
  if (quoted) return { parent: quoted[1] as string, key: JSON.parse(quoted[2] as string) as string, call };
  return undefined;
}

const FORCED_KINDS: Partial<Record<ApiKind, Category>> = { number: 'number', boolean: 'boolean', undefined: 'undefined' };
const SOFT_KINDS: Partial<Record<ApiKind, Category>> = {
  ...FORCED_KINDS, string: 'string', array: 'array', element: 'element', promise: 'promise', function: 'function',
  Date: 'Date', RegExp: 'RegExp', Map: 'Map', Set: 'Set', Error: 'Error',
};

/** A call that gives an element: `document.getElementById("age")`, `form.querySelector("#q")`. */
const ELEMENT_LOOKUP = /(^|\.)(getElementById|querySelector|closest)\(("(?:[^"\\]|\\.)*")?\)$/;

/** What the platform says an element is: its category, and whether that is forced (the platform wins over usage). */
export interface PlatformValue {
  readonly category: Category;
  readonly forced: boolean;
}

/**
 * The value the platform's types give an element that is a member read (`items.length`) or a
 * method's result (`e.preventDefault()`). Forced: a number or boolean read, or a result that is
 * undefined (void), a number or a boolean, fixed and decided by the core. Otherwise a method's
 * fixed result of one other kind (`querySelector` gives an element or null) is a hint.
 */
export function platformValue(id: string): PlatformValue | undefined {
  const step = lastStep(id);
  if (!step) return undefined;
  // An input's `value` is its text: a string, whatever `value` is elsewhere.
  if (!step.call && step.key === 'value' && (ELEMENT_LOOKUP.test(step.parent) || platformValue(step.parent)?.category === 'element')) return { category: 'string', forced: false };
  const m = MEMBERS.get(step.key);
  if (!m) return undefined;
  if (!step.call) {
    const [kind, more] = m.read;
    const category = kind !== undefined && more === undefined && m.readFixed && m.readCore ? FORCED_KINDS[kind] : undefined;
    return category === undefined || category === 'undefined' ? undefined : { category, forced: true };
  }
  if (!m.callCore || !m.callFixed) return undefined;
  const [kind, more] = m.call;
  if (kind !== undefined && more === undefined && FORCED_KINDS[kind]) return { category: FORCED_KINDS[kind] as Category, forced: true };
  // `element | null`, `string | undefined`: the value that lets the code go on.
  const kinds = m.call.filter((k) => k !== 'null' && k !== 'undefined');
  const soft = kinds.length === 1 ? SOFT_KINDS[kinds[0] as ApiKind] : undefined;
  return soft === undefined ? undefined : { category: soft, forced: false };
}

/** Whether the platform forces the element's type: an error that follows from it is the snippet's, and refining it is refused. */
export function forcedByPlatform(id: string): boolean {
  return platformValue(id)?.forced === true;
}

/**
 * Whether an error whose culprit is `culprit` follows from a type the platform fixes. Walking up
 * from the culprit to its nearest definition, a member read or method result the platform forces
 * (`items.length` is a number, `e.preventDefault()` undefined) decides: it is the snippet's error
 * when that element holds the platform's value (its own definition's category, or a real
 * member of a defined value). `categoryOf` gives a defined element's category.
 */
export function fixedOnPath(culprit: string, categoryOf: (id: string) => Category | undefined): boolean {
  for (let id: string | undefined = culprit, guard = 0; id !== undefined && guard < 40; guard++) {
    const defined = categoryOf(id);
    const platform = platformValue(id);
    if (platform?.forced) return defined === undefined || defined === platform.category;
    if (defined !== undefined) return false;
    id = id.endsWith('()') ? id.slice(0, -2) : lastStep(id)?.parent;
  }
  return false;
}
