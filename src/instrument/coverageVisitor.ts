import type { NodePath, Visitor } from '@babel/traverse';
import * as t from '@babel/types';
import { HOOKS, type HookName } from '../protocol/hooks.ts';
import type { VisitorState } from './visitor.ts';

function h(state: VisitorState, method: HookName, args: t.Expression[]): t.CallExpression {
  return t.callExpression(t.memberExpression(t.identifier(state.hook), t.identifier(method)), args);
}
function stmt(expr: t.Expression): t.ExpressionStatement {
  return t.expressionStatement(expr);
}
const num = (n: number) => t.numericLiteral(n);

/** Counter placement for one original statement: code before it, its rewrite, code after it. */
interface Placement {
  readonly hoist: t.Statement[];
  readonly before: t.Statement[];
  readonly after: t.Statement[];
}

/**
 * Places the counter of one statement:
 * - simple statements: after it, so it counts once it ran to completion;
 * - `if`, `switch`, `with`: on the head, once the test ran without an exception;
 * - `try`, `break`, `continue`, `debugger`: before it, once reached;
 * - `return` and `throw`: once their operand was evaluated;
 * - loops and labelled statements: once control leaves them other than by an exception, that is
 *   after them (the test turned false, or a `break`), or at a `return`, `break` or `continue` that
 *   jumps out of them. A loop that never ends is never covered.
 * - function declarations: at scope entry, where they are hoisted.
 */
function placeCounter(path: NodePath<t.Statement>, state: VisitorState): Placement {
  const node = path.node;
  const out: Placement = { hoist: [], before: [], after: [] };
  if (!node.loc || t.isBlockStatement(node) || t.isEmptyStatement(node) || state.done.has(node)) return out;
  state.done.add(node);
  const sid = statementId(path, state);
  const mark = (id = sid) => stmt(h(state, HOOKS.statement, [num(id)]));
  const test = (e: t.Expression) => h(state, HOOKS.test, [num(sid), e]);
  if (t.isFunctionDeclaration(node)) out.hoist.push(mark());
  else if (t.isReturnStatement(node) || t.isThrowStatement(node)) {
    const left = t.isReturnStatement(node) ? jumpedOut(path as NodePath<t.ReturnStatement>, state) : [];
    if (node.argument) node.argument = left.length === 0 ? h(state, HOOKS.returned, [num(sid), node.argument]) : h(state, HOOKS.returnedFromLoops, [num(sid), node.argument, t.arrayExpression(left.map(num))]);
    else out.before.push(mark(), ...left.map(mark));
  } else if (t.isBreakStatement(node) || t.isContinueStatement(node)) {
    out.before.push(mark(), ...jumpedOut(path as NodePath<t.BreakStatement | t.ContinueStatement>, state).map(mark));
  } else if (t.isTryStatement(node) || t.isDebuggerStatement(node)) {
    out.before.push(mark());
  } else if (t.isIfStatement(node)) node.test = test(node.test);
  else if (t.isSwitchStatement(node)) node.discriminant = test(node.discriminant);
  // `with (o)`: the runtime counts it and wraps o, so o cannot answer for the hook's name.
  else if (t.isWithStatement(node)) node.object = h(state, HOOKS.withObject, [num(sid), node.object]);
  else out.after.push(mark());
  if (t.isLoop(node)) addLoopBranch(node, out, state);
  if (t.isLabeledStatement(node)) {
    // The labelled statement (a loop, mostly) is not in a list: its own counters go around the label.
    const inner = placeCounter(path.get('body') as NodePath<t.Statement>, state);
    out.hoist.push(...inner.hoist);
    out.before.push(...inner.before);
    out.after.unshift(...inner.after);
  }
  return out;
}

/** Loops and labelled statements count when control leaves them, not when they start. */
function countsOnLeaving(node: t.Node): boolean {
  return t.isLoop(node) || t.isLabeledStatement(node);
}

/** A statement's id; `nested` when a measured statement around it starts on the same line. */
function statementId(path: NodePath, state: VisitorState): number {
  const line = path.node.loc?.start.line;
  const outer = path.findParent((p) => p.isStatement() && !p.isBlockStatement() && p.node.loc != null);
  return state.model.newStatement(path.node, outer !== null && outer.node.loc?.start.line === line);
}

/**
 * The loops and labelled statements a `return`, `break` or `continue` leaves: every one between
 * the jump and its target, within the same function. They count as covered when the jump runs.
 */
function jumpedOut(path: NodePath<t.ReturnStatement | t.BreakStatement | t.ContinueStatement>, state: VisitorState): number[] {
  const node = path.node;
  const label = t.isReturnStatement(node) ? undefined : node.label?.name;
  const left: number[] = [];
  for (let p: NodePath | null = path.parentPath; p && !p.isFunction() && !p.isProgram() && !p.isStaticBlock() && !p.isClassBody(); p = p.parentPath) {
    const n = p.node;
    if (t.isBreakStatement(node)) {
      if (label !== undefined ? t.isLabeledStatement(n) && n.label.name === label : t.isLoop(n) || t.isSwitchStatement(n)) break;
    } else if (t.isContinueStatement(node)) {
      if (t.isLoop(n) && (label === undefined || (t.isLabeledStatement(p.parent) && p.parent.label.name === label))) break;
    }
    if (countsOnLeaving(n) && n.loc) left.push(statementId(p, state));
  }
  return left;
}

/**
 * A loop's two outcomes, its body entered or the loop left without one iteration; and its test,
 * which the runtime ends after a few iterations that only recording proxies kept going.
 */
