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
      // What runs after the `if` in its block (enclosing blocks left out: measured to do worse).
      const rest = path.getAllNextSiblings().reduce((n, p) => n + size(p.node), 0);
      const want = preferredOutcome(consequent, alternate, rest);
      if (want !== undefined && test.loc) assign(test, want);
    },
  });
  return { comparisons, tests };
}

/**
 * Enter the `if` (true), skip it (false), or no preference: the way that runs more statements,
 * counting what follows the `if` in its block for a branch that does not leave. A guard clause
 * (`if (!x) return;`) is skipped; a guard whose body outweighs the rest is entered.
 */
function preferredOutcome(consequent: t.Statement, alternate: t.Statement | null | undefined, rest: number): boolean | undefined {
  const taken = size(consequent) + (exits(consequent) ? 0 : rest);
  const other = alternate ? size(alternate) + (exits(alternate) ? 0 : rest) : rest;
  if (taken === other) return alternate ? undefined : false;
  return taken > other;
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
