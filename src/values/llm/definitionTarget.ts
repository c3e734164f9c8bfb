import * as t from '@babel/types';
import type { ElementKind } from '../../core/categories.ts';

/** The element a reply must define: its access path id, its last key and its kind (a ValueRequest's `element`, `name`, `kind`). */
export interface ExtractTarget {
  readonly element: string;
  readonly name: string;
  readonly kind: ElementKind;
}

/** The three-step format only: a reply defines the element by assigning ELEMENT. */
export const ELEMENT_ONLY: ExtractTarget = { element: 'ELEMENT', name: 'ELEMENT', kind: 'global' };

/** The variable of the prompt's three steps (`ELEMENT = …;`). */
export const ELEMENT = 'ELEMENT';

/** The element as a member path code can assign: `app.get`, `this.x`, `require("fs").readFileSync` (written `fs.readFileSync`). */
export interface ElementPath {
  /** How code spells the root: an identifier, `this`, or for a module root the names it is usually bound to. */
  readonly roots: readonly string[];
  readonly keys: readonly string[];
}

/** What code may write to define one element, read off its id once. */
export interface TargetShape {
  readonly target: ExtractTarget;
  /** Identifiers whose top-level declaration defines the element: `splitPair`, `get` for `app.get`, `fs` for `require("node:fs")`. */
  readonly names: readonly string[];
  readonly path: ElementPath | undefined;
  /** The specifier of a module element, without `node:`. */
  readonly module: string | undefined;
  /** For a call's result (`greet()`), the callee's last name: declaring it defines the function, not its result. */
  readonly callee: string | undefined;
}

const ROOT = /^(?:require\(("(?:[^"\\]|\\.)*")\)|(this|[A-Za-z_$][\w$]*))/;
const KEY = /^(?:\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*"|\d+)\])/;

export function shapeOf(target: ExtractTarget): TargetShape {
  const path = pathOf(target.element);
  const spec = target.kind === 'module' ? moduleSpecifier(target) : undefined;
  const call = /^(.*)\(\)$/.exec(target.element)?.[1];
  const names = new Set<string>();
  if (spec !== undefined) for (const n of moduleNames(spec)) names.add(n);
  else if (target.kind !== 'return' && target.kind !== 'receiver') {
    if (isName(target.name)) names.add(target.name);
    const last = path?.keys.at(-1) ?? (path?.roots.length === 1 ? path.roots[0] : undefined);
    if (last !== undefined && isName(last)) names.add(last);
  }
  names.delete(ELEMENT);
  return {
    target, names: [...names], path: path && (path.keys.length > 0 || path.roots[0] !== ELEMENT) ? path : undefined, module: spec,
    callee: call === undefined ? undefined : (pathOf(call)?.keys.at(-1) ?? pathOf(call)?.roots[0]),
  };
}

/** What to do when the code never defines the element: one clause for the rejection sentence. */
export function howToDefine(shape: TargetShape): string {
  const { target, names, path, module } = shape;
  if (target.element === ELEMENT) return 'the code never assigns ELEMENT; end it with `ELEMENT = …;`';
  const lead = 'the code never assigns ELEMENT nor defines';
  if (module !== undefined) return `${lead} the module \`${module}\`; write the module yourself and end with \`module.exports = …;\` (or \`ELEMENT = …;\`)`;
  if (target.kind === 'return') return `${lead} the value \`${target.element}\` returns; end with \`ELEMENT = …;\` giving that value (a value, not the function)`;
  if (target.kind === 'receiver') return `${lead} \`${target.element}\`; end with \`ELEMENT = …;\` giving the object it refers to, or set its members with \`this.x = …;\``;
  if (path && path.keys.length > 0) return `${lead} \`${target.element}\`; assign it (\`${target.element} = …;\`) or end with \`ELEMENT = …;\``;
  const name = names[0];
  if (name !== undefined) return `${lead} \`${name}\`; declare it (\`function ${name}(…) {…}\` or \`const ${name} = …;\`) or end with \`ELEMENT = …;\``;
  return `${lead} \`${target.element}\`; end with \`ELEMENT = …;\``;
}

/** `a.b["c-d"]`, `this.x`, `require("fs").readFileSync`: the root and keys; undefined for calls, `new X`, callbacks. */
export function pathOf(id: string): ElementPath | undefined {
  const root = ROOT.exec(id);
  if (!root) return undefined;
  const keys: string[] = [];
  for (let rest = id.slice(root[0].length); rest !== ''; ) {
    const key = KEY.exec(rest);
    if (!key) return undefined;
    keys.push(key[1] ?? String(JSON.parse(key[2] ?? '""')));
    rest = rest.slice(key[0].length);
  }
  const roots = root[2] !== undefined ? [root[2]] : moduleNames(String(JSON.parse(root[1] ?? '""')));
  return roots.length === 0 ? undefined : { roots, keys };
}

/** The specifier a module element is asked for, `node:` dropped: the runtime gives `fs` and `node:fs` the same module. */
function moduleSpecifier(target: ExtractTarget): string {
  const m = /^require\(("(?:[^"\\]|\\.)*")\)$/.exec(target.element);
  const spec = m?.[1] === undefined ? target.name : String(JSON.parse(m[1]));
  return withoutNodePrefix(spec);
}

export function withoutNodePrefix(spec: string): string {
  return spec.startsWith('node:') ? spec.slice(5) : spec;
}

/** The names code usually binds a module to: `fs`, `dateFns` for `date-fns`, `helpers` for `./lib/helpers.js`, `fp` and `lodash` for `lodash/fp`. */
export function moduleNames(spec: string): string[] {
  const parts = withoutNodePrefix(spec).split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
  const strip = (p: string | undefined) => p?.replace(/\.(?:[cm]?[jt]sx?|json)$/, '');
  let last = strip(parts.at(-1));
  if (last === 'index' && parts.length > 1) last = strip(parts.at(-2));
  const relative = spec.startsWith('.') || spec.startsWith('/');
  const pkg = relative ? undefined : parts[0]?.startsWith('@') ? parts[1] : parts[0];
  return [...new Set([last, pkg].map((p) => (p === undefined ? '' : camelCase(p))))].filter(isName);
}

function camelCase(s: string): string {
  return s.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^(?=\d)/, '_');
}

function isName(s: string): boolean {
  return s !== '' && t.isValidIdentifier(s);
}
