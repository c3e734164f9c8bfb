import type * as t from '@babel/types';
import type { CallKind } from './callTrace.ts';
import { isClassNode, isFunctionNode, type AstPath } from './walkAst.ts';

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
  /** Recording: the module's state variables its body names (stateVariables.ts), read as a call starts. */
  readonly state?: readonly string[];
  /** Recording: functions nested in its body are told which of its calls made them; the closures its result holds are found as it returns (closureOrigins.ts). */
  readonly encloses?: true;
}

/** Functions with a body the instrumentation can enter (a constructor is recorded, never mocked: see instrumentCalls' forwarding). */
export function isInstrumentable(node: t.Function): boolean {
  return node.body.type === 'BlockStatement' || node.type === 'ArrowFunctionExpression';
}

const isMember = (node: t.Function): node is t.ClassMethod | t.ClassPrivateMethod => node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod';

/**
 * Describes a function for the trace: its qualname, kind, line and parameters (docs/guide/record.md, qualnames).
 * `rebindsArguments`: the function declares a binding named `arguments` of its own.
 */
export function describeFunction(path: AstPath, module: string, rebindsArguments: boolean): FunctionInfo {
  const node = path.node as t.Function;
  const line = node.loc?.start.line ?? 0;
  const name = qualifiedName(path);
  const params = node.params.filter((p) => !(p.type === 'Identifier' && p.name === 'this')).map(paramInfo);
  const member = isMember(node);
  const isArrow = node.type === 'ArrowFunctionExpression';
  return {
    module,
    qualname: name || `<anonymous>@${line}`,
    kind: kindOf(node),
    line,
    params,
    // A constructor's `this` is not bound before `super()`: its object is seen as its body ends.
    hasThis: (member && !node.static && node.kind !== 'constructor') || onPrototype(path),
    isArrow,
    isAsync: node.async === true,
    isGenerator: node.generator === true,
    ownArguments: !isArrow && !rebindsArguments && !params.some((p) => p.name === 'arguments'),
  };
}

/**
 * The call kind: accessors first, then generator and async (how a test must call it), then static
 * and method (class members), arrow, function. An async instance method is `async` with a `this`.
 */
function kindOf(node: t.Function): CallKind {
  if ((isMember(node) || node.type === 'ObjectMethod') && (node.kind === 'get' || node.kind === 'set')) return node.kind === 'get' ? 'getter' : 'setter';
  if (isMember(node) && node.kind === 'constructor') return 'constructor';
  if (node.generator) return 'generator';
  if (node.async) return 'async';
  if (isMember(node)) return node.static ? 'static' : 'method';
  if (node.type === 'ArrowFunctionExpression') return 'arrow';
  return 'function';
}

function paramInfo(param: t.Function['params'][number], index: number): ParamInfo {
  if (param.type === 'Identifier') return { name: param.name, form: 'simple' };
  if (param.type === 'AssignmentPattern' && param.left.type === 'Identifier') return { name: param.left.name, form: 'simple' };
  if (param.type === 'RestElement' && param.argument.type === 'Identifier') return { name: param.argument.name, form: 'rest' };
  return { name: `arg${index}`, form: 'pattern' };
}

/** A property key as a name: identifiers, string and number literals, `#private`; computed keys have none. */
function keyName(key: t.Node, computed: boolean | null | undefined): string | undefined {
  if (key.type === 'PrivateName') return `#${key.id.name}`;
  if (!computed && key.type === 'Identifier') return key.name;
  if (key.type === 'StringLiteral') return key.value;
  if (key.type === 'NumericLiteral') return String(key.value);
  return undefined;
}

