import type { NodePath, TraverseOptions } from '@babel/traverse';
import * as t from '@babel/types';
import { CALLBACK_CONVENTIONS } from '../protocol/callbackConventions.ts';
import { traverse } from '../parse/stripTypes.ts';
import { HOOKS, type HookName } from '../protocol/hooks.ts';
import type { DriveKind, GuestDriveTarget } from '../protocol/runtime.ts';

/**
 * A function of the snippet the runtime may call after the snippet ran, when nothing else did
 * (drive): every function, method, getter, setter and constructor the snippet defines, in source
 * order, outermost first.
 */
export interface DriveTarget extends GuestDriveTarget {
  // name: how it is named in reports and in its arguments' element ids: `f`, `Class.method`,
  // `Game.prototype.restart`, `outer.inner`, `<anonymous>@12`; params: how many parameters it
  // declares (a rest parameter counts as none); topLevel: a function declared or bound at the top
  // level (environments see these: topLevelFunctions).
  readonly line: number;
  /**
   * The source of the value it is reached from at the program's top level, when it is: a top-level
   * function's name, a class's, an object's (`api.users`), a prototype's (`Game.prototype`). A
   * completed program can call the target through it; a nested function or a callback has none.
   */
  readonly owner?: string;
  /** The owner's first name is a top-level `let`, `const` or class: a `finally` after the program's body cannot see it. */
  readonly ownerBlockScoped?: boolean;
  /** Its body reads `arguments` (readsArguments): `params` counts EXTRA_ARGUMENTS past the declared ones, and a shorter call may take another way. */
  readonly readsArguments?: true;
}

/** How many parameters the target declares (a rest parameter counts as none): `params` without the EXTRA_ARGUMENTS drive adds for `arguments`. */
export function declaredParameters(target: Pick<DriveTarget, 'params' | 'readsArguments'>): number {
  return target.params - (target.readsArguments ? EXTRA_ARGUMENTS : 0);
}

const ERROR_FIRST = new RegExp(CALLBACK_CONVENTIONS.errorFirst, 'i');
const ERROR_ONLY = new RegExp(CALLBACK_CONVENTIONS.errorOnly, 'i');
/** Node's error-first convention, as for callbacks handed to injected functions: `(err, data) => …`, `function (error) {…}`. */
function isErrorFirst(fn: t.Function): boolean {
  const first = fn.params[0];
  if (!t.isIdentifier(first)) return false;
  return fn.params.length >= 2 ? ERROR_FIRST.test(first.name) : ERROR_ONLY.test(first.name);
}

const ERROR_EVENT = new RegExp(CALLBACK_CONVENTIONS.errorEvent, 'i');
const EVENT_METHODS = new Set<string>(CALLBACK_CONVENTIONS.eventMethods);
/** A function that is only called with an error: `x.on('error', fn)`, `p.catch(fn)`, `p.then(ok, fn)`. */
function handlesError(fn: t.Function, parent: t.Node | undefined): boolean {
  if (!t.isCallExpression(parent) || !t.isMemberExpression(parent.callee) || parent.callee.computed || !t.isIdentifier(parent.callee.property)) return false;
  const method = parent.callee.property.name;
  const at = parent.arguments.indexOf(fn as t.Expression);
  if (method === 'catch') return at === 0;
  if (method === 'then') return at === 1;
  const event = parent.arguments[0];
  return EVENT_METHODS.has(method) && at > 0 && t.isStringLiteral(event) && ERROR_EVENT.test(event.value);
}

/** A key that reads as `owner.key` (a reserved word is a fine property name). */
const isPropertyName = (key: string): boolean => t.isValidIdentifier(key, false);

export interface MarkOptions {
  /** Mark each body with `fe(k)` (the runtime's; a completed program needs none). Default true. */
  readonly enter?: boolean;
  /** Register only these targets (the completed program: the ones drive called that its top level cannot reach). Default all. */
  readonly only?: ReadonlySet<number>;
  /** Told each target and its function as it is found (the arguments' declared types are read off the function). */
  readonly found?: (target: DriveTarget, fn: t.Function) => void;
}

interface Pending {
  readonly at: NodePath<t.Statement>;
  readonly statement: t.Statement;
}

