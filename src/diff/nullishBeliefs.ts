import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import { memberText } from './findFragments.ts';

/**
 * The access paths a file tests for absence somewhere (`options`, `options.decoder`, `this.app`):
 * what its authors believe may be `undefined` or `null`. A path counts when it is the left operand
 * of `&&`, `||` or `??`, the operand of `!`, the test of an `if` or `?:`, compared with
 * `null` or `undefined` (or its `typeof` with `'undefined'`), read with `?.`, or a parameter with
 * a default. The beliefs of the base version make an edge `undefined`/`null` a value callers send,
 * where the changed code uses it unguarded ("Bugs as Deviant Behavior", Engler et al., SOSP 2001:
 * a check elsewhere is the belief that the value can be absent).
 */
export function nullishBeliefs(parsed: ParsedSnippet): Set<string> {
  const out = new Set<string>();
  const note = (node: t.Node | null | undefined) => {
    const text = memberText(node);
    if (text !== undefined) out.add(text);
  };
  traverse(parsed.ast, {
    LogicalExpression(path: NodePath<t.LogicalExpression>) {
      note(path.node.left);
    },
    UnaryExpression(path: NodePath<t.UnaryExpression>) {
      if (path.node.operator === '!') note(path.node.argument);
    },
    IfStatement(path: NodePath<t.IfStatement>) {
      note(path.node.test);
    },
    ConditionalExpression(path: NodePath<t.ConditionalExpression>) {
      note(path.node.test);
    },
    BinaryExpression(path: NodePath<t.BinaryExpression>) {
      const { operator, left, right } = path.node;
      if (!['==', '!=', '===', '!=='].includes(operator)) return;
      for (const [a, b] of [[left, right], [right, left]] as const) {
        if (absent(b)) note(a);
        if (t.isUnaryExpression(a, { operator: 'typeof' }) && t.isStringLiteral(b, { value: 'undefined' })) note(a.argument);
      }
    },
    OptionalMemberExpression(path: NodePath<t.OptionalMemberExpression>) {
      if (path.node.optional) note(path.node.object);
    },
    OptionalCallExpression(path: NodePath<t.OptionalCallExpression>) {
      if (path.node.optional) note(path.node.callee);
    },
    AssignmentPattern(path: NodePath<t.AssignmentPattern>) {
      if (path.parentPath.isFunction()) note(path.node.left);
    },
  });
  return out;
}

/** `null`, `undefined` or `void 0`. */
function absent(node: t.Node): boolean {
  return t.isNullLiteral(node) || t.isIdentifier(node, { name: 'undefined' }) || t.isUnaryExpression(node, { operator: 'void' });
}
