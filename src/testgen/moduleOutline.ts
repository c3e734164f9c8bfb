import { parse, type ParserPlugin } from '@babel/parser';
import * as t from '@babel/types';
import { functionParent, walkAst, type AstPath } from '../record/walkAst.ts';

/** A parameter as the recorder names it: its identifier, or `arg<index>` when it is destructured. */
export interface ParamShape {
  readonly name: string;
  readonly rest: boolean;
}

export interface FunctionShape {
  readonly params: readonly ParamShape[];
  readonly async: boolean;
  readonly generator: boolean;
}

export interface MemberShape extends FunctionShape {
  readonly name: string;
  readonly static: boolean;
  readonly access: 'method' | 'get' | 'set';
}

export interface ClassShape {
  readonly name: string;
  readonly members: readonly MemberShape[];
  /** The class declares `#private` fields or methods, which Object.create cannot give an object. */
  readonly hasPrivate: boolean;
  /** The superclass when it is a plain name (`extends Map`), else undefined. */
  readonly superName: string | undefined;
  /** The constructor the class declares, undefined when it declares none. */
  readonly construct: FunctionShape | undefined;
}

/**
 * `constructs`: a plain function (not an arrow, async or generator) seen as the class of the objects
 * `new` makes of it: the methods the module sets on its prototype (`Foo.prototype.m = function …`,
 * `Foo.prototype = { m() {} }`), its own parameters as the constructor's.
 */
export type TopLevelBinding = { readonly kind: 'function'; readonly shape: FunctionShape; readonly constructs?: ClassShape } | { readonly kind: 'class'; readonly shape: ClassShape };

/** A function a test reaches as a property path from what reach() gives: `['api', 'get']`, `['module.exports', 'parse']`. */
export interface PathFunction {
  readonly path: readonly string[];
  readonly shape: FunctionShape;
}

/** A module's top-level functions and classes by name: what testHooks' reach() gives a test. */
export interface ModuleOutline {
  readonly bindings: ReadonlyMap<string, TopLevelBinding>;
  /**
   * By qualname (as the recorder names them), functions reached through a property path:
   * methods of top-level object literals (`api.get`), functions assigned to a member of a
   * top-level binding (`api.put = function …`, not through `prototype`), and CommonJS exports
   * (`exports.f = …`, `module.exports = { f() {} }`, `module.exports = function f() {}`).
   */
  readonly paths: ReadonlyMap<string, PathFunction>;
  /**
   * The start lines of the functions (not arrows) whose own body, arrows in it included, uses `this`.
   * A plain function among them is a function constructor or a method: run by `new`, or on an object
   * (`Base.call(this)`, `P.cmp = function …`), never as a plain call a test could make.
   */
  readonly usesThis: ReadonlySet<number>;
  /** The start lines of the functions (not arrows) whose own body, arrows in it included, assigns or deletes a member of `this`. */
  readonly changesThis: ReadonlySet<number>;
}

export function pluginsFor(fileName: string): ParserPlugin[] {
  const common: ParserPlugin[] = ['decorators-legacy', 'classProperties', 'topLevelAwait', 'importAttributes'];
  if (/\.[cm]?tsx$/i.test(fileName)) return [...common, 'typescript', 'jsx'];
  if (/\.[cm]?ts$/i.test(fileName)) return [...common, 'typescript'];
  return [...common, 'jsx'];
}

/**
 * The top-level function and class declarations of a program module (also `const f = () => …`,
 * `const C = class …`, and either behind `export`), with their parameters as the recorder names
 * them. Throws Babel's SyntaxError when the source does not parse.
 */