/**
 * Finds the snippet's functions and marks them for driving: `hook.fe(k)` at the start of each
 * body (the runtime knows it ran), and a registration that hands the runtime what to call:
 * - `hook.fr(k, f)` for a function declaration, at the top of the block it is hoisted in, and after
 *   a statement that binds a function expression to a name (`const f = () => …`, `f = function …`);
 * - `hook.fr(k, fn, () => owner)` around a function expression assigned to a member
 *   (`Game.prototype.restart = function …`, `exports.x = …`): called on the owner;
 * - `hook.fr(k, fn)` around any other function expression (a callback, a returned function): it
 *   holds the last one made;
 * - `hook.fm(k, () => C)` after the statement that makes a class bound to a name, for each method,
 *   getter, setter and constructor (the runtime reads it off the class when it drives it);
 * - `hook.fo(obj, k…)` around every object literal with methods, getters, setters or
 *   function-valued properties: called on the object.
 * A function whose name comes from where it stands (`{ a: function () {} }`, a default value) is
 * never wrapped, so `.name` stays what it was. Injected nodes have no location: they are neither
 * measured nor driven. Generators are left out: calling one runs none of its body.
 */
export function markDriveTargets(ast: t.File, hook: string, options: MarkOptions = {}): DriveTarget[] {
  const targets: DriveTarget[] = [];
  const enter = options.enter ?? true;
  const wanted = (k: number) => options.only === undefined || options.only.has(k);
  const call = (method: HookName, args: t.Expression[]) => t.callExpression(t.memberExpression(t.identifier(hook), t.identifier(method)), args);
  const statement = (method: HookName, args: t.Expression[]) => t.expressionStatement(call(method, args));
  const thunk = (owner: string) => t.arrowFunctionExpression([], ownerExpression(owner));
  const after: Pending[] = [];
  const hoisted = new Map<t.Node, t.Statement[]>();
  const indexOf = new WeakMap<t.Node, number>();
  const wrapped = new WeakSet<t.Node>();
  /** An object literal that is a property of one reached from the top level: how it is reached (`api.users`). */
  const objectSources = new WeakMap<t.Node, string>();

  const blockScoped = topLevelBlockScopedNames(ast.program);
  /** Where a node stands: the name prefix of the target whose body holds it (`outer.`), and whether that is the top level. */
  const enclosing = (path: NodePath): { prefix: string; topLevel: boolean } => {
    const parentFn = path.getFunctionParent();
    const parent = parentFn ? indexOf.get(parentFn.node) : undefined;
    return { prefix: parent === undefined ? '' : `${targets[parent]?.name}.`, topLevel: parentFn === null };
  };
  /** `parent`: what holds a function expression that has no name, to tell a listener of an error event or a rejection handler. */
  const add = (fn: t.Function, target: Omit<DriveTarget, 'params' | 'line'>, parent?: t.Node): number => {
    const k = targets.length;
    const root = target.owner?.split('.')[0];
    const reads = readsArguments(fn);
    targets.push({ ...target, params: fn.params.filter((p) => !t.isRestElement(p)).length + (reads ? EXTRA_ARGUMENTS : 0), line: fn.loc?.start.line ?? 0, ...(reads ? { readsArguments: true as const } : {}), ...(root !== undefined && blockScoped.has(root) ? { ownerBlockScoped: true } : {}), ...(isErrorFirst(fn) && !handlesError(fn, parent) ? { errorFirst: true as const } : {}) });
    indexOf.set(fn, k);
    options.found?.(targets[k] as DriveTarget, fn);
    if (!enter) return k;
    // `(…) => expr` gets a block, `{ return expr; }`: the return has no location (it is neither
    // measured nor hooked), and expr stays where it was, so no measured line moves.
    if (t.isArrowFunctionExpression(fn) && !t.isBlockStatement(fn.body)) fn.body = t.blockStatement([t.returnStatement(fn.body)]);
    if (t.isBlockStatement(fn.body)) fn.body.body.unshift(statement(HOOKS.entryEnter, [t.numericLiteral(k)]));
    return k;
  };

  const marking: Marking = { indexOf, wrapped, objectSources, after, hoisted, enclosing, add, wanted, call, statement, thunk };
  traverse(ast, DRIVE_VISITOR, undefined, marking);

  // A function whose prototype gets methods is a constructor: driven with `new`, as its methods' receivers are made.
  const constructors = new Set(targets.filter((d) => d.memberOf === 'prototype' && d.owner !== undefined).map((d) => d.owner!.replace(/\.prototype$/, '')));
  targets.forEach((d, k) => {
    if (d.kind === 'function' && d.topLevel && d.owner !== undefined && constructors.has(d.owner)) targets[k] = { ...d, kind: 'constructor' };
  });
  for (const { at, statement: s } of after.reverse()) insertAfterStatement(at, s);
  for (const [block, statements] of hoisted) {
    const body = t.isProgram(block) || t.isBlockStatement(block) ? block.body : t.isSwitchCase(block) ? block.consequent : undefined;
    if (!body) continue;
    // After the function's own `fe(k)` when the block is a function's body.
    const first = body[0];
    const atStart = first && t.isExpressionStatement(first) && !first.loc && isHookCall(first.expression, hook, HOOKS.entryEnter) ? 1 : 0;
    body.splice(atStart, 0, ...statements);
  }
  return targets;
}