function addLoopBranch(node: t.Loop, out: Placement, state: VisitorState): void {
  const bid = state.model.newBranch(node, 'loop', 2);
  (node.body as t.BlockStatement).body.unshift(stmt(h(state, HOOKS.loopBody, [num(bid)])));
  out.before.push(stmt(h(state, HOOKS.loopEnter, [num(bid)])));
  out.after.unshift(stmt(h(state, HOOKS.loopExit, [num(bid)])));
  if (t.isWhileStatement(node) || t.isDoWhileStatement(node)) node.test = h(state, HOOKS.loopTest, [num(bid), node.test]);
  else if (t.isForStatement(node)) node.test = h(state, HOOKS.loopTest, [num(bid), node.test ?? t.booleanLiteral(true)]);
}

function instrumentList(paths: NodePath<t.Statement>[], state: VisitorState): t.Statement[] {
  const hoist: t.Statement[] = [];
  const body: t.Statement[] = [];
  for (const p of paths) {
    const placed = placeCounter(p, state);
    hoist.push(...placed.hoist);
    body.push(...placed.before, p.node, ...placed.after);
  }
  return [...hoist, ...body];
}

/** The name istanbul gives a function: its own, else what it is bound to (a variable, a member, a property, a method's key). */
function functionName(path: NodePath<t.Function>): string | undefined {
  const node = path.node;
  if ((t.isFunctionDeclaration(node) || t.isFunctionExpression(node)) && node.id) return node.id.name;
  if ((t.isObjectMethod(node) || t.isClassMethod(node)) && t.isIdentifier(node.key) && !node.computed) return node.key.name;
  if (t.isClassPrivateMethod(node)) return `#${node.key.id.name}`;
  const parent = path.parent;
  if (t.isVariableDeclarator(parent) && t.isIdentifier(parent.id)) return parent.id.name;
  if (t.isAssignmentExpression(parent) && parent.right === node) {
    if (t.isIdentifier(parent.left)) return parent.left.name;
    if (t.isMemberExpression(parent.left) && t.isIdentifier(parent.left.property) && !parent.left.computed) return parent.left.property.name;
  }
  if ((t.isObjectProperty(parent) || t.isClassProperty(parent)) && t.isIdentifier(parent.key) && !parent.computed) return parent.key.name;
  return undefined;
}

/** Counts each call of a function of the snippet's own code (one with a source location): at its body's start. */
function countCalls(path: NodePath<t.Function>, state: VisitorState): void {
  const node = path.node;
  if (!node.loc) return;
  const counter = num(0);
  if (!state.model.newFunction(node, functionName(path), counter)) return;
  const count = h(state, HOOKS.statement, [counter]);
  if (t.isBlockStatement(node.body)) node.body.body.unshift(stmt(count));
  else node.body = t.sequenceExpression([count, node.body]);
}

/** The coverage half of the visitor table: statement counters per statement list, branches, and function calls. */
export const coverageVisitor: Visitor<VisitorState> = {
  Function: { exit(path, state) { countCalls(path, state); } },
  BlockStatement: { exit(path, state) { path.node.body = instrumentList(path.get('body'), state); } },
  StaticBlock: { exit(path, state) { path.node.body = instrumentList(path.get('body'), state); } },
  Program: { exit(path, state) { path.node.body = instrumentList(path.get('body'), state); } },
  SwitchCase: { exit(path, state) { path.node.consequent = instrumentList(path.get('consequent'), state); } },
  IfStatement: {
    exit(path, state) {
      if (!path.node.loc || state.done.has(path.node.consequent)) return;
      const bid = state.model.newBranch(path.node, 'if', 2);
      const cons = path.node.consequent as t.BlockStatement;
      state.done.add(cons);
      cons.body.unshift(stmt(h(state, HOOKS.branch, [num(bid), num(0)])));
      const alt = path.node.alternate;
      const counter = stmt(h(state, HOOKS.branch, [num(bid), num(1)]));
      if (!alt) path.node.alternate = t.blockStatement([counter]);
      else if (t.isBlockStatement(alt)) alt.body.unshift(counter);
      else path.node.alternate = t.blockStatement([counter, alt]);
    },
  },
  SwitchStatement: {
    exit(path, state) {
      if (!path.node.loc || state.done.has(path.node.discriminant)) return;
      const bid = state.model.newBranch(path.node, 'switch', path.node.cases.length);
      path.node.cases.forEach((c, i) => c.consequent.unshift(stmt(h(state, HOOKS.branch, [num(bid), num(i)]))));
    },
  },
  ConditionalExpression: {
    exit(path, state) {
      if (!path.node.loc || state.done.has(path.node)) return;
      state.done.add(path.node);
      const bid = state.model.newBranch(path.node, 'cond-expr', 2);
      path.node.consequent = t.sequenceExpression([h(state, HOOKS.branch, [num(bid), num(0)]), path.node.consequent]);
      path.node.alternate = t.sequenceExpression([h(state, HOOKS.branch, [num(bid), num(1)]), path.node.alternate]);
    },
  },
  LogicalExpression: {
    exit(path, state) {
      if (!path.node.loc || state.done.has(path.node)) return;
      state.done.add(path.node);
      const bid = state.model.newBranch(path.node, 'logical', 2);
      path.node.left = h(state, HOOKS.logical, [num(bid), path.node.left, t.stringLiteral(path.node.operator)]);
      path.node.right = t.sequenceExpression([h(state, HOOKS.branch, [num(bid), num(1)]), path.node.right]);
    },
  },
};
