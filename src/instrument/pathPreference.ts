import * as t from '@babel/types';
import { traverse } from '../parse/stripTypes.ts';

/**
 * Which way each decision on a missing value should go, read off the code: the outcome that runs
 * more of it. A guard clause (`if (!x) return;`, `if (typeof v === 'function') return v;`) is best
 * not taken, since its body leaves and the rest is the code; a plain `if` without `else` is best
 * entered. A recording proxy answers these decisions so; concrete values do as they are.
 */
export interface PathPreferences {
  /** Comparisons (`===`, `<`, `instanceof`, `in`…) and the result they should give. */
  readonly comparisons: WeakMap<t.Node, boolean>;
  /** Plain values tested for truthiness (`if (done) return;`) and the truthiness they should have. */
  readonly tests: WeakMap<t.Node, boolean>;
}

const COMPARISONS = new Set(['===', '==', '!==', '!=', '<', '>', '<=', '>=', 'instanceof', 'in']);

export function pathPreferences(ast: t.File): PathPreferences {
  const comparisons = new WeakMap<t.Node, boolean>();
  const tests = new WeakMap<t.Node, boolean>();
  const assign = (node: t.Node, want: boolean): void => {
    if (t.isParenthesizedExpression(node)) return assign(node.expression, want);
    if (t.isUnaryExpression(node, { operator: '!' })) return assign(node.argument, !want);
    if (t.isLogicalExpression(node) && node.operator === '||') {
      assign(node.left, want);
      if (!want) assign(node.right, false);
      return;
    }
    if (t.isLogicalExpression(node) && node.operator === '&&') {
      if (want) assign(node.left, true);
      assign(node.right, want);
      return;
    }
    if (t.isBinaryExpression(node) && COMPARISONS.has(node.operator)) {
      comparisons.set(node, want);
      return;
    }
    if (t.isIdentifier(node) || t.isMemberExpression(node) || t.isCallExpression(node) || t.isOptionalMemberExpression(node) || t.isOptionalCallExpression(node)) {
      tests.set(node, want);
    }
  };
  traverse(ast, {
    IfStatement(path) {
      const { test, consequent, alternate } = path.node;
      const want = preferredOutcome(consequent, alternate);
      if (want !== undefined && test.loc) assign(test, want);
    },
  });
  return { comparisons, tests };
}

/** Enter the `if` (true), skip it (false), or no preference. */
function preferredOutcome(consequent: t.Statement, alternate: t.Statement | null | undefined): boolean | undefined {
  const leaves = exits(consequent);
  if (!alternate) return !leaves;
  const altLeaves = exits(alternate);
  if (leaves && !altLeaves) return false;
  if (altLeaves && !leaves) return true;
  // Both go on (or both leave): the branch with more statements runs more of the code.
  const a = size(consequent);
  const b = size(alternate);
  return a === b ? undefined : a > b;
}

/** Statements in a branch, nested ones included. */
function size(s: t.Node): number {
  let n = 0;
  t.traverseFast(s, (node) => { if (t.isStatement(node) && !t.isBlockStatement(node)) n++; });
  return n;
}

/** A statement after which control never goes on to the next one. */
function exits(s: t.Statement): boolean {
  if (t.isReturnStatement(s) || t.isThrowStatement(s) || t.isBreakStatement(s) || t.isContinueStatement(s)) return true;
  if (t.isBlockStatement(s)) {
    const last = s.body[s.body.length - 1];
    return last !== undefined && exits(last);
  }
  if (t.isIfStatement(s)) return s.alternate != null && exits(s.consequent) && exits(s.alternate);
  return false;
}