/** What DRIVE_VISITOR works with: one snippet's marking, as markDriveTargets sets it up. */
interface Marking {
  readonly indexOf: WeakMap<t.Node, number>;
  readonly wrapped: WeakSet<t.Node>;
  /** An object literal that is a property of one reached from the top level: how it is reached (`api.users`). */
  readonly objectSources: WeakMap<t.Node, string>;
  readonly after: Pending[];
  readonly hoisted: Map<t.Node, t.Statement[]>;
  readonly enclosing: (path: NodePath) => { prefix: string; topLevel: boolean };
  readonly add: (fn: t.Function, target: Omit<DriveTarget, 'params' | 'line'>, parent?: t.Node) => number;
  readonly wanted: (k: number) => boolean;
  readonly call: (method: HookName, args: t.Expression[]) => t.CallExpression;
  readonly statement: (method: HookName, args: t.Expression[]) => t.ExpressionStatement;
  readonly thunk: (owner: string) => t.ArrowFunctionExpression;
}

/** markDriveTargets' traversal, made (and exploded by Babel) once, not per snippet. */
const DRIVE_VISITOR: TraverseOptions<Marking> = {
  // Nothing here reads a scope: no scope is made or crawled (the instrumenter crawls the program once after these rewrites).
  noScope: true,
  Function: {
    enter(path, m) {
      const { indexOf, enclosing, add, wanted, hoisted, statement, after, call, thunk } = m;
      const fn = path.node;
      if (!fn.loc || fn.generator || indexOf.has(fn)) return;
      const { prefix, topLevel } = enclosing(path);
      if (path.isFunctionDeclaration()) {
        const id = path.node.id;
        if (!id) return;
        const k = add(fn, { name: prefix + id.name, kind: constructorByConvention(fn, id.name) ? 'constructor' : 'function', topLevel, ...(topLevel ? { owner: id.name } : {}) });
        let block = path.parentPath.isExportNamedDeclaration() || path.parentPath.isExportDefaultDeclaration() ? path.parentPath.parentPath : path.parentPath;
        // `value: function f() {…}` (a labelled declaration, sloppy code): f is declared in the block around the label.
        while (block?.isLabeledStatement()) block = block.parentPath;
        if (!block || !wanted(k)) return;
        const list = hoisted.get(block.node) ?? [];
        list.push(statement(HOOKS.entryRegister, [t.numericLiteral(k), t.identifier(id.name)]));
        hoisted.set(block.node, list);
        return;
      }
      if (path.isObjectMethod() || path.isClassMethod() || path.isClassPrivateMethod()) return; // with their owner, below
      if (!path.isFunctionExpression() && !path.isArrowFunctionExpression()) return;
      const expr = path as NodePath<t.FunctionExpression | t.ArrowFunctionExpression>;
      const parentNode = expr.parent;
      // `const f = …`, `let f = …`: registered after its statement, so `.name` stays 'f'.
      if (t.isVariableDeclarator(parentNode) && parentNode.init === fn && t.isIdentifier(parentNode.id)) {
        const declaration = expr.parentPath.parentPath;
        if (declaration?.isVariableDeclaration() && isStatementInList(declaration)) {
          const name = parentNode.id.name;
          const k = add(fn, { name: prefix + name, kind: constructorByConvention(fn, name) ? 'constructor' : 'function', topLevel, ...(topLevel ? { owner: name } : {}) });
          if (wanted(k)) after.push({ at: declaration, statement: statement(HOOKS.entryRegister, [t.numericLiteral(k), t.identifier(name)]) });
        }
        return;
      }
      if (t.isAssignmentExpression(parentNode) && parentNode.right === fn && parentNode.operator === '=') {
        const left = parentNode.left;
        if (t.isIdentifier(left)) {
          const assignment = expr.parentPath.parentPath;
          if (assignment?.isExpressionStatement() && isStatementInList(assignment)) {
            const k = add(fn, { name: prefix + left.name, kind: 'function', topLevel: false, ...(topLevel ? { owner: left.name } : {}) });
            if (wanted(k)) after.push({ at: assignment, statement: statement(HOOKS.entryRegister, [t.numericLiteral(k), t.identifier(left.name)]) });
          }
          return;
        }
        const member = memberPath(left);
        if (member) {
          // `module.exports = function …` and `exports = …` are called plain, as a require()r would.
          const plain = member.owner === 'module' && member.key === 'exports';
          const isPrototype = /(^|\.)prototype$/.test(member.owner);
          const k = plain
            ? add(fn, { name: `${member.owner}.${member.key}`, kind: 'function', topLevel: false, ...(topLevel ? { owner: `${member.owner}.${member.key}` } : {}) })
            : add(fn, { name: `${member.owner}.${member.key}`, kind: 'method', memberOf: isPrototype ? 'prototype' : 'object', key: member.key, topLevel: false, ...(topLevel ? { owner: member.owner } : {}) });
          if (wanted(k)) expr.replaceWith(call(HOOKS.entryRegister, plain ? [t.numericLiteral(k), expr.node] : [t.numericLiteral(k), expr.node, thunk(member.owner)]));
          return;
        }
      }
      // `obj.__defineGetter__('host', function () {…})`: a getter (or setter) of obj, read on it.
      const accessor = definedAccessor(fn, parentNode);
      if (accessor) {
        const k = add(fn, { name: `${accessor.owner}.${accessor.key}`, kind: accessor.kind, memberOf: 'object', key: accessor.key, topLevel: false, ...(topLevel ? { owner: accessor.owner } : {}) });
        if (wanted(k)) expr.replaceWith(call(HOOKS.entryRegister, [t.numericLiteral(k), expr.node, thunk(accessor.owner)]));
        return;
      }
      // Where a function takes its name from its place, wrapping it would change `.name`.
      if (t.isVariableDeclarator(parentNode) || t.isAssignmentExpression(parentNode) || t.isObjectProperty(parentNode) || t.isAssignmentPattern(parentNode) || t.isClassProperty(parentNode) || t.isClassPrivateProperty(parentNode) || t.isClassAccessorProperty(parentNode) || t.isExportDefaultDeclaration(parentNode)) return;
      const k = add(fn, { name: `${prefix}<anonymous>@${fn.loc.start.line}`, kind: 'function', topLevel: false }, parentNode);
      if (wanted(k)) expr.replaceWith(call(HOOKS.entryRegister, [t.numericLiteral(k), expr.node]));
    },
  },
  // Classes and object literals bound to a name, or assigned to one: their members, after the statement.
  Class: {
    enter(path, m) {
      const { enclosing, add, wanted, after, statement, thunk } = m;
      const cls = path.node;
      if (!cls.loc) return;
      const bound = boundName(path);
      if (!bound) return;
      const { prefix, topLevel } = enclosing(path);
      const owner = topLevel ? bound.name : undefined;
      for (const member of cls.body.body) {
        if (!t.isClassMethod(member) || member.generator || !member.loc || member.computed || !staticKey(member.key)) continue;
        const key = staticKey(member.key)!;
        const kind: DriveKind = member.kind === 'constructor' ? 'constructor' : member.kind === 'get' ? 'getter' : member.kind === 'set' ? 'setter' : member.static ? 'static' : 'method';
        const name = kind === 'constructor' ? prefix + bound.name : `${prefix}${bound.name}.${key}`;
        const k = add(member, { name, kind, memberOf: 'class', key, topLevel: false, ...(member.static && kind !== 'static' ? { static: true } : {}), ...(owner ? { owner } : {}) });
        if (wanted(k)) after.push({ at: bound.statement, statement: statement(HOOKS.methodRegister, [t.numericLiteral(k), thunk(bound.name)]) });
      }
    },
  },
  // Every object literal: its methods, getters, setters and function-valued properties, called on
  // the object. The literal is wrapped, `hook.fo(obj, k…)` (an object has no name to keep).
  ObjectExpression: {
    enter(path, m) {
      const { wrapped, enclosing, add, wanted, after, statement, thunk, objectSources, call } = m;
      const obj = path.node;
      if (!obj.loc || wrapped.has(obj)) return;
      const { prefix, topLevel } = enclosing(path);
      // `Object.defineProperty(req, 'host', { get() {…} })` at the top level: the accessor is req's, read on it.
      const defined = topLevel ? definedProperty(path) : undefined;
      if (defined) {
        for (const p of obj.properties) {
          const kind = accessorKind(p);
          if (!kind || !t.isObjectMember(p)) continue;
          const fn = t.isObjectMethod(p) ? p : (p.value as t.FunctionExpression | t.ArrowFunctionExpression);
          const k = add(fn, { name: `${defined.owner}.${defined.key}`, kind, memberOf: 'object', key: defined.key, topLevel: false, owner: defined.owner });
          if (wanted(k)) after.push({ at: defined.statement, statement: statement(HOOKS.methodRegister, [t.numericLiteral(k), thunk(defined.owner)]) });
        }
        return;
      }
      const bound = boundName(path);
      const source = bound?.name ?? objectSources.get(obj);
      const label = source ?? `<object>@${obj.loc.start.line}`;
      const ks: t.NumericLiteral[] = [];
      for (const p of obj.properties) {
        if (t.isSpreadElement(p) || p.computed) continue;
        const key = staticKey(p.key);
        if (key === undefined) continue;
        const owner = topLevel && source !== undefined ? { owner: source } : {};
        if (t.isObjectMethod(p)) {
          if (p.generator || !p.loc) continue;
          const kind: DriveKind = p.kind === 'get' ? 'getter' : p.kind === 'set' ? 'setter' : 'method';
          ks.push(t.numericLiteral(add(p, { name: `${prefix}${label}.${key}`, kind, memberOf: 'object', key, topLevel: false, ...owner })));
        } else if ((t.isFunctionExpression(p.value) || t.isArrowFunctionExpression(p.value)) && !p.value.generator && p.value.loc) {
          ks.push(t.numericLiteral(add(p.value, { name: `${prefix}${label}.${key}`, kind: 'method', memberOf: 'object', key, topLevel: false, ...owner })));
        } else if (t.isObjectExpression(p.value) && source !== undefined && isPropertyName(key)) {
          objectSources.set(p.value, `${source}.${key}`);
        }
      }
      const registered = ks.filter((k) => wanted(k.value));
      if (registered.length === 0) return;
      wrapped.add(obj);
      path.replaceWith(call(HOOKS.objectRegister, [obj, ...registered]));
    },
  },
};

