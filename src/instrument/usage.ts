import type { NodePath, Binding } from '@babel/traverse';
import * as t from '@babel/types';
import type { Category } from '../core/categories.ts';

/** How a value is used, read off the syntax around every place it flows to. JSON-safe. */
export interface Usage {
  called?: number;
  callbackArgs?: number[];
  constructed?: boolean;
  members?: string[];
  methods?: string[];
  assignedMembers?: string[];
  iterated?: boolean;
  awaited?: boolean;
  tested?: boolean;
  arithmetic?: boolean;
  stringified?: boolean;
  indexed?: 'number' | 'string';
  compared?: { op: string; type: string; value?: string | number | boolean | null }[];
  typeofCompared?: string[];
  instanceOf?: string[];
  /** Destructured with an array pattern of this many elements; `items` are the elements' usage keys. */
  arrayPattern?: { length: number; items: (string | null)[] };
  /** Destructured with an object pattern; maps each key to its value's usage key. */
  objectPattern?: Record<string, string>;
  /** What the snippet declares of it: a type annotation or JSDoc type, and a driven argument's parameter name. */
  declared?: DeclaredType;
}

/** A declared type, as the category a learnt value should have (`type` is the annotation as written). */
export interface DeclaredType {
  category?: Category;
  type?: string;
  /** A function type with a declared result: the definition returns a value of that type. */
  returns?: boolean;
  /** The parameter name of a driven argument (`greet#arg0` is `user`). */
  name?: string;
}

export type UsageTable = Record<string, Usage>;