export function outlineModule(source: string, fileName: string): ModuleOutline {
  const ast = parse(source, { sourceType: 'unambiguous', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, plugins: pluginsFor(fileName) });
  const bindings = new Map<string, TopLevelBinding>();
  const add = (node: t.Node | null | undefined, name: string | undefined): void => {
    if (node === null || node === undefined || name === undefined) return;
    if (t.isFunction(node) && !t.isObjectMethod(node) && !t.isClassMethod(node) && !t.isClassPrivateMethod(node)) {
      const plain = (t.isFunctionDeclaration(node) || t.isFunctionExpression(node)) && node.async !== true && node.generator !== true;
      const shape = functionShape(node);
      bindings.set(name, { kind: 'function', shape, ...(plain ? { constructs: { name, members: [], hasPrivate: false, superName: undefined, construct: shape } } : {}) });
    }
    else if (t.isClass(node)) bindings.set(name, { kind: 'class', shape: classShape(node, name) });
  };
  for (const statement of ast.program.body) {
    const declaration = t.isExportNamedDeclaration(statement) || t.isExportDefaultDeclaration(statement) ? statement.declaration : statement;
    if (t.isFunctionDeclaration(declaration) || t.isClassDeclaration(declaration)) add(declaration, declaration.id?.name);
    else if (t.isVariableDeclaration(declaration)) {
      for (const declarator of declaration.declarations) if (t.isIdentifier(declarator.id)) add(declarator.init, declarator.id.name);
    }
  }
  addPrototypes(ast.program, bindings);
  return { bindings, paths: pathFunctions(ast.program, bindings), ...thisUsers(ast.program) };
}

function thisUsers(program: t.Program): { usesThis: Set<number>; changesThis: Set<number> } {
  const usesThis = new Set<number>();
  const changesThis = new Set<number>();
  walkAst(program, (path) => {
    if (path.node.type !== 'ThisExpression') return;
    let fn: AstPath | null = functionParent(path);
    while (fn !== null && fn.node.type === 'ArrowFunctionExpression') fn = functionParent(fn);
    const line = fn?.node.loc?.start.line;
    if (line === undefined) return;
    usesThis.add(line);
    // `this.x = …`, `this.n++`, `delete this.k`
    const member = path.parent;
    const user = member?.parent?.node;
    if (member?.node.type !== 'MemberExpression' || path.key !== 'object' || user === undefined) return;
    const changed = (user.type === 'AssignmentExpression' && member.key === 'left') || user.type === 'UpdateExpression' || (user.type === 'UnaryExpression' && user.operator === 'delete');
    if (changed) changesThis.add(line);
  });
  return { usesThis, changesThis };
}

/** Gives each plain top-level function's `constructs` class the methods top-level statements set on its prototype. */
function addPrototypes(program: t.Program, bindings: Map<string, TopLevelBinding>): void {
  const members = new Map<string, MemberShape[]>();
  const add = (owner: string, name: string | undefined, fn: t.Node | null | undefined): void => {
    if (name === undefined || !(isPlainFunction(fn) || t.isObjectMethod(fn))) return;
    if (t.isObjectMethod(fn) && fn.kind !== 'method') return;
    const list = members.get(owner) ?? [];
    list.push({ name, static: false, access: 'method', ...functionShape(fn) });
    members.set(owner, list);
  };
  for (const statement of program.body) {
    if (!t.isExpressionStatement(statement) || !t.isAssignmentExpression(statement.expression) || statement.expression.operator !== '=') continue;
    const path = memberPath(statement.expression.left);
    const [owner, proto, name, ...deeper] = path ?? [];
    if (owner === undefined || proto !== 'prototype' || deeper.length > 0) continue;
    const right = statement.expression.right;
    if (name !== undefined) add(owner, name, right);
    else if (t.isObjectExpression(right)) {
      for (const property of right.properties) {
        if (t.isObjectMethod(property)) add(owner, propertyName(property.key, property.computed), property);
        else if (t.isObjectProperty(property)) add(owner, propertyName(property.key, property.computed), property.value);
      }
    }
  }
  for (const [name, binding] of bindings) {
    const found = members.get(name);
    if (binding.kind === 'function' && binding.constructs !== undefined && found !== undefined) bindings.set(name, { ...binding, constructs: { ...binding.constructs, members: found } });
  }
}

const isPlainFunction = (node: t.Node | null | undefined): node is t.FunctionExpression | t.ArrowFunctionExpression => t.isFunctionExpression(node) || t.isArrowFunctionExpression(node);

/** A non-computed property key's name (identifier or string), else undefined. */
function propertyName(key: t.Node, computed: boolean): string | undefined {
  if (t.isStringLiteral(key)) return key.value;
  return !computed && t.isIdentifier(key) ? key.name : undefined;
}

