import type { NodePath, Visitor } from '@babel/traverse';
import * as t from '@babel/types';
import { HOOKS, SITE_HOOKS, type HookName } from '../protocol/hooks.ts';
import type { SiteCall } from './stackPositions.ts';
import type { CoverageModel, HookKind } from './coverageModel.ts';
import type { PathPreferences } from './pathPreference.ts';
import { requireSpecifier, staticPropertyName, type UsageKeys } from './usage.ts';
import { callMessages, callSiteText, destructureMessages, forOfMessages, newMessages, spreadMessages, type SiteMessages } from './v8CallSite.ts';

/** Globals every isolate has; reading them needs no hook. */
export const ISOLATE_GLOBALS = new Set([
  'undefined', 'NaN', 'Infinity', 'globalThis', 'Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol',
  'BigInt', 'Date', 'Promise', 'RegExp', 'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError',
  'SyntaxError', 'TypeError', 'URIError', 'JSON', 'Math', 'Intl', 'Reflect', 'Proxy', 'Map', 'Set', 'WeakMap', 'WeakSet',
  'WeakRef', 'FinalizationRegistry', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'Int8Array', 'Uint8Array',
  'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array',
  'BigInt64Array', 'BigUint64Array', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'decodeURI', 'decodeURIComponent',
  'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'eval', 'Iterator', 'WebAssembly', 'console', 'setTimeout',
  'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'arguments',
]);

const COMPARISONS = new Set(['===', '==', '!==', '!=', '<', '>', '<=', '>=', 'instanceof', 'in']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);
const TYPEOF_RESULTS = new Set(['string', 'number', 'boolean', 'function', 'object', 'undefined', 'symbol', 'bigint']);

export interface VisitorState {
  readonly model: CoverageModel;
  readonly keys: UsageKeys;
  /** Identifier of the in-isolate hook object, derived from a hash so it cannot collide. */
  readonly hook: string;
  readonly source: string;
  readonly operatorHooks: boolean;
  /** The outcome of each decision that runs more of the code, for recording proxies to give. */
  readonly preferences: PathPreferences;
  /** Names of functions declared in blocks: sloppy-mode code sees them outside the block too (Annex B). */
  readonly blockFunctions: ReadonlySet<string>;
  /** Nodes already instrumented; injected nodes have no `loc` and are never touched. */
  readonly done: WeakSet<t.Node>;
  /** `throw` statements whose operand is placed (tw); the coverage visitor marks them done first. */
  readonly thrown: WeakSet<t.Node>;
  /** Sites reserved on enter, for hooks whose operand is rewritten before the hook is placed on exit. */
  readonly pending: WeakMap<t.Node, number>;
  /** Comparisons of a name or member with itself (`v !== v`), marked on enter. */
  readonly selfCompared: WeakSet<t.Node>;
  /** Each value hook call made (a hook of SITE_HOOKS): its method's identifier and its site. */
  readonly siteCalls: SiteCall[];
}

const EQUALITY = new Set(['===', '==', '!==', '!=']);
/** A name or a chain of plain member reads (`v`, `a.b`, `a[0]`): reading it twice gives the same value. */
function isPlainRead(node: t.Node): boolean {
  if (t.isIdentifier(node)) return true;
  if (t.isMemberExpression(node)) return (!node.computed || t.isStringLiteral(node.property) || t.isNumericLiteral(node.property)) && isPlainRead(node.object);
  return false;
}

function reserve(owner: NodePath, operand: NodePath, state: VisitorState, kind: HookKind, messages: SiteMessages): void {
  if (state.pending.has(owner.node)) return;
  state.pending.set(owner.node, state.model.newSite(operand.node, kind, text(operand, state), state.keys.keyOf(operand), undefined, undefined, messages));
}