const COMPARISON = new Set(['===', '==', '!==', '!=', '<', '>', '<=', '>=']);
const ARITHMETIC = new Set(['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);

/**
 * Gives every value-producing node a usage key: an access path such as `express().get` that is
 * the same wherever the same value flows (aliases through constant bindings and patterns).
 */
export class UsageKeys {
  private readonly memo = new WeakMap<t.Node, string>();
  private readonly bindingMemo = new WeakMap<Binding, string>();

  keyOf(path: NodePath): string {
    const node = path.node;
    const cached = this.memo.get(node);
    if (cached !== undefined) return cached;
    this.memo.set(node, `@${node.start ?? 0}`); // guards against cycles through aliases
    const key = this.computeKey(path);
    this.memo.set(node, key);
    return key;
  }

  private computeKey(path: NodePath): string {
    const node = path.node;
    if (t.isIdentifier(node)) {
      const binding = path.scope.getBinding(node.name);
      return binding ? this.bindingKey(binding) : node.name;
    }
    if (t.isThisExpression(node)) return 'this';
    if (t.isMemberExpression(node) || t.isOptionalMemberExpression(node)) {
      const obj = this.keyOf(path.get('object') as NodePath);
      const prop = staticPropertyName(node);
      return prop === undefined ? `${obj}[]` : `${obj}.${prop}`;
    }
    if (t.isCallExpression(node) || t.isOptionalCallExpression(node)) {
      const spec = requireSpecifier(node);
      if (spec !== undefined) return `require(${spec})`;
      return `${this.keyOf(path.get('callee') as NodePath)}()`;
    }
    if (t.isNewExpression(node)) return `new ${this.keyOf(path.get('callee') as NodePath)}`;
    if (t.isAwaitExpression(node)) return `await ${this.keyOf(path.get('argument') as NodePath)}`;
    if (t.isTSAsExpression(node) || t.isTSNonNullExpression(node) || t.isParenthesizedExpression(node)) {
      return this.keyOf(path.get('expression') as NodePath);
    }
    return `@${node.start ?? 0}`;
  }

  bindingKey(binding: Binding): string {
    const cached = this.bindingMemo.get(binding);
    if (cached !== undefined) return cached;
    const own = `${binding.identifier.name}@${binding.identifier.start ?? 0}`;
    this.bindingMemo.set(binding, own);
    let key = own;
    const decl = binding.path;
    if (decl.isVariableDeclarator() && binding.constantViolations.length === 0) {
      const init = decl.get('init');
      if (init.node) {
        const source = this.keyOf(init as NodePath);
        const within = patternPath(decl.node.id, binding.identifier);
        if (within !== undefined) key = source + within;
      }
    }
    else if (binding.kind === 'let' || binding.kind === 'const' || binding.kind === 'var') {
      // `for (const x of xs)`: x is an element of xs.
      const loop = decl.parentPath?.parentPath;
      if (loop?.isForOfStatement() && decl.isVariableDeclarator()) {
        const within = patternPath(decl.node.id, binding.identifier);
        if (within !== undefined) key = `${this.keyOf(loop.get('right') as NodePath)}[0]${within}`;
      }
    } else if (binding.kind === 'param') {
      // `xs.forEach((x, i) => …)`: the first parameter is an element of xs.
      const fn = binding.scope.path;
      const call = fn.parentPath;
      const params = (fn.node as t.Function).params;
      if (params[0] && call?.isCallExpression() && t.isMemberExpression(call.node.callee) && call.node.arguments[0] === fn.node) {
        const method = staticPropertyName(call.node.callee);
        const within = patternPath(params[0], binding.identifier);
        if (method !== undefined && ELEMENT_CALLBACKS.has(method) && within !== undefined) {
          key = `${this.keyOf((call.get('callee') as NodePath).get('object') as NodePath)}[0]${within}`;
        }
      }
    }
    this.bindingMemo.set(binding, key);
    return key;
  }
}

const ELEMENT_CALLBACKS = new Set(['forEach', 'map', 'filter', 'some', 'every', 'find', 'findIndex', 'flatMap', 'findLast']);

/** The access path from a pattern's root to `target`, e.g. `[0]` or `.data.items`; '' for the root. */
export function patternPath(pattern: t.Node, target: t.Identifier): string | undefined {
  if (pattern === target) return '';
  if (t.isAssignmentPattern(pattern)) return patternPath(pattern.left, target);
  if (t.isArrayPattern(pattern)) {
    for (const [i, el] of pattern.elements.entries()) {
      if (!el || t.isRestElement(el)) continue;
      const inner = patternPath(el, target);
      if (inner !== undefined) return `[${i}]${inner}`;
    }
  }
  if (t.isObjectPattern(pattern)) {
    for (const prop of pattern.properties) {
      if (!t.isObjectProperty(prop)) continue;
      const name = t.isIdentifier(prop.key) && !prop.computed ? prop.key.name : t.isStringLiteral(prop.key) ? prop.key.value : undefined;
      if (name === undefined) continue;
      const inner = patternPath(prop.value, target);
      if (inner !== undefined) return `.${name}${inner}`;
    }
  }
  return undefined;
}

export function staticPropertyName(node: t.MemberExpression | t.OptionalMemberExpression): string | undefined {
  if (!node.computed && t.isIdentifier(node.property)) return node.property.name;
  if (t.isStringLiteral(node.property)) return node.property.value;
  if (t.isNumericLiteral(node.property)) return String(node.property.value);
  return undefined;
}

export function requireSpecifier(node: t.CallExpression | t.OptionalCallExpression): string | undefined {
  if (t.isIdentifier(node.callee, { name: 'require' }) && node.arguments.length === 1) {
    const arg = node.arguments[0];
    if (t.isStringLiteral(arg)) return arg.value;
    if (t.isTemplateLiteral(arg) && arg.expressions.length === 0) return arg.quasis[0]?.value.cooked ?? undefined;
  }
  return undefined;
}

function literalInfo(node: t.Node): { type: string; value?: string | number | boolean | null } | undefined {
  if (t.isStringLiteral(node)) return { type: 'string', value: node.value };
  if (t.isNumericLiteral(node)) return { type: 'number', value: node.value };
  if (t.isBooleanLiteral(node)) return { type: 'boolean', value: node.value };
  if (t.isNullLiteral(node)) return { type: 'null', value: null };
  if (t.isIdentifier(node, { name: 'undefined' })) return { type: 'undefined' };
  if (t.isTemplateLiteral(node)) return { type: 'string' };
  if (t.isUnaryExpression(node, { operator: '-' }) && t.isNumericLiteral(node.argument)) return { type: 'number', value: -node.argument.value };
  return undefined;
}

function pushUnique<T>(list: T[] | undefined, value: T): T[] {
  const out = list ?? [];
  if (!out.includes(value)) out.push(value);
  return out;
}

/** What the syntax directly around `path` does with its value. */
export function directUsage(path: NodePath, keys: UsageKeys): Usage {
  const u: Usage = {};
  const node = path.node;
  const parent = path.parent;
  if ((t.isCallExpression(parent) || t.isOptionalCallExpression(parent)) && parent.callee === node) {
    u.called = parent.arguments.length;
    parent.arguments.forEach((a, i) => {
      if (t.isFunction(a)) u.callbackArgs = pushUnique(u.callbackArgs, i);
    });
  } else if (t.isNewExpression(parent) && parent.callee === node) u.constructed = true;
  else if (t.isClass(parent) && parent.superClass === node) u.constructed = true;
  else if ((t.isMemberExpression(parent) || t.isOptionalMemberExpression(parent)) && parent.object === node) {
    const prop = staticPropertyName(parent);
    const grand = path.parentPath?.parent;
    const isCallee = (t.isCallExpression(grand) || t.isOptionalCallExpression(grand)) && grand.callee === parent;
    const isAssigned = t.isAssignmentExpression(grand) && grand.left === parent;
    if (prop !== undefined && !parent.computed) {
      if (isCallee) u.methods = [prop];
      else if (isAssigned) u.assignedMembers = [prop];
      else u.members = [prop];
    } else if (prop !== undefined && /^\d+$/.test(prop)) u.indexed = 'number';
    else if (prop !== undefined) u.members = [prop];
    else u.indexed = 'string';
  } else if (t.isForOfStatement(parent) && parent.right === node) u.iterated = true;
  else if (t.isSpreadElement(parent) && !t.isObjectExpression(path.parentPath?.parent)) u.iterated = true;
  else if (t.isYieldExpression(parent) && parent.delegate) u.iterated = true;
  else if (t.isAwaitExpression(parent)) u.awaited = true;
  else if (t.isBinaryExpression(parent)) {
    const other = parent.left === node ? parent.right : parent.left;
    if (COMPARISON.has(parent.operator)) {
      const lit = literalInfo(other);
      if (lit) u.compared = [{ op: parent.left === node ? parent.operator : flip(parent.operator), ...lit }];
    } else if (parent.operator === 'instanceof' && parent.left === node) {
      u.instanceOf = [t.isIdentifier(parent.right) ? parent.right.name : 'Object'];
    } else if (ARITHMETIC.has(parent.operator)) u.arithmetic = true;
    else if (parent.operator === '+') {
      const lit = literalInfo(other);
      if (lit?.type === 'string') u.stringified = true;
      else if (lit?.type === 'number') u.arithmetic = true;
    } else if (parent.operator === 'in' && parent.right === node && t.isStringLiteral(parent.left)) u.members = [parent.left.value];
  } else if (t.isUnaryExpression(parent)) {
    if (parent.operator === '!') u.tested = true;
    else if (parent.operator === '-' || parent.operator === '+' || parent.operator === '~') u.arithmetic = true;
    else if (parent.operator === 'typeof') {
      const cmp = path.parentPath?.parent;
      if (t.isBinaryExpression(cmp) && t.isStringLiteral(cmp.right)) u.typeofCompared = [cmp.right.value];
    }
  } else if (t.isUpdateExpression(parent)) u.arithmetic = true;
  else if (t.isTemplateLiteral(parent)) u.stringified = true;
  else if (
    ((t.isIfStatement(parent) || t.isWhileStatement(parent) || t.isDoWhileStatement(parent) || t.isForStatement(parent) || t.isConditionalExpression(parent)) &&
      (parent as { test?: t.Node | null }).test === node) ||
    (t.isLogicalExpression(parent) && parent.left === node)
  ) u.tested = true;
  else if (t.isVariableDeclarator(parent) && parent.init === node && !t.isIdentifier(parent.id)) {
    Object.assign(u, patternUsage(parent.id, keys.keyOf(path)));
  } else if (t.isAssignmentExpression(parent) && parent.right === node && (t.isArrayPattern(parent.left) || t.isObjectPattern(parent.left))) {
    Object.assign(u, patternUsage(parent.left, keys.keyOf(path)));
  }
  return u;
}

function flip(op: string): string {
  return ({ '<': '>', '>': '<', '<=': '>=', '>=': '<=' } as Record<string, string>)[op] ?? op;
}

function patternUsage(pattern: t.Node, sourceKey: string): Usage {
  if (t.isArrayPattern(pattern)) {
    return {
      arrayPattern: {
        length: pattern.elements.length,
        items: pattern.elements.map((el, i) => (el && !t.isRestElement(el) ? `${sourceKey}[${i}]` : null)),
      },
    };
  }
  if (t.isObjectPattern(pattern)) {
    const objectPattern: Record<string, string> = {};
    for (const prop of pattern.properties) {
      if (!t.isObjectProperty(prop)) continue;
      const name = t.isIdentifier(prop.key) && !prop.computed ? prop.key.name : t.isStringLiteral(prop.key) ? prop.key.value : undefined;
      if (name !== undefined) objectPattern[name] = `${sourceKey}.${name}`;
    }
    return { objectPattern };
  }
  return {};
}

/** The serialised items of each merged list, so a list of m items is merged in O(m), not O(m²). */
const listItems = new WeakMap<unknown[], { items: Set<string>; length: number }>();

function itemsOf(list: unknown[]): { items: Set<string>; length: number } {
  let known = listItems.get(list);
  // Rebuilt when the list was changed behind mergeUsage's back.
  if (known === undefined || known.length !== list.length) {
    known = { items: new Set(list.map((x) => JSON.stringify(x))), length: list.length };
    listItems.set(list, known);
  }
  return known;
}

/** Merges `add` into `into`, keeping lists without duplicates. */
export function mergeUsage(into: Usage, add: Usage): Usage {
  for (const [k, v] of Object.entries(add) as [keyof Usage, unknown][]) {
    if (v === undefined) continue;
    const cur = into[k] as unknown;
    if (Array.isArray(v)) {
      const list = (Array.isArray(cur) ? cur : []) as unknown[];
      const known = itemsOf(list);
      for (const item of v) {
        const key = JSON.stringify(item);
        if (known.items.has(key)) continue;
        known.items.add(key);
        list.push(item);
      }
      known.length = list.length;
      (into as Record<string, unknown>)[k] = list;
    } else if (typeof v === 'number' && typeof cur === 'number') (into as Record<string, unknown>)[k] = Math.max(cur, v);
    else if (typeof v === 'object' && v !== null && typeof cur === 'object' && cur !== null) (into as Record<string, unknown>)[k] = { ...cur, ...v };
    else (into as Record<string, unknown>)[k] = v;
  }
  return into;
}
