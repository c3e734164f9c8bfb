import type { Definition } from './definition.ts';
import type { Category } from '../core/categories.ts';
import { commentText, jsString } from '../core/sourceText.ts';

const IDENT = /^[A-Za-z_$][\w$]*$/;
const MAX_DEPTH = 8;

/** The type of a category's predefined dummy, with `$0`… for its parts. */
const CATEGORY_TYPE: Record<Category, string> = {
  undefined: 'undefined', null: 'null', boolean: 'boolean', number: 'number', string: 'string', array: '$0[]', tuple: '[$0, $1]',
  object: '{}', function: '(...args: any[]) => void', class: 'new (...args: any[]) => {}', promise: 'Promise<$0>', Map: 'Map<any, any>',
  Set: 'Set<any>', Date: 'Date', RegExp: 'RegExp', Error: 'Error', element: 'HTMLElement', Dummy: 'any',
};

/**
 * TypeScript declarations for every injected root element (free names, modules, `this`), their
 * types composed from the definitions: parts, members attached later and call results included.
 */
export function inferDeclarations(defs: ReadonlyMap<string, Definition>): string {
  const members = new Map<string, Definition[]>();
  for (const d of defs.values()) {
    if ((d.kind === 'member' || d.kind === 'callee') && d.parent !== undefined && d.parent !== '') members.set(d.parent, [...(members.get(d.parent) ?? []), d]);
  }
  const typeOf = (id: string, depth: number, seen: Set<string>): string => {
    const def = defs.get(id);
    if (!def || depth > MAX_DEPTH || seen.has(id)) return 'any';
    const inner = new Set(seen).add(id);
    const { proposal } = def;
    let type = proposal.type ?? CATEGORY_TYPE[proposal.category];
    if (proposal.category === 'tuple' && proposal.type === undefined) type = `[${proposal.refs.map((_, i) => `$${i}`).join(', ')}]`;
    type = type.replace(/\$(\d+)(?![\w$])/g, (_, i: string) => {
      const ref = proposal.refs[Number(i)];
      return ref === undefined ? 'unknown' : typeOf(ref, depth + 1, inner);
    });
    const ret = defs.get(`${id}()`);
    if (ret && ret.kind === 'return' && type.endsWith('=> void')) type = `${type.slice(0, -4)}${typeOf(ret.id, depth + 1, inner)}`;
    const attached = members.get(id) ?? [];
    if (attached.length > 0) {
      const fields = attached.map((m) => `${IDENT.test(m.name) ? m.name : jsString(m.name)}: ${typeOf(m.id, depth + 1, inner)}`).join('; ');
      type = type === '{}' ? `{ ${fields} }` : type.startsWith('{ ') ? `${type.slice(0, -2)}; ${fields} }` : `(${type}) & { ${fields} }`;
    }
    return type;
  };
  const lines: string[] = [];
  for (const def of defs.values()) {
    if (def.kind === 'module') lines.push(`declare module ${jsString(def.name)} { const value: ${typeOf(def.id, 0, new Set())}; export = value; }`);
    else if (def.kind === 'receiver') lines.push(`declare const self: ${typeOf(def.id, 0, new Set())}; // the snippet's top-level this`);
    else if ((def.parent === undefined || def.parent === '') && def.kind !== 'part' && def.kind !== 'return') {
      const name = IDENT.test(def.id) ? def.id : jsString(def.id);
      lines.push(IDENT.test(def.id) ? `declare const ${name}: ${typeOf(def.id, 0, new Set())};` : `// globalThis[${name}]: ${commentText(typeOf(def.id, 0, new Set()))}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
