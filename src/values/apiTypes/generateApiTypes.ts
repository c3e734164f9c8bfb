// `npm run gen-api-types`: rewrites apiTypeTable.ts from TypeScript's declaration files.
// Build-time only (imports typescript, a devDependency); test/apiTypes.test.ts checks the committed table is what this writes now.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { API_CATEGORIES } from '../../core/platformCategories.ts';
import type { ApiKind, ApiTypeRow } from './apiKinds.ts';
import { collectApiMembers, type ApiMembers, type MemberDeclaration } from './collectApiMembers.ts';

/** Where the generated table lives. */
export const TABLE_FILE = fileURLToPath(new URL('./apiTypeTable.ts', import.meta.url));

/** Share of the declarations that say anything which must agree before a member's type counts as fixed (a Node stream redeclares `forEach`, a queuing strategy's `size` is a function). */
const AGREEMENT = 0.75;

/** A member's type, read or called: the kinds (`a|b`; 'any' when the platform does not say), whether it is fixed, and by whom. */
interface Resolved {
  readonly kinds: string;
  readonly fixed: boolean;
  /** The core's declarations decided it. */
  readonly core: boolean;
}

const NOTHING: Resolved = { kinds: 'any', fixed: false, core: false };

function kindsOf(d: MemberDeclaration, called: boolean): string {
  const set = called ? d.returns : d.read;
  const kinds = [...(set ?? [])].filter((k): k is ApiKind => k !== 'never').sort();
  return kinds.includes('any') || kinds.length === 0 ? 'any' : kinds.join('|');
}

/**
 * What the platform says of a member, read or called: the kinds the core's declarations of it
 * have, else those of the built-in value types' families, else every declaration's; fixed when
 * those agree and so do most declarations of the platform that say anything.
 */
function resolve(decls: readonly MemberDeclaration[], called: boolean, core: (d: MemberDeclaration) => boolean, inFamily: (owner: string) => boolean): Resolved {
  const all = decls.filter((d) => !d.deprecated && (called ? d.returns !== undefined : !d.read.has('function') || d.read.size > 1));
  if (all.length === 0) return NOTHING;
  const fromCore = all.filter(core);
  const builtIn = all.filter((d) => inFamily(d.owner));
  const decisive = fromCore.length > 0 ? fromCore : builtIn.length > 0 ? builtIn : all;
  const kinds = new Set(decisive.map((d) => kindsOf(d, called)));
  const isCore = fromCore.length > 0;
  if (kinds.size !== 1 || kinds.has('any')) return { kinds: kinds.has('any') ? 'any' : [...new Set([...kinds].flatMap((k) => k.split('|')))].sort().join('|'), fixed: false, core: isCore };
  const only = [...kinds][0] as string;
  const saying = all.map((d) => kindsOf(d, called)).filter((k) => k !== 'any');
  return { kinds: only, fixed: saying.filter((k) => k === only).length >= AGREEMENT * saying.length, core: isCore };
}

/** The interface, what it extends, and so on up. */
function ancestors(root: string, bases: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const out = new Set([root]);
  const stack = [root];
  while (stack.length > 0) for (const b of bases.get(stack.pop() as string) ?? []) if (!out.has(b)) { out.add(b); stack.push(b); }
  return out;
}

/**
 * The platform's core: ECMAScript's built-ins (top-level interfaces of lib.es*, not Intl's option
 * bags), an HTML element with all it inherits, and events. Only their members' types overrule usage.
 */
function isCore(api: ApiMembers): (d: MemberDeclaration) => boolean {
  const dom = new Set([...ancestors('HTMLElement', api.bases), ...[...(api.families.get('event') ?? [])].flatMap((e) => [...ancestors(e, api.bases)])]);
  return (d) => (d.source === 'es' && !d.nested) || (d.source === 'dom' && dom.has(d.owner));
}

