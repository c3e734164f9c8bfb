import type { Binding, NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';

/**
 * An error handler the change touches: a `catch (e)` clause, a `.catch(fn)` callback or the second
 * argument of `.then(ok, fn)`. What it reads of the caught value (`e.stack`, `e.response.status`)
 * may throw when the value is not an ordinary Error: a string thrown, `undefined`, an Error whose
 * `stack` is read-only. diff makes the calls whose throws reach it throw such values.
 */
export interface CatchHandler {
  /** The handler's lines, its parameter's included: a TypeError there is the handler's. */
  readonly start: number;
  readonly end: number;
  /** The lines whose calls' throws (or rejections) reach it: the try block, or the promise chain's callee. */
  readonly reachFrom: readonly [number, number];
  /** The first line of the function around it (its drive target's line), if any. */
  readonly functionLine: number | undefined;
  /** How a failure reaches it: thrown (a try block) or as a rejection (a promise chain). */
  readonly via: 'throw' | 'rejection';
  /** The names called in `reachFrom` (`fetch` of `client.fetch(url)`): outside functions whose failure reaches it. */
  readonly callees: readonly string[];
  /** The parameters of the function around it that `reachFrom` reads: what they hold may throw there (a getter). */
  readonly params: readonly number[];
  /**
   * The parameters, of the functions around it, called where their result or failure reaches it
   * (`func` of `var result = func.apply(this, args); result.then(ok).catch(fn)`): the function a
   * caller passes may throw, or return a rejected promise.
   */
  readonly calledParams: readonly CalledParameter[];
}

/** A parameter called (`f(x)`, `f.apply(t, xs)`, `f.call(t, x)`): the first line of its function, and its index. */
export interface CalledParameter {
  readonly functionLine: number;
  readonly index: number;
}

/** The function a call calls: `f` of `f(x)`, `f.apply(t, xs)` and `f.call(t, x)`. */
function calledFunction(call: t.CallExpression): t.Node {
  const c = call.callee;
  if (t.isMemberExpression(c) && !c.computed && t.isIdentifier(c.property) && (c.property.name === 'apply' || c.property.name === 'call')) return c.object;
  return c;
}

/**
 * The handlers of the changed file that hold a changed line or whose parameter is read on one,
 * in source order.
 */
export function catchHandlers(parsed: ParsedSnippet, changed: ReadonlySet<number>): CatchHandler[] {
  const out: CatchHandler[] = [];
  const touched = (node: t.Node, param: t.Node | null | undefined, scope: NodePath['scope']): boolean => {
    if (!node.loc) return false;
    for (let l = node.loc.start.line; l <= node.loc.end.line; l++) if (changed.has(l)) return true;
    if (!t.isIdentifier(param)) return false;
    return scope.getBinding(param.name)?.referencePaths.some((r) => r.node.loc != null && changed.has(r.node.loc.start.line)) === true;
  };
  /** What `reachFrom` calls and which of the enclosing function's parameters it reads. */
  const reach = (path: NodePath, from: NodePath, via: CatchHandler['via']): Pick<CatchHandler, 'functionLine' | 'via' | 'callees' | 'params' | 'calledParams'> => {
    const fn = path.getFunctionParent();
    const callees = new Set<string>();
    const read = new Set<string>();
    const calledParams = new Map<string, CalledParameter>();
    /** The locals `reachFrom` reads: what their assignments call reaches the handler too (their result is what it reads). */
    const locals = new Set<Binding>();
    const called = (call: NodePath<t.CallExpression>) => {
      const f = calledFunction(call.node);
      if (t.isIdentifier(f)) callees.add(f.name);
      else if (t.isMemberExpression(f) && !f.computed && t.isIdentifier(f.property)) callees.add(f.property.name);
      const binding = t.isIdentifier(f) ? call.scope.getBinding(f.name) : undefined;
      const owner = binding?.kind === 'param' ? binding.scope.path : undefined;
      if (binding && owner?.isFunction() && owner.node.loc) {
        const index = owner.node.params.findIndex((p) => (t.isAssignmentPattern(p) ? p.left : p) === binding.identifier);
        if (index >= 0) calledParams.set(`${owner.node.loc.start.line}#${index}`, { functionLine: owner.node.loc.start.line, index });
      }
    };
    const named = (id: NodePath<t.Identifier>) => {
      if (!id.isReferencedIdentifier()) return;
      const binding = id.scope.getBinding(id.node.name);
      if (fn && binding?.scope === fn.scope) read.add(id.node.name);
      if (binding && binding.kind !== 'param' && binding.kind !== 'module' && binding.kind !== 'hoisted') locals.add(binding);
    };
    // Babel rewrites a visitor object it is given: a fresh one per traversal.
    from.traverse({ CallExpression: called, Identifier: named });
    // The expression itself (`client.get(id)` of `client.get(id).then(ok, fail)`), which traverse skips.
    if (from.isCallExpression()) called(from);
    if (from.isIdentifier()) named(from);
    // One step back, for a promise chain: `var result = func.apply(this, args)` of
    // `result.then(ok).catch(fn)` (the rejection travels in the value; a throw where a try block's
    // local was assigned happened before the block, and reaches no catch clause of it).
    for (const b of via === 'rejection' ? locals : []) {
      const values = [b.path.isVariableDeclarator() ? b.path.get('init') : undefined, ...b.constantViolations.map((v) => (v.isAssignmentExpression() ? v.get('right') : undefined))];
      for (const v of values) {
        if (!v?.node) continue;
        v.traverse({ CallExpression: called });
        if (v.isCallExpression()) called(v);
      }
    }
    const params = (fn?.node.params ?? []).flatMap((p, i) => { const id = t.isAssignmentPattern(p) ? p.left : p; return t.isIdentifier(id) && read.has(id.name) ? [i] : []; });
    return { functionLine: fn?.node.loc?.start.line, via, callees: [...callees], params, calledParams: [...calledParams.values()] };
  };
  traverse(parsed.ast, {
    CatchClause(path: NodePath<t.CatchClause>) {
      const { node } = path;
      const block = (path.parent as t.TryStatement).block;
      if (!node.loc || !block.loc || !touched(node, node.param, path.scope)) return;
      out.push({ start: node.loc.start.line, end: node.loc.end.line, reachFrom: [block.loc.start.line, block.loc.end.line], ...reach(path, path.parentPath.get('block') as NodePath, 'throw') });
    },
    CallExpression(path: NodePath<t.CallExpression>) {
      const { callee, arguments: args } = path.node;
      if (!t.isMemberExpression(callee) || callee.computed || !t.isIdentifier(callee.property) || !callee.object.loc) return;
      const method = callee.property.name;
      const handler = method === 'catch' ? args[0] : method === 'then' ? args[1] : undefined;
      if (!handler || !(t.isFunctionExpression(handler) || t.isArrowFunctionExpression(handler)) || !handler.loc) return;
      const fn = path.get(method === 'catch' ? 'arguments.0' : 'arguments.1') as NodePath<t.Function>;
      if (!touched(handler, handler.params[0], fn.scope)) return;
      out.push({ start: handler.loc.start.line, end: handler.loc.end.line, reachFrom: [callee.object.loc.start.line, callee.object.loc.end.line], ...reach(path, path.get('callee.object') as NodePath, 'rejection') });
    },
  });
  return out.sort((a, b) => a.start - b.start);
}