function h(state: VisitorState, method: HookName, args: t.Expression[]): t.CallExpression {
  const property = t.identifier(method);
  const first = args[0];
  // Told to the source map where its site's operation is, once every site is final (locateSiteCalls).
  if (SITE_HOOKS.has(method) && t.isNumericLiteral(first)) state.siteCalls.push({ property, site: first.value });
  return t.callExpression(t.memberExpression(t.identifier(state.hook), property), args);
}

function original(path: NodePath, state: VisitorState): boolean {
  return path.node.loc != null && !state.done.has(path.node);
}

/** The original expression as V8 names it in an error message; taken before any child is rewritten (Expression enter). */
function text(path: NodePath, state: VisitorState): string {
  const s = callSiteText(path.node);
  return s.includes(state.hook) ? '(intermediate value)' : s; // a node rewritten already: never name a hook
}

function site(path: NodePath, state: VisitorState, kind: HookKind, name?: string, prefer?: boolean, messages?: SiteMessages): t.NumericLiteral {
  return t.numericLiteral(state.model.newSite(path.node, kind, text(path, state), state.keys.keyOf(path), name, prefer, messages));
}

function replace(path: NodePath, state: VisitorState, replacement: t.Expression): void {
  let node = replacement;
  // A value an `if` tests: a recording proxy answers it as the branch that runs more wants
  // (`if (done) return;` falsy, `if (isDeep) { … }` truthy), and learns that.
  const want = state.operatorHooks ? state.preferences.tests.get(path.node) : undefined;
  if (want !== undefined) {
    node = h(state, HOOKS.operator, [site(path, state, 'operator', 'test', want), t.stringLiteral('test'), replacement, t.booleanLiteral(want)]);
  } else if (state.operatorHooks && state.preferences.undecided.has(path.node)) {
    // No way is preferred: a recording proxy stays itself (truthy) unless exploration asks for the other.
    node = h(state, HOOKS.operator, [site(path, state, 'operator', 'test'), t.stringLiteral('test'), replacement, t.unaryExpression('void', t.numericLiteral(0))]);
  }
  state.done.add(path.node);
  const parent = path.parent;
  if (t.isObjectProperty(parent) && parent.shorthand && parent.value === path.node) parent.shorthand = false;
  path.replaceWith(node);
  state.done.add(node);
  path.skip();
}

/** `this` of the snippet itself: not inside a non-arrow function, nor a class field or static block (there it is the instance or class). */
function isTopLevelThis(path: NodePath): boolean {
  const owner = path.findParent((p) => (p.isFunction() && !p.isArrowFunctionExpression()) || p.isClassProperty() || p.isClassPrivateProperty() || p.isClassAccessorProperty() || p.isStaticBlock());
  return owner === null;
}

function isCallee(path: NodePath): boolean {
  const p = path.parent;
  return (t.isCallExpression(p) || t.isNewExpression(p)) && p.callee === path.node;
}

function isWriteTarget(path: NodePath): boolean {
  const p = path.parent;
  if (t.isAssignmentExpression(p) && p.left === path.node) return true;
  if (t.isUpdateExpression(p)) return true;
  if (t.isUnaryExpression(p) && (p.operator === 'delete' || p.operator === 'typeof') && p.argument === path.node) return true;
  if ((t.isForInStatement(p) || t.isForOfStatement(p)) && p.left === path.node) return true;
  return path.parentPath?.isPattern() === true || t.isRestElement(p);
}

/** What the runtime needs of a pattern: an array pattern's length, or an object pattern's static keys. */
function patternShape(pattern: t.Node): t.Expression {
  if (t.isArrayPattern(pattern)) return t.numericLiteral(pattern.elements.length);
  const keys: string[] = [];
  if (t.isObjectPattern(pattern)) {
    for (const p of pattern.properties) {
      if (t.isObjectProperty(p) && !p.computed && t.isIdentifier(p.key)) keys.push(p.key.name);
      else if (t.isObjectProperty(p) && t.isStringLiteral(p.key)) keys.push(p.key.value);
    }
  }
  return t.arrayExpression(keys.map((k) => t.stringLiteral(k)));
}

