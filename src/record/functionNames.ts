import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { CallKind } from './callTrace.ts';

/** How one parameter is seen: by name (`simple`, `rest`), or a destructuring pattern named `argN` by position. */
export interface ParamInfo {
  readonly name: string;
  readonly form: 'simple' | 'rest' | 'pattern';
}

/** What the recorder and the test hooks know of one of the program's functions, found by parsing. */
export interface FunctionInfo {
  readonly module: string;
  /** `fn`, `Class.method`, `Class.staticMethod`, `outer.inner`, or `<anonymous>@line` (callTrace.ts). */
  readonly qualname: string;
  readonly kind: CallKind;
  readonly line: number;
  readonly params: readonly ParamInfo[];
  /** A class member called on an instance: its `this` is recorded. */
  readonly hasThis: boolean;
  readonly isArrow: boolean;
  readonly isAsync: boolean;
  readonly isGenerator: boolean;
  /** The function has its own `arguments` (not an arrow, and the name is not rebound). */
  readonly ownArguments: boolean;
}

/** Functions that get no record and no mock: constructors (a mock cannot stand in for `new`, and `this` is not bound before `super`). */
export function isInstrumentable(path: NodePath<t.Function>): boolean {
  const node = path.node;
  if ((t.isClassMethod(node) || t.isObjectMethod(node)) && node.kind === 'constructor') return false;
  return t.isBlockStatement(node.body) || t.isArrowFunctionExpression(node);
}

/** Describes a function for the trace: its qualname, kind, line and parameters (README "record", qualnames). */
export function describeFunction(path: NodePath<t.Function>, module: string): FunctionInfo {
  const node = path.node;
  const line = node.loc?.start.line ?? 0;
  const name = qualifiedName(path);
  const params = node.params.filter((p) => !(t.isIdentifier(p) && p.name === 'this')).map(paramInfo);
  const member = t.isClassMethod(node) || t.isClassPrivateMethod(node);
  const isStatic = member && node.static;
  const ownArguments = !t.isArrowFunctionExpression(node) && !path.scope.hasOwnBinding('arguments') && !params.some((p) => p.name === 'arguments');
  return {
    module,
    qualname: name || `<anonymous>@${line}`,
    kind: kindOf(node),
    line,
    params,
    hasThis: member && !isStatic,
    isArrow: t.isArrowFunctionExpression(node),
    isAsync: node.async === true,
    isGenerator: node.generator === true,
    ownArguments,
  };
}

/**
 * The call kind: accessors first, then generator and async (how a test must call it), then static
 * and method (class members), arrow, function. An async instance method is `async` with a `this`.
 */
function kindOf(node: t.Function): CallKind {
  if ((t.isClassMethod(node) || t.isObjectMethod(node) || t.isClassPrivateMethod(node)) && (node.kind === 'get' || node.kind === 'set')) return node.kind === 'get' ? 'getter' : 'setter';
  if (node.generator) return 'generator';
  if (node.async) return 'async';
  if ((t.isClassMethod(node) || t.isClassPrivateMethod(node)) && node.static) return 'static';
  if (t.isClassMethod(node) || t.isClassPrivateMethod(node)) return 'method';
  if (t.isArrowFunctionExpression(node)) return 'arrow';
  return 'function';
}

function paramInfo(param: t.Function['params'][number], index: number): ParamInfo {
  if (t.isIdentifier(param)) return { name: param.name, form: 'simple' };
  if (t.isAssignmentPattern(param) && t.isIdentifier(param.left)) return { name: param.left.name, form: 'simple' };
  if (t.isRestElement(param) && t.isIdentifier(param.argument)) return { name: param.argument.name, form: 'rest' };
  return { name: `arg${index}`, form: 'pattern' };
}

/** A property key as a name: identifiers, string and number literals, `#private`; computed keys have none. */
function keyName(key: t.Node, computed: boolean): string | undefined {
  if (t.isPrivateName(key)) return `#${key.id.name}`;
  if (!computed && t.isIdentifier(key)) return key.name;
  if (t.isStringLiteral(key)) return key.value;
  if (t.isNumericLiteral(key)) return String(key.value);
  return undefined;
}

/** `a.b.c = …` as `a.b.c`; `X.prototype.m` as `X.m`; `module.exports.m` and `exports.m` as `m` ('' for the exports object itself). */
function memberName(node: t.Node): string | undefined {
  const parts: string[] = [];
  let cur: t.Node = node;
  while (t.isMemberExpression(cur)) {
    const name = keyName(cur.property, cur.computed);
    if (name === undefined) return undefined;
    parts.unshift(name);
    cur = cur.object;
  }
  if (!t.isIdentifier(cur)) return undefined;
  parts.unshift(cur.name);
  if (parts[0] === 'module' && parts[1] === 'exports') parts.splice(0, 2);
  else if (parts[0] === 'exports') parts.splice(0, 1);
  return parts.filter((p) => p !== 'prototype').join('.');
}

/** The name a function, class or object literal has in its container, or undefined when it has none. */
function ownName(path: NodePath): string | undefined {
  const { node, parent } = path;
  if (t.isClassMethod(node) || t.isClassPrivateMethod(node) || t.isObjectMethod(node)) return keyName(node.key, node.computed === true);
  if ((t.isClassProperty(parent) || t.isClassPrivateProperty(parent) || t.isObjectProperty(parent)) && parent.value === node) {
    return keyName(parent.key, 'computed' in parent && parent.computed === true);
  }
  if (t.isVariableDeclarator(parent) && parent.init === node && t.isIdentifier(parent.id)) return parent.id.name;
  if (t.isAssignmentExpression(parent) && parent.right === node) {
    const name = t.isIdentifier(parent.left) ? parent.left.name : memberName(parent.left);
    // `module.exports = {…}` is transparent: its members are named as top-level functions.
    if (name || (name === '' && t.isObjectExpression(node))) return name;
  }
  if ((t.isFunction(node) || t.isClass(node)) && 'id' in node && node.id) return node.id.name;
  return undefined;
}

/** The qualname of the nearest enclosing function, class or object literal the path is a member of: '' at the top level, undefined under an anonymous one. */
function containerName(path: NodePath): string | undefined {
  for (let p = path.parentPath; p; p = p.parentPath) {
    if (p.isFunction() || p.isClass()) return qualifiedName(p);
    const direct = path.parentPath === p || (path.parentPath?.isObjectProperty() && path.parentPath.parentPath === p);
    if (p.isObjectExpression() && direct) return qualifiedName(p);
  }
  return '';
}

/** `outer.inner`, `Class.method`, `api.get`; '' for the exports object; undefined when any link is anonymous. */
function qualifiedName(path: NodePath): string | undefined {
  const own = ownName(path);
  if (own === undefined) return undefined;
  const prefix = containerName(path);
  if (prefix === undefined) return undefined;
  if (own === '') return prefix;
  return prefix ? `${prefix}.${own}` : own;
}
