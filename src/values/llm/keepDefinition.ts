import * as t from '@babel/types';
import { ISOLATE_GLOBALS } from '../../instrument/visitor.ts';
import type { ElementPath } from './definitionTarget.ts';

/** What decides which top-level statements of a chosen block define the element. */
export interface KeepRules {
  /** The names the result is read from: ELEMENT, the declared name, the path's root, `module`/`exports`. */
  readonly roots: ReadonlySet<string>;
  /** Whether the element is the block's exports: else `module.exports = …` only exports what is defined, and goes. */
  readonly exports: boolean;
  /** Whether a callee is the element itself (`splitPair`, `app.get`, `ELEMENT`). */
  readonly element: (callee: t.Node) => boolean;
}

interface StatementFacts {
  readonly declares: readonly string[];
  /** Names the statement reads or writes that it does not bind itself. */
  readonly free: readonly string[];
  /** Roots of what it assigns (`x = …`, `x.y = …`, `x++`), anywhere in it, not bound in it. */
  readonly assigns: readonly string[];
  readonly dropped: boolean;
}

/**
 * The top-level statements that define the element, in order. A statement stays when it declares a
 * name the element needs, assigns one (or a member of one), or otherwise uses one; needs spread from
 * the result through what stays. Statements that only use built-ins stay too (a polyfill). Dropped:
 * console output and statements that call or construct the element (example usage: side effects at
 * check time are the snippet's business), and whatever is unrelated to the element (the snippet
 * copied back, a demo: it would fail on the snippet's own variables).
 */
export function keptStatements(body: readonly t.Statement[], rules: KeepRules): t.Statement[] {
  const bound = declaredNames(body);
  const facts = body.map((s) => factsOf(s, rules, bound));
  const needed = new Set(rules.roots);
  const keep = body.map(() => false);
  for (let changed = true; changed; ) {
    changed = false;
    facts.forEach((f, i) => {
      if (keep[i] || f.dropped) return;
      const take = f.declares.some((n) => needed.has(n)) || f.assigns.some((n) => needed.has(n))
        || (f.declares.length === 0 && (f.free.some((n) => needed.has(n)) || f.free.every((n) => ISOLATE_GLOBALS.has(n) && n !== 'console')));
      if (!take) return;
      keep[i] = true;
      changed = true;
      for (const n of f.free) needed.add(n);
    });
  }
  return body.filter((_, i) => keep[i]);
}

function factsOf(s: t.Statement, rules: KeepRules, topBound: ReadonlySet<string>): StatementFacts {
  const declares = [...declaredNames([s])];
  const names = new Set<string>();
  const inner = new Set<string>();
  const assigned = new Set<string>();
  let callsElement = false;
  walk(s, (node, parent, key) => {
    if (t.isIdentifier(node) && isReference(node, parent, key)) names.add(node.name);
    if (t.isFunction(node)) for (const p of node.params) for (const n of Object.keys(t.getBindingIdentifiers(p))) inner.add(n);
    if ((t.isFunctionDeclaration(node) || t.isClassDeclaration(node)) && node !== s && node.id) inner.add(node.id.name);
    if (t.isVariableDeclarator(node) && parent !== s) for (const n of Object.keys(t.getBindingIdentifiers(node.id))) inner.add(n);
    if (t.isCatchClause(node) && node.param) for (const n of Object.keys(t.getBindingIdentifiers(node.param))) inner.add(n);
    if (t.isAssignmentExpression(node) || t.isUpdateExpression(node)) {
      const r = rootName(t.isAssignmentExpression(node) ? node.left : node.argument);
      if (r !== undefined) assigned.add(r);
    }
    if ((t.isCallExpression(node) || t.isNewExpression(node) || t.isOptionalCallExpression(node)) && rules.element(node.callee)) callsElement = true;
  });
  const assigns = [...assigned].filter((n) => !inner.has(n));
  const usage = declares.length === 0 && ((t.isExpressionStatement(s) && isConsoleCall(s.expression)) || (callsElement && !assigns.some((n) => rules.roots.has(n))));
  const exportsOnly = !rules.exports && t.isExpressionStatement(s) && t.isAssignmentExpression(s.expression, { operator: '=' }) && isExportsAssignment(s.expression.left, (n) => topBound.has(n));
  return { declares, free: [...names].filter((n) => !inner.has(n) && !declares.includes(n)), assigns, dropped: usage || exportsOnly };
}

/** Names the top-level statements declare (variables, functions, classes, imports). */
export function declaredNames(body: readonly t.Statement[]): Set<string> {
  const names = new Set<string>();
  for (const s of body) {
    if (t.isVariableDeclaration(s) || t.isImportDeclaration(s)) for (const n of Object.keys(t.getBindingIdentifiers(s))) names.add(n);
    else if ((t.isFunctionDeclaration(s) || t.isClassDeclaration(s)) && s.id) names.add(s.id.name);
    else if ((t.isExportNamedDeclaration(s) || t.isExportDefaultDeclaration(s)) && s.declaration) for (const n of declaredNames([s.declaration as t.Statement])) names.add(n);
  }
  return names;
}