function isLiteral(node: t.Node): boolean {
  return t.isStringLiteral(node) || t.isNumericLiteral(node) || t.isBooleanLiteral(node) || t.isNullLiteral(node) || (t.isTemplateLiteral(node) && node.expressions.length === 0);
}

function argsArray(args: t.CallExpression['arguments']): t.ArrayExpression {
  return t.arrayExpression(args.filter((a): a is t.Expression | t.SpreadElement => !t.isArgumentPlaceholder(a) && !t.isJSXNamespacedName(a)));
}

function injectBeforeWrite(path: NodePath<t.UpdateExpression | t.AssignmentExpression>, target: t.Identifier, state: VisitorState): void {
  const name = target.name;
  if (ISOLATE_GLOBALS.has(name) || path.scope.getBinding(name)) return;
  state.done.add(path.node);
  const read = h(state, HOOKS.global, [site(path, state, 'global', name), t.stringLiteral(name)]);
  path.replaceWith(t.sequenceExpression([read, path.node]));
  path.skip();
}

/** Switch statements whose discriminant is hooked; the statement itself stays measured. */
const SWITCHED = new WeakSet<t.Node>();
/** Try statements whose caught errors are reported to the runtime. */
const CATCHING = new WeakSet<t.Node>();
/** What V8 says when a call or `new` fails, from the original tree: the callee is rewritten before the call's hook is placed. */
const CALL_MESSAGES = new WeakMap<t.Node, SiteMessages>();

/** `this` of a function (not of the snippet's top level, nor of a class field): a plain call makes it the global object. */
function isFunctionThis(node: t.Node, path: NodePath): boolean {
  return t.isThisExpression(node) && !isTopLevelThis(path);
}

/** The literal case of a switch that runs the most code without leaving: no throw or return, longest first. */
function preferredCase(node: t.SwitchStatement): t.Expression | undefined {
  const score = (c: t.SwitchCase): number => {
    const last = c.consequent[c.consequent.length - 1];
    const leaves = last !== undefined && (t.isThrowStatement(last) || t.isReturnStatement(last));
    return (leaves ? 0 : 1000) + c.consequent.length;
  };
  let best: t.SwitchCase | undefined;
  for (const c of node.cases) if (!best || score(c) > score(best)) best = c;
  if (!best || !best.test || !(t.isStringLiteral(best.test) || t.isNumericLiteral(best.test) || t.isBooleanLiteral(best.test))) return undefined;
  return best.test;
}

