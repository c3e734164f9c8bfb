import * as t from '@babel/types';
import { UnreadableInput } from '../core/errors.ts';

/**
 * The structural limits of a snippet, past which it is refused before instrumentation. Host work
 * grows with the syntax tree, not with bytes: `x;` is 3 bytes and costs the instrumenter about
 * 3 KB and 0.1 ms as a statement, an array element of 2 bytes about 0.6 KB. Within these limits
 * (and the byte limit) the host stays within its stated memory bound (docs/internals/security.md).
 */
export const SNIPPET_LIMITS = {
  /** Statements (declarations included; blocks and empty ones not): each gets a counter, a hook call and a source position. */
  statements: 20_000,
  /** Syntax nodes of every kind. */
  nodes: 150_000,
} as const;

export interface SnippetLimits {
  readonly statements: number;
  readonly nodes: number;
}

/**
 * Throws UnreadableInput naming the limit when the tree holds more statements or nodes than
 * SNIPPET_LIMITS allow. One pass over the tree, which stops at the first limit reached.
 */
export function checkSnippetSize(ast: t.File, limits: SnippetLimits = SNIPPET_LIMITS): void {
  let statements = 0;
  let nodes = 0;
  let over: string | undefined;
  t.traverseFast(ast.program, (node) => {
    nodes++;
    if (t.isStatement(node) && !t.isBlockStatement(node) && !t.isEmptyStatement(node)) statements++;
    if (statements > limits.statements) over = `input has more than ${limits.statements} statements, the limit`;
    else if (nodes > limits.nodes) over = `input has more than ${limits.nodes} syntax nodes, the limit`;
    return over === undefined ? undefined : t.traverseFast.stop;
  });
  if (over !== undefined) throw new UnreadableInput(over);
}