/**
 * A constructor function by the ES5 convention: a capitalised name (`AxiosError`, `Receiver`) and
 * a body that sets members of `this` (`this.message = message`), outside any nested function that
 * has a `this` of its own. Driven with `new`, as its callers call it.
 */
function constructorByConvention(fn: t.Function, name: string): boolean {
  if (!/^[A-Z]/.test(name) || t.isArrowFunctionExpression(fn) || fn.async || fn.generator || !t.isBlockStatement(fn.body)) return false;
  let found = false;
  const visit = (node: t.Node | null | undefined): void => {
    if (!node || found) return;
    if (t.isAssignmentExpression(node) && t.isMemberExpression(node.left) && t.isThisExpression(node.left.object)) {
      found = true;
      return;
    }
    if (t.isFunction(node) && !t.isArrowFunctionExpression(node)) return; // its own `this`
    for (const key of t.VISITOR_KEYS[node.type] ?? []) {
      const child = (node as unknown as Record<string, t.Node | t.Node[] | null | undefined>)[key];
      if (Array.isArray(child)) child.forEach(visit);
      else visit(child);
    }
  };
  fn.body.body.forEach(visit);
  return found;
}

/** The names the program's top level declares with `let`, `const` or `class`. */
function topLevelBlockScopedNames(program: t.Program): Set<string> {
  const names = new Set<string>();
  for (const stmt of program.body) {
    const decl = t.isExportNamedDeclaration(stmt) || t.isExportDefaultDeclaration(stmt) ? stmt.declaration : stmt;
    if (t.isClassDeclaration(decl) && decl.id) names.add(decl.id.name);
    else if (t.isVariableDeclaration(decl) && decl.kind !== 'var') for (const d of decl.declarations) for (const n of Object.keys(t.getBindingIdentifiers(d.id))) names.add(n);
  }
  return names;
}