/** The hook half of the visitor table: each entry rewrites one expression kind into a hook call. */
export const hookVisitor: Visitor<VisitorState> = {
  Expression: {
    enter(path) {
      // Error texts come from the original tree: an expression's (and with it its children's) is
      // taken when it is entered, before any hook rewrites a child (hooks are placed on exit).
      if (path.node.loc) callSiteText(path.node);
    },
  },
  ThrowStatement: {
    // Where a value that is no Error was thrown: it has no stack to say (`throw "boom"`, `throw { code: 1 }`).
    exit(path, state) {
      if (!path.node.loc || state.thrown.has(path.node)) return;
      state.thrown.add(path.node);
      path.node.argument = h(state, HOOKS.thrown, [site(path, state, 'throw'), path.node.argument]);
    },
  },
  TryStatement: {
    enter(path, state) {
      // `try { B } catch …` runs as `try { try { B } catch (e) { hook.ct(e); throw e; } } catch …`:
      // the runtime sees every error the snippet catches, whatever its catch clause binds.
      const node = path.node;
      if (!node.loc || !node.handler || CATCHING.has(node)) return;
      CATCHING.add(node);
      state.model.newTry(node);
      const e = t.identifier(`${state.hook}_e`);
      const record = t.expressionStatement(h(state, HOOKS.caught, [t.cloneNode(e)]));
      node.block = t.blockStatement([t.tryStatement(node.block, t.catchClause(e, t.blockStatement([record, t.throwStatement(t.cloneNode(e))])))]);
    },
  },
  Identifier: {
    exit(path, state) {
      if (!original(path, state) || !path.isReferencedIdentifier() || isWriteTarget(path)) return;
      const name = path.node.name;
      if (path.scope.getBinding(name) && state.operatorHooks && state.preferences.tests.get(path.node) !== undefined) return replace(path, state, t.identifier(name));
      if (ISOLATE_GLOBALS.has(name) || path.scope.getBinding(name) || state.blockFunctions.has(name)) return;
      if (name === 'require' && t.isCallExpression(path.parent) && path.parent.callee === path.node && requireSpecifier(path.parent) !== undefined) return;
      replace(path, state, h(state, HOOKS.global, [site(path, state, 'global', name), t.stringLiteral(name)]));
    },
  },
  ThisExpression: {
    exit(path, state) {
      if (!original(path, state) || !isTopLevelThis(path)) return;
      replace(path, state, h(state, HOOKS.receiver, [site(path, state, 'this'), t.thisExpression()]));
    },
  },
  MemberExpression: {
    exit(path, state) {
      if (!original(path, state) || isWriteTarget(path) || t.isSuper(path.node.object) || t.isPrivateName(path.node.property)) return;
      if (t.isCallExpression(path.parent) && path.parent.callee === path.node) return; // the call hook owns it
      if (path.parentPath.isOptionalMemberExpression() || path.parentPath.isOptionalCallExpression()) return;
      const key = path.node.computed ? (path.node.property as t.Expression) : t.stringLiteral(staticPropertyName(path.node) ?? '');
      const lostThis = isFunctionThis(path.node.object, path) ? [t.booleanLiteral(true)] : [];
      replace(path, state, h(state, HOOKS.member, [site(path, state, 'member', staticPropertyName(path.node)), path.node.object as t.Expression, key, ...lostThis]));
    },
  },
  CallExpression: {
    enter(path) {
      if (path.node.loc) CALL_MESSAGES.set(path.node, callMessages(path.node.callee));
    },
    exit(path, state) {
      if (!original(path, state)) return;
      const node = path.node;
      const callee = node.callee;
      if (t.isIdentifier(callee, { name: 'eval' }) && node.arguments.length > 0 && t.isExpression(node.arguments[0])) {
        // A direct eval stays direct (it sees the snippet's scope), but its code may not name the hook, which is in that scope too.
        // Also when `eval` is a local binding (a parameter, a var): a call through it is direct when it holds the real eval.
        state.done.add(node);
        node.arguments[0] = h(state, HOOKS.directEval, [node.arguments[0]]);
        return;
      }
      if (t.isSuper(callee) || t.isImport(callee) || t.isIdentifier(callee, { name: 'eval' })) return;
      if (path.parentPath.isOptionalMemberExpression() || path.parentPath.isOptionalCallExpression()) return;
      const spec = requireSpecifier(node);
      if (spec !== undefined && !path.scope.getBinding('require')) {
        return replace(path, state, h(state, HOOKS.require, [site(path, state, 'require', spec), t.stringLiteral(spec)]));
      }
      if (t.isMemberExpression(callee) && !t.isSuper(callee.object) && !t.isPrivateName(callee.property)) {
        const key = callee.computed ? (callee.property as t.Expression) : t.stringLiteral(staticPropertyName(callee) ?? '');
        const lostThis = isFunctionThis(callee.object, path) ? [t.booleanLiteral(true)] : [];
        const sid = site(path, state, 'method-call', staticPropertyName(callee), undefined, CALL_MESSAGES.get(node));
        return replace(path, state, h(state, HOOKS.methodCall, [sid, callee.object as t.Expression, key, argsArray(node.arguments), ...lostThis]));
      }
      if (t.isV8IntrinsicIdentifier(callee)) return;
      const name = t.isIdentifier(callee) ? (callee as t.Identifier).name : undefined;
      replace(path, state, h(state, HOOKS.call, [site(path, state, 'call', name, undefined, CALL_MESSAGES.get(node)), callee, argsArray(node.arguments)]));
    },
  },
  NewExpression: {
    enter(path) {
      if (path.node.loc) CALL_MESSAGES.set(path.node, newMessages(path.node.callee));
    },
    exit(path, state) {
      if (!original(path, state)) return;
      const callee = path.node.callee;
      if (!t.isExpression(callee)) return;
      const name = t.isIdentifier(callee) ? callee.name : undefined;
      replace(path, state, h(state, HOOKS.construct, [site(path, state, 'new', name, undefined, CALL_MESSAGES.get(path.node)), callee, argsArray(path.node.arguments)]));
    },
  },
  AwaitExpression: {
    exit(path, state) {
      if (!original(path, state)) return;
      state.done.add(path.node);
      path.node.argument = h(state, HOOKS.await, [site(path, state, 'await'), path.node.argument]);
    },
  },
  VariableDeclarator: {
    enter(path, state) {
      const { id, init } = path.node;
      if (init && (t.isObjectPattern(id) || t.isArrayPattern(id)) && init.loc) reserve(path, path.get('init') as NodePath, state, 'destructure', destructureMessages(id, init, true));
    },
    exit(path, state) {
      const sid = state.pending.get(path.node);
      if (sid === undefined || !path.node.init) return;
      state.pending.delete(path.node);
      path.node.init = h(state, HOOKS.destructure, [t.numericLiteral(sid), path.node.init, patternShape(path.node.id)]);
    },
  },
  AssignmentExpression: {
    enter(path, state) {
      const { left } = path.node;
      if ((t.isObjectPattern(left) || t.isArrayPattern(left)) && path.node.loc) reserve(path, path.get('right'), state, 'destructure', destructureMessages(left, path.node.right, false));
    },
    exit(path, state) {
      const { left, operator } = path.node;
      if (operator !== '=' && t.isIdentifier(left) && original(path, state)) return injectBeforeWrite(path, left, state);
      const sid = state.pending.get(path.node);
      if (sid === undefined) return;
      state.pending.delete(path.node);
      path.node.right = h(state, HOOKS.destructure, [t.numericLiteral(sid), path.node.right, patternShape(path.node.left)]);
    },
  },
  ForOfStatement: {
    enter(path, state) {
      if (path.node.loc) reserve(path, path.get('right'), state, 'iterate', forOfMessages(path.node.right, path.node.await));
    },
    exit(path, state) {
      const sid = state.pending.get(path.node);
      if (sid === undefined) return;
      state.pending.delete(path.node);
      path.node.right = h(state, HOOKS.iterable, [t.numericLiteral(sid), path.node.right, t.booleanLiteral(path.node.await)]);
    },
  },
  SpreadElement: {
    enter(path, state) {
      if (path.node.loc && !t.isObjectExpression(path.parent)) reserve(path, path.get('argument'), state, 'iterate', spreadMessages(path));
    },
    exit(path, state) {
      const sid = state.pending.get(path.node);
      if (sid === undefined) return;
      state.pending.delete(path.node);
      path.node.argument = h(state, HOOKS.iterable, [t.numericLiteral(sid), path.node.argument, t.booleanLiteral(false)]);
    },
  },
  UnaryExpression: {
    exit(path, state) {
      // `typeof x === 'string'`: the hook is told the compared type, so a recording proxy can answer it.
      if (!state.operatorHooks || !original(path, state) || path.node.operator !== 'typeof') return;
      const arg = path.node.argument;
      const parent = path.parent;
      if (!t.isBinaryExpression(parent) || !['===', '==', '!==', '!='].includes(parent.operator)) return;
      const other = parent.left === path.node ? parent.right : parent.left;
      if (!t.isStringLiteral(other) || !TYPEOF_RESULTS.has(other.value)) return;
      // Whether the type should be the compared one: the comparison's preferred result, flipped for `!==`.
      const wanted = state.preferences.comparisons.get(parent);
      const prefer = wanted === undefined ? undefined : parent.operator.startsWith('!') ? !wanted : wanted;
      // An undeclared name is looked up by the hook, which injects it or, as `typeof` does, gives 'undefined'.
      const free = t.isIdentifier(arg) && !path.scope.getBinding(arg.name) && !ISOLATE_GLOBALS.has(arg.name);
      const operand = free ? h(state, HOOKS.globalTypeof, [site(path, state, 'global', arg.name), t.stringLiteral(arg.name)]) : arg;
      if (t.isIdentifier(arg) && !free && !path.scope.getBinding(arg.name)) return; // a built-in: typeof as it is
      replace(path, state, h(state, HOOKS.operator, [site(path, state, 'operator', 'typeof', prefer), t.stringLiteral('typeof'), operand, t.stringLiteral(other.value)]));
    },
  },
  SwitchStatement: {
    exit(path, state) {
      // `switch (x)` on a recording proxy: it is told which case runs the most code, and takes it.
      if (!state.operatorHooks || !path.node.loc || SWITCHED.has(path.node)) return;
      SWITCHED.add(path.node);
      const chosen = preferredCase(path.node);
      if (!chosen) return;
      const id = site(path.get('discriminant') as NodePath, state, 'operator', 'switch');
      const cases = path.node.cases.flatMap((c) => (t.isStringLiteral(c.test) || t.isNumericLiteral(c.test) || t.isBooleanLiteral(c.test) ? [c.test.value] : []));
      const known = state.model.sites[id.value];
      // The discriminant was already rewritten by its own hook (no location left): the site is the switch's line.
      if (known) state.model.sites[id.value] = { ...known, cases, ...(known.line === 0 && path.node.loc ? { line: path.node.loc.start.line, column: path.node.loc.start.column + 1, text: 'switch' } : {}) };
      path.node.discriminant = h(state, HOOKS.operator, [id, t.stringLiteral('switch'), path.node.discriminant, t.cloneNode(chosen)]);
    },
  },
  UpdateExpression: {
    exit(path, state) {
      // `count++` or `n -= 1` on an undeclared name: read it through the hook first, which injects it.
      const target = path.node.argument;
      if (t.isIdentifier(target) && original(path, state)) injectBeforeWrite(path, target, state);
    },
  },
  BinaryExpression: {
    enter(path, state) {
      // `v !== v` (the NaN test): the same name or member read on both sides, told from the source
      // before the operands are rewritten; the runtime may then learn NaN (two calls of one
      // injected function give one recording proxy too, and that is no NaN test).
      const { operator, left, right } = path.node;
      if (EQUALITY.has(operator) && isPlainRead(left) && isPlainRead(right) && left.start != null && right.start != null && state.source.slice(left.start, left.end ?? left.start) === state.source.slice(right.start, right.end ?? right.start)) state.selfCompared.add(path.node);
    },
    exit(path, state) {
      if (!state.operatorHooks || !original(path, state) || t.isPrivateName(path.node.left)) return;
      const { operator, left, right } = path.node;
      if (!COMPARISONS.has(operator) && !(ARITHMETIC.has(operator) && !(isLiteral(left) && isLiteral(right)))) return;
      const self = state.selfCompared.has(path.node) ? [t.booleanLiteral(true)] : [];
      replace(path, state, h(state, HOOKS.operator, [site(path, state, 'operator', operator, state.preferences.comparisons.get(path.node)), t.stringLiteral(operator), left as t.Expression, right, ...self]));
    },
  },
};