/** `module.exports`, `module.exports.x`, `exports.x`, with `module`/`exports` not the code's own. */
export function isExportsAssignment(left: t.Node, isBound: (name: string) => boolean): boolean {
  let n = left;
  while (t.isMemberExpression(n) && !(t.isIdentifier(n.object, { name: 'module' }) && staticKey(n) === 'exports')) {
    if (t.isIdentifier(n.object, { name: 'exports' })) return !isBound('exports');
    n = n.object;
  }
  return t.isMemberExpression(n) && !isBound('module');
}

/** Whether `node` is the element's path (extra 0) or one of its members (extra 1), and how the code spells the root. */
export function pathMatch(node: t.Node, path: ElementPath): { root: string; extra: number } | undefined {
  const keys: (string | undefined)[] = [];
  let n = node;
  while (t.isMemberExpression(n) || t.isOptionalMemberExpression(n)) {
    keys.unshift(staticKey(n));
    n = n.object;
  }
  const root = t.isThisExpression(n) ? 'this' : t.isIdentifier(n) ? n.name : undefined;
  if (root === undefined || !path.roots.includes(root)) return undefined;
  const extra = keys.length - path.keys.length;
  if (extra !== 0 && extra !== 1) return undefined;
  return path.keys.every((k, i) => keys[i] === k) ? { root, extra } : undefined;
}

/** Whether two expressions name the same thing: `a.b` and `a["b"]`, the same identifier or `this`. */
export function sameReference(a: t.Node, b: t.Node): boolean {
  if (t.isIdentifier(a) || t.isIdentifier(b)) return t.isIdentifier(a) && t.isIdentifier(b) && a.name === b.name;
  if (t.isThisExpression(a) || t.isThisExpression(b)) return t.isThisExpression(a) && t.isThisExpression(b);
  if (!t.isMemberExpression(a) || !t.isMemberExpression(b)) return false;
  const key = staticKey(a);
  return key !== undefined && key === staticKey(b) && sameReference(a.object, b.object);
}

/** Whether `node` uses any of `names` (as a name, not as a property key). */
export function mentions(node: t.Node, names: ReadonlySet<string>): boolean {
  let found = false;
  walk(node, (n, parent, key) => {
    if (found) return false;
    if (t.isIdentifier(n) && names.has(n.name) && isReference(n, parent, key)) found = true;
    return undefined;
  });
  return found;
}

/** Visits node and its descendants, parents first; `visit` returning false skips a node's children. */
export function walk(node: t.Node, visit: (node: t.Node, parent: t.Node | undefined, key: string | undefined) => boolean | void, parent?: t.Node, key?: string): void {
  if (visit(node, parent, key) === false) return;
  const fields = node as unknown as Record<string, unknown>;
  for (const k of t.VISITOR_KEYS[node.type] ?? []) {
    const child = fields[k];
    if (Array.isArray(child)) {
      for (const c of child) if (isNode(c)) walk(c, visit, node, k);
    } else if (isNode(child)) walk(child, visit, node, k);
  }
}

function isNode(v: unknown): v is t.Node {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** An identifier that names a binding, not a property key, label or meta property. */
function isReference(id: t.Identifier, parent: t.Node | undefined, key: string | undefined): boolean {
  if (!parent) return true;
  if ((t.isMemberExpression(parent) || t.isOptionalMemberExpression(parent)) && key === 'property') return parent.computed;
  if ((t.isObjectProperty(parent) || t.isObjectMethod(parent) || t.isClassMethod(parent) || t.isClassProperty(parent) || t.isClassAccessorProperty(parent)) && key === 'key') return parent.computed;
  return !(t.isLabeledStatement(parent) || t.isBreakStatement(parent) || t.isContinueStatement(parent) || t.isMetaProperty(parent));
}

function rootName(node: t.Node): string | undefined {
  let n = node;
  while (t.isMemberExpression(n) || t.isOptionalMemberExpression(n)) n = n.object;
  return t.isIdentifier(n) ? n.name : undefined;
}

function staticKey(m: t.MemberExpression | t.OptionalMemberExpression): string | undefined {
  const p = m.property;
  if (!m.computed) return t.isIdentifier(p) ? p.name : undefined;
  if (t.isStringLiteral(p)) return p.value;
  if (t.isNumericLiteral(p)) return String(p.value);
  if (t.isTemplateLiteral(p) && p.expressions.length === 0) return p.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

function isConsoleCall(e: t.Expression): boolean {
  const call = t.isAwaitExpression(e) ? e.argument : e;
  return t.isCallExpression(call) && t.isMemberExpression(call.callee) && t.isIdentifier(call.callee.object, { name: 'console' });
}