/** Whether the statement sits in a statement list (a block, the program, a case), where another can follow it. */
function isStatementInList(path: NodePath): boolean {
  return path.parentPath?.isBlockStatement() === true || path.parentPath?.isProgram() === true || path.parentPath?.isSwitchCase() === true;
}

function insertAfterStatement(path: NodePath<t.Statement>, s: t.Statement): void {
  const exported = path.parentPath?.isExportNamedDeclaration() || path.parentPath?.isExportDefaultDeclaration() ? path.parentPath : path;
  (exported as NodePath<t.Statement>).insertAfter(s);
}

function isHookCall(e: t.Expression, hook: string, method: string): boolean {
  return t.isCallExpression(e) && t.isMemberExpression(e.callee) && t.isIdentifier(e.callee.object, { name: hook }) && t.isIdentifier(e.callee.property, { name: method });
}

/** A property key known from the source: an identifier, a string or a number. */
function staticKey(key: t.Node): string | undefined {
  if (t.isIdentifier(key)) return key.name;
  if (t.isStringLiteral(key)) return key.value;
  if (t.isNumericLiteral(key)) return String(key.value);
  return undefined;
}

/**
 * `obj.__defineGetter__('key', fn)` (or `__defineSetter__`) at the top level: the accessor fn is of
 * `obj` (a chain of names), defined on it as Object.defineProperty would.
 */
