import type { NodePath, Visitor } from '@babel/traverse';
import * as t from '@babel/types';
import type { VisitorState } from './visitor.ts';

function h(state: VisitorState, method: string, args: t.Expression[]): t.CallExpression {
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
 * Places the completion counter of one statement: after it for simple statements, on the head
 * for compound ones (covered once the head ran), at scope entry for hoisted function declarations.
 */
function placeCounter(path: NodePath<t.Statement>, state: VisitorState): Placement {
  const node = path.node;
  const out: Placement = { hoist: [], before: [], after: [] };
  if (!node.loc || t.isBlockStatement(node) || t.isEmptyStatement(node) || state.done.has(node)) return out;
  state.done.add(node);
  const sid = state.model.newStatement(node);
  const mark = () => stmt(h(state, 'c', [num(sid)]));
  const test = (e: t.Expression) => h(state, 't', [num(sid), e]);
  if (t.isFunctionDeclaration(node)) out.hoist.push(mark());
  else if (t.isReturnStatement(node) || t.isThrowStatement(node)) {
    if (node.argument) node.argument = h(state, 'r', [num(sid), node.argument]);
    else out.before.push(mark());
  } else if (t.isBreakStatement(node) || t.isContinueStatement(node) || t.isLabeledStatement(node) || t.isTryStatement(node) || t.isDebuggerStatement(node)) {
    out.before.push(mark());
  } else if (t.isIfStatement(node) || t.isWhileStatement(node)) node.test = test(node.test);
  else if (t.isSwitchStatement(node)) node.discriminant = test(node.discriminant);
  else if (t.isForStatement(node)) node.test = test(node.test ?? t.booleanLiteral(true));
  else if (t.isForInStatement(node) || t.isForOfStatement(node)) node.right = test(node.right);
  else if (t.isDoWhileStatement(node)) (node.body as t.BlockStatement).body.unshift(mark());
  else if (t.isWithStatement(node)) node.object = test(node.object);
  else out.after.push(mark());
  if (t.isLoop(node)) addLoopBranch(node, out, state);
  return out;
}

/** A loop's two outcomes: its body entered, or the loop left without one iteration. */
function addLoopBranch(node: t.Loop, out: Placement, state: VisitorState): void {
  const bid = state.model.newBranch(node, 'loop', 2);
  (node.body as t.BlockStatement).body.unshift(stmt(h(state, 'l1', [num(bid)])));
  out.before.push(stmt(h(state, 'l0', [num(bid)])));
  out.after.unshift(stmt(h(state, 'l2', [num(bid)])));
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

/** The coverage half of the visitor table: statement counters per statement list, and branches. */
export const coverageVisitor: Visitor<VisitorState> = {
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
      cons.body.unshift(stmt(h(state, 'b', [num(bid), num(0)])));
      const alt = path.node.alternate;
      const counter = stmt(h(state, 'b', [num(bid), num(1)]));
      if (!alt) path.node.alternate = t.blockStatement([counter]);
      else if (t.isBlockStatement(alt)) alt.body.unshift(counter);
      else path.node.alternate = t.blockStatement([counter, alt]);
    },
  },
  SwitchStatement: {
    exit(path, state) {
      if (!path.node.loc || state.done.has(path.node.discriminant)) return;
      const bid = state.model.newBranch(path.node, 'switch', path.node.cases.length);
      path.node.cases.forEach((c, i) => c.consequent.unshift(stmt(h(state, 'b', [num(bid), num(i)]))));
    },
  },
  ConditionalExpression: {
    exit(path, state) {
      if (!path.node.loc || state.done.has(path.node)) return;
      state.done.add(path.node);
      const bid = state.model.newBranch(path.node, 'cond-expr', 2);
      path.node.consequent = t.sequenceExpression([h(state, 'b', [num(bid), num(0)]), path.node.consequent]);
      path.node.alternate = t.sequenceExpression([h(state, 'b', [num(bid), num(1)]), path.node.alternate]);
    },
  },
  LogicalExpression: {
    exit(path, state) {
      if (!path.node.loc || state.done.has(path.node)) return;
      state.done.add(path.node);
      const bid = state.model.newBranch(path.node, 'logical', 2);
      path.node.left = h(state, 'lg', [num(bid), path.node.left, t.stringLiteral(path.node.operator)]);
      path.node.right = t.sequenceExpression([h(state, 'b', [num(bid), num(1)]), path.node.right]);
    },
  },
};