/** The table rows, sorted by member name: members of a category's representative, and of the core. */
export function apiTypeRows(api: ApiMembers): ApiTypeRow[] {
  const core = isCore(api);
  const familyOf = new Map<string, string[]>();
  for (const [category, names] of api.families) if (category !== 'event') for (const n of names) familyOf.set(n, [...(familyOf.get(n) ?? []), category]);
  const inFamily = (owner: string) => familyOf.has(owner);
  const names = new Set([...api.members.keys(), ...[...api.categoryMembers.values()].flatMap((s) => [...s])]);
  const rows: ApiTypeRow[] = [];
  for (const name of [...names].sort()) {
    const decls = api.members.get(name) ?? [];
    const read = resolve(decls, false, core, inFamily);
    const call = resolve(decls, true, core, inFamily);
    const of = Object.keys(API_CATEGORIES).filter((c) => api.categoryMembers.get(c)?.has(name));
    // Declared by nothing but the families of the categories that have it: a name only they use.
    const only = of.length > 0 && decls.filter((d) => !d.deprecated).every((d) => (familyOf.get(d.owner) ?? []).some((c) => of.includes(c)));
    // A method of those categories: their families declare it callable, never as a plain value.
    const own = decls.filter((d) => (familyOf.get(d.owner) ?? []).some((c) => of.includes(c)));
    const method = own.length > 0 && own.every((d) => d.returns !== undefined);
    const flags = `${read.fixed ? 'r' : ''}${read.core ? 'R' : ''}${call.fixed ? 'c' : ''}${call.core ? 'C' : ''}${only ? 'x' : ''}${method ? 'm' : ''}`;
    if (of.length > 0 || (read.fixed && read.core) || (call.fixed && call.core)) rows.push([name, read.kinds === 'any' ? '' : read.kinds, call.kinds === 'any' ? '' : call.kinds, of.join(' '), flags]);
  }
  return rows;
}

/** `interface name → category`, for `instanceof`: the roots of each category and what extends them. */
export function instanceRows(api: ApiMembers): (readonly [string, string])[] {
  const out = new Map<string, string>();
  for (const [category, names] of api.families) {
    if (category === 'event') continue;
    for (const n of names) if (!out.has(n) && !/^_/.test(n)) out.set(n, category);
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The text of apiTypeTable.ts. */
export function renderApiTypeTable(api: ApiMembers = collectApiMembers()): string {
  const require = createRequire(import.meta.url);
  const versions = ['typescript', '@types/node'].map((p) => `${p} ${(require(`${p}/package.json`) as { version: string }).version}`).join(', ');
  const rows = apiTypeRows(api).map((r) => `  ${JSON.stringify(r)},`);
  const instances = instanceRows(api).map((r) => `  ${JSON.stringify(r)},`);
  return [
    '// Generated by `npm run gen-api-types` (src/values/apiTypes/generateApiTypes.ts) from the declaration files of',
    `// ${versions}. Do not edit: test/apiTypes.test.ts checks this file is what the generator writes now.`,
    "import type { ApiTypeRow } from './apiKinds.ts';",
    '',
    '/**',
    ' * `[member, read, call, categories, flags]`: the kinds its value has when read and what calling it',
    " * returns ('' when the platform does not say), the categories whose representative interface has",
    " * it, and flags: `r` read type fixed, `R` decided by the core (ECMAScript's built-ins, an HTML element and",
    " * what it inherits, events), `c` call type fixed, `C` decided by the core, `x` declared by those categories' families alone,",
    ' * `m` a method of those categories.',
    ' */',
    'export const API_TYPE_ROWS: readonly ApiTypeRow[] = [',
    ...rows,
    '];',
    '',
    '/** `[interface, category]`: what an `instanceof` of a platform interface says the value is. */',
    'export const API_INSTANCE_ROWS: readonly (readonly [string, string])[] = [',
    ...instances,
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderApiTypeTable();
  writeFileSync(TABLE_FILE, text);
  console.error(`gen-api-types: wrote ${TABLE_FILE} (${text.split('\n').length} lines)`);
}