function definedAccessor(fn: t.Function, parent: t.Node): { owner: string; key: string; kind: 'getter' | 'setter' } | undefined {
  if (!t.isCallExpression(parent) || parent.arguments[1] !== fn || !t.isStringLiteral(parent.arguments[0])) return undefined;
  const callee = parent.callee;
  if (!t.isMemberExpression(callee) || callee.computed || !t.isIdentifier(callee.property)) return undefined;
  const kind = callee.property.name === '__defineGetter__' ? 'getter' : callee.property.name === '__defineSetter__' ? 'setter' : undefined;
  const owner = chain(callee.object);
  return kind && owner !== undefined && isPropertyName(parent.arguments[0].value) ? { owner, key: parent.arguments[0].value, kind } : undefined;
}

/** The descriptor `Object.defineProperty(obj, 'key', descriptor)` is given, as a statement of its own: obj (a chain of names), the key and the statement. */
function definedProperty(path: NodePath<t.ObjectExpression>): { owner: string; key: string; statement: NodePath<t.Statement> } | undefined {
  const parent = path.parent;
  if (!t.isCallExpression(parent) || parent.arguments[2] !== path.node || !t.isStringLiteral(parent.arguments[1])) return undefined;
  if (!t.isMemberExpression(parent.callee) || chain(parent.callee) !== 'Object.defineProperty') return undefined;
  const owner = chain(parent.arguments[0]!);
  const statement = path.parentPath?.parentPath;
  if (owner === undefined || !isPropertyName(parent.arguments[1].value) || !statement?.isExpressionStatement() || !isStatementInList(statement)) return undefined;
  return { owner, key: parent.arguments[1].value, statement };
}