/** `a.b.c` as ['a', 'b', 'c'] (module.exports and exports as one 'module.exports'); undefined for anything else. */
function memberPath(node: t.Node): string[] | undefined {
  const parts: string[] = [];
  let cur = node;
  while (t.isMemberExpression(cur)) {
    const name = propertyName(cur.property, cur.computed);
    if (name === undefined) return undefined;
    parts.unshift(name);
    cur = cur.object;
  }
  if (!t.isIdentifier(cur)) return undefined;
  parts.unshift(cur.name);
  if (parts[0] === 'module' && parts[1] === 'exports') return ['module.exports', ...parts.slice(2)];
  return parts[0] === 'exports' ? ['module.exports', ...parts.slice(1)] : parts;
}

function pathFunctions(program: t.Program, bindings: ReadonlyMap<string, TopLevelBinding>): Map<string, PathFunction> {
  const paths = new Map<string, PathFunction>();
  // The recorder names `module.exports.f` plainly `f`, as a top-level function.
  const qualname = (path: readonly string[]): string => (path[0] === 'module.exports' ? path.slice(1) : path).join('.');
  const add = (path: string[], fn: t.Function): void => {
    const name = qualname(path);
    if (name !== '' && !bindings.has(name)) paths.set(name, { path, shape: functionShape(fn) });
  };
  const objectMembers = (object: t.ObjectExpression, at: string[]): void => {
    for (const property of object.properties) {
      if (t.isObjectMethod(property)) {
        const name = propertyName(property.key, property.computed);
        if (name !== undefined && property.kind === 'method') add([...at, name], property);
      } else if (t.isObjectProperty(property)) {
        const name = propertyName(property.key, property.computed);
        if (name === undefined) continue;
        if (isPlainFunction(property.value)) add([...at, name], property.value);
        else if (t.isObjectExpression(property.value)) objectMembers(property.value, [...at, name]);
      }
    }
  };
  for (const statement of program.body) {
    const declaration = t.isExportNamedDeclaration(statement) ? statement.declaration : statement;
    if (t.isVariableDeclaration(declaration)) {
      for (const d of declaration.declarations) if (t.isIdentifier(d.id) && t.isObjectExpression(d.init)) objectMembers(d.init, [d.id.name]);
    }
    if (!t.isExpressionStatement(statement) || !t.isAssignmentExpression(statement.expression) || statement.expression.operator !== '=') continue;
    const { left, right } = statement.expression;
    const path = memberPath(left);
    if (path === undefined || path.includes('prototype') || (path[0] !== 'module.exports' && (path.length < 2 || !bindings.has(path[0] as string)))) continue;
    if (isPlainFunction(right)) {
      // `module.exports = function f() {}` is named by its own name.
      if (path.length === 1 && t.isFunctionExpression(right) && right.id) paths.set(right.id.name, { path, shape: functionShape(right) });
      else add(path, right);
    } else if (t.isObjectExpression(right)) objectMembers(right, path);
  }
  return paths;
}

function functionShape(node: t.Function | t.TSDeclareMethod): FunctionShape {
  const params: ParamShape[] = [];
  for (const param of node.params) {
    // TypeScript's `this: Type` is no parameter.
    if (t.isIdentifier(param) && param.name === 'this') continue;
    const inner = t.isTSParameterProperty(param) ? param.parameter : param;
    const rest = t.isRestElement(inner);
    const target = rest ? inner.argument : t.isAssignmentPattern(inner) ? inner.left : inner;
    params.push({ name: t.isIdentifier(target) ? target.name : `arg${params.length}`, rest });
  }
  return { params, async: node.async === true, generator: node.generator === true };
}

function classShape(node: t.Class, name: string): ClassShape {
  const members: MemberShape[] = [];
  let hasPrivate = false;
  let construct: FunctionShape | undefined;
  for (const member of node.body.body) {
    if (t.isClassPrivateMethod(member) || t.isClassPrivateProperty(member)) hasPrivate = true;
    if (t.isClassMethod(member) && member.kind === 'constructor') construct = functionShape(member);
    if (!t.isClassMethod(member) || member.kind === 'constructor') continue;
    const key = member.computed ? (t.isStringLiteral(member.key) ? member.key.value : undefined) : t.isIdentifier(member.key) ? member.key.name : t.isStringLiteral(member.key) ? member.key.value : undefined;
    if (key === undefined) continue;
    members.push({ name: key, static: member.static, access: member.kind, ...functionShape(member) });
  }
  return { name, members, hasPrivate, superName: t.isIdentifier(node.superClass) ? node.superClass.name : undefined, construct };
}
