import * as t from '@babel/types';
import { forEachChild } from './treeFacts.ts';

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
  /**
   * Plain values an `if` tests whose two ways run as much (`if (user.isAdmin) {…} else {…}`): no
   * preferred answer, but hooked all the same, so that exploration can ask for either.
   */
  readonly undecided: WeakSet<t.Node>;
}

const COMPARISONS = new Set(['===', '==', '!==', '!=', '<', '>', '<=', '>=', 'instanceof', 'in']);

/** `nodes`: every node of the tree, parents before their children (treeFacts). */
export function pathPreferences(nodes: readonly t.Node[]): PathPreferences {
  const comparisons = new WeakMap<t.Node, boolean>();
  const tests = new WeakMap<t.Node, boolean>();
  const undecided = new WeakSet<t.Node>();
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
  // Linear in the snippet: every node's statement count is computed once, bottom up, and what
  // follows an `if` in its block is a suffix sum over that block.
  const sizes = new Map<t.Node, number>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i] as t.Node;
    let n = t.isStatement(node) && !t.isBlockStatement(node) ? 1 : 0;
    forEachChild(node, (child) => { n += sizes.get(child) ?? 0; });
    sizes.set(node, n);
  }
  const size = (node: t.Node): number => sizes.get(node) ?? 0;
  const exits = exitTest();
  const decide = (node: t.IfStatement, rest: number): void => {
    // What runs after the `if` in its block (enclosing blocks left out: measured to do worse).
    const want = preferredOutcome(node.consequent, node.alternate, rest, size, exits);
    if (want !== undefined && node.test.loc) assign(node.test, want);
    else if (want === undefined && node.test.loc) {
      let test: t.Node = node.test;
      while (t.isParenthesizedExpression(test) || t.isUnaryExpression(test, { operator: '!' })) test = t.isParenthesizedExpression(test) ? test.expression : test.argument;
      if (t.isIdentifier(test) || t.isMemberExpression(test) || t.isCallExpression(test) || t.isOptionalMemberExpression(test) || t.isOptionalCallExpression(test)) undecided.add(test);
    }
  };
  for (const node of nodes) {
    for (const key of t.VISITOR_KEYS[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        let rest = 0;
        for (let k = value.length - 1; k >= 0; k--) {
          const item = value[k] as t.Node | null;
          if (!item) continue;
          if (t.isIfStatement(item)) decide(item, rest);
          rest += size(item);
        }
      } else if (t.isIfStatement(value as t.Node | null)) decide(value as t.IfStatement, 0);
    }
  }
  return { comparisons, tests, undecided };
}

/**
 * Enter the `if` (true), skip it (false), or no preference: the way that runs more statements,
 * counting what follows the `if` in its block for a branch that does not leave. A guard clause
 * (`if (!x) return;`) is skipped; a guard whose body outweighs the rest is entered.
 */
function preferredOutcome(
  consequent: t.Statement, alternate: t.Statement | null | undefined, rest: number, size: (node: t.Node) => number, exits: (s: t.Statement) => boolean,
): boolean | undefined {
  const taken = size(consequent) + (exits(consequent) ? 0 : rest);
  const other = alternate ? size(alternate) + (exits(alternate) ? 0 : rest) : rest;
  if (taken === other) return alternate ? undefined : false;
  return taken > other;
}

/** A statement after which control never goes on to the next one; memoised, so a chain of nested `if`s is walked once. */
function exitTest(): (s: t.Statement) => boolean {
  const memo = new Map<t.Node, boolean>();
  const exits = (s: t.Statement): boolean => {
    const known = memo.get(s);
    if (known !== undefined) return known;
    let result = false;
    if (t.isReturnStatement(s) || t.isThrowStatement(s) || t.isBreakStatement(s) || t.isContinueStatement(s)) result = true;
    else if (t.isBlockStatement(s)) {
      const last = s.body[s.body.length - 1];
      result = last !== undefined && exits(last);
    } else if (t.isIfStatement(s)) result = s.alternate != null && exits(s.consequent) && exits(s.alternate);
    memo.set(s, result);
    return result;
  };
  return exits;
}