/** A descriptor's `get`/`set`, written as a method or a (non-generator) function. */
function accessorKind(p: t.ObjectExpression['properties'][number]): 'getter' | 'setter' | undefined {
  if (t.isSpreadElement(p) || p.computed || !p.loc) return undefined;
  const key = staticKey(p.key);
  const kind = key === 'get' ? 'getter' : key === 'set' ? 'setter' : undefined;
  if (t.isObjectMethod(p)) return p.kind === 'method' && !p.generator ? kind : undefined;
  return (t.isFunctionExpression(p.value) || t.isArrowFunctionExpression(p.value)) && !p.value.generator && p.value.loc ? kind : undefined;
}

/** `a.b.c` as owner `a.b` and key `c`, for a chain of identifiers and static keys only (reading it again has no side effect of its own). */
function memberPath(e: t.Node): { owner: string; key: string } | undefined {
  if (!t.isMemberExpression(e)) return undefined;
  const key = e.computed ? (t.isStringLiteral(e.property) ? e.property.value : undefined) : t.isIdentifier(e.property) ? e.property.name : undefined;
  const owner = chain(e.object);
  return key !== undefined && owner !== undefined && isPropertyName(key) ? { owner, key } : undefined;
}

function chain(e: t.Node): string | undefined {
  if (t.isIdentifier(e)) return e.name;
  if (t.isMemberExpression(e) && !e.computed && t.isIdentifier(e.property)) {
    const base = chain(e.object);
    return base === undefined ? undefined : `${base}.${e.property.name}`;
  }
  return undefined;
}

/** `a.b.c` as an expression with no location (neither measured nor hooked). */
function ownerExpression(source: string): t.Expression {
  const [first, ...rest] = source.split('.');
  let e: t.Expression = t.identifier(first!);
  for (const part of rest) e = t.memberExpression(e, t.identifier(part));
  return e;
}

/**
 * The name a class or object literal is bound to, and the statement that binds it, when it is the
 * whole value of a declaration (`class A {}`, `const A = class {}`, `const o = {…}`) or of an
 * assignment statement (`module.exports = {…}`, `api.v1 = {…}`).
 */
function boundName(path: NodePath<t.Class | t.ObjectExpression>): { name: string; statement: NodePath<t.Statement> } | undefined {
  const node = path.node;
  if (t.isClassDeclaration(node)) {
    const statement = path.parentPath?.isExportNamedDeclaration() || path.parentPath?.isExportDefaultDeclaration() ? path.parentPath : path;
    return node.id && isStatementInList(statement) ? { name: node.id.name, statement: path as NodePath<t.Statement> } : undefined;
  }
  const parent = path.parent;
  if (t.isVariableDeclarator(parent) && parent.init === node && t.isIdentifier(parent.id)) {
    const declaration = path.parentPath?.parentPath;
    if (declaration?.isVariableDeclaration() && isStatementInList(declaration)) return { name: parent.id.name, statement: declaration };
  }
  if (t.isAssignmentExpression(parent) && parent.right === node && parent.operator === '=') {
    const name = chain(parent.left);
    const statement = path.parentPath?.parentPath;
    if (name !== undefined && statement?.isExpressionStatement() && isStatementInList(statement)) return { name, statement };
  }
  return undefined;
}

/** Arguments past its parameters drive passes a function that reads `arguments` (`_.extend(obj)` takes its sources so). */
export const EXTRA_ARGUMENTS = 2;

/** A non-arrow function whose own body (arrows in it included, not nested functions, which have their own) reads `arguments`. */
export function readsArguments(fn: t.Function): boolean {
  if (t.isArrowFunctionExpression(fn)) return false;
  const stack: unknown[] = [fn.body];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const n of node) stack.push(n);
      continue;
    }
    if (typeof node !== 'object' || node === null || typeof (node as { type?: unknown }).type !== 'string') continue;
    const n = node as t.Node;
    if (t.isIdentifier(n, { name: 'arguments' })) return true;
    if (t.isFunction(n) && !t.isArrowFunctionExpression(n)) continue;
    for (const key of t.VISITOR_KEYS[n.type] ?? []) stack.push((n as unknown as Record<string, unknown>)[key]);
  }
  return false;
}