/** `a.b.c = …` as `a.b.c`; `X.prototype.m` as `X.m`; `module.exports.m` and `exports.m` as `m` ('' for the exports object itself). */
function memberName(node: t.Node): string | undefined {
  const parts: string[] = [];
  let cur: t.Node = node;
  while (cur.type === 'MemberExpression') {
    const name = keyName(cur.property, cur.computed);
    if (name === undefined) return undefined;
    parts.unshift(name);
    cur = cur.object;
  }
  if (cur.type !== 'Identifier') return undefined;
  parts.unshift(cur.name);
  if (parts[0] === 'module' && parts[1] === 'exports') parts.splice(0, 2);
  else if (parts[0] === 'exports') parts.splice(0, 1);
  return parts.filter((p) => p !== 'prototype').join('.');
}

/** The name a function, class or object literal has in its container, or undefined when it has none. */
function ownName(path: AstPath): string | undefined {
  const { node } = path;
  const parent = path.parent?.node;
  if (isMember(node as t.Function) || node.type === 'ObjectMethod') {
    const m = node as t.ClassMethod | t.ClassPrivateMethod | t.ObjectMethod;
    return keyName(m.key, m.computed);
  }
  if (parent && (parent.type === 'ClassProperty' || parent.type === 'ClassPrivateProperty' || parent.type === 'ObjectProperty') && path.key === 'value') {
    return keyName(parent.key, 'computed' in parent ? parent.computed : false);
  }
  if (parent?.type === 'VariableDeclarator' && path.key === 'init' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent?.type === 'AssignmentExpression' && path.key === 'right') {
    const name = parent.left.type === 'Identifier' ? parent.left.name : memberName(parent.left);
    // `module.exports = {…}` is transparent: its members are named as top-level functions.
    if (name || (name === '' && node.type === 'ObjectExpression')) return name;
  }
  if ((isFunctionNode(node) || isClassNode(node)) && 'id' in node && node.id) return node.id.name;
  return undefined;
}

/** The qualname of the nearest enclosing function, class or object literal the path is a member of: '' at the top level, undefined under an anonymous one. */
function containerName(path: AstPath): string | undefined {
  for (let p = path.parent; p; p = p.parent) {
    if (isFunctionNode(p.node) || isClassNode(p.node)) return qualifiedName(p);
    const direct = path.parent === p || (path.parent?.node.type === 'ObjectProperty' && path.parent.parent === p);
    if (p.node.type === 'ObjectExpression' && direct) return qualifiedName(p);
  }
  return '';
}

/** `outer.inner`, `Class.method`, `api.get`; '' for the exports object; undefined when any link is anonymous. */
function qualifiedName(path: AstPath): string | undefined {
  const own = ownName(path);
  if (own === undefined) return undefined;
  const prefix = containerName(path);
  if (prefix === undefined) return undefined;
  if (own === '') return prefix;
  return prefix ? `${prefix}.${own}` : own;
}

/** Whether `prototype` names an object the member is set on (`Foo.prototype.m`, `a.Foo.prototype.m`; not `Foo.m`, nor `Foo.prototype` itself). */
function throughPrototype(node: t.Node): boolean {
  if (node.type !== 'MemberExpression') return false;
  for (let cur: t.Node = node.object; cur.type === 'MemberExpression'; cur = cur.object) if (keyName(cur.property, cur.computed) === 'prototype') return true;
  return false;
}

/**
 * A method of a function constructor's objects: `Foo.prototype.m = function …`, or a member of
 * `Foo.prototype = { m() {} }`; called on an object, so its `this` is recorded.
 */
function onPrototype(path: AstPath): boolean {
  const { node } = path;
  if (node.type === 'ArrowFunctionExpression') return false;
  const parent = path.parent;
  if (parent?.node.type === 'AssignmentExpression' && path.key === 'right') return throughPrototype(parent.node.left);
  const object = node.type === 'ObjectMethod' ? parent : parent?.node.type === 'ObjectProperty' && path.key === 'value' ? parent.parent : null;
  const assigned = object?.parent;
  if (object?.node.type !== 'ObjectExpression' || assigned?.node.type !== 'AssignmentExpression' || object.key !== 'right') return false;
  const left = assigned.node.left;
  return left.type === 'MemberExpression' && keyName(left.property, left.computed) === 'prototype';
}
