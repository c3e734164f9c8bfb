import type * as t from '@babel/types';

/**
 * A node and where it sits: enough for the recorder's visitor, without @babel/traverse (whose
 * loading would cost every recorded run and every generated test file a fifth of a second).
 */
export interface AstPath {
  readonly node: t.Node;
  readonly parent: AstPath | null;
  /** The property of the parent holding the node (`body`, `params`, …). */
  readonly key: string;
  readonly depth: number;
}

/** Keys that hold no child nodes. */
const NOT_CHILDREN = new Set(['type', 'start', 'end', 'loc', 'range', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'comments', 'tokens', 'errors']);

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);
const CLASS_TYPES = new Set(['ClassDeclaration', 'ClassExpression']);

export function isFunctionNode(node: t.Node | null | undefined): node is t.Function {
  return node != null && FUNCTION_TYPES.has(node.type);
}

export function isClassNode(node: t.Node | null | undefined): node is t.Class {
  return node != null && CLASS_TYPES.has(node.type);
}

function isNode(value: unknown): value is t.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Visits every node below `root` (and `root`), parents before children, in source order. */
export function walkAst(root: t.Node, enter: (path: AstPath) => void): void {
  const visit = (node: t.Node, parent: AstPath | null, key: string): void => {
    const path: AstPath = { node, parent, key, depth: parent ? parent.depth + 1 : 0 };
    enter(path);
    for (const k of Object.keys(node)) {
      if (NOT_CHILDREN.has(k)) continue;
      const value = (node as unknown as Record<string, unknown>)[k];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item, path, k);
      } else if (isNode(value)) {
        visit(value, path, k);
      }
    }
  };
  visit(root, null, '');
}

/** The nearest function around a path (not the path's own node), or null at the top level. */
export function functionParent(path: AstPath): AstPath | null {
  for (let p = path.parent; p; p = p.parent) if (isFunctionNode(p.node)) return p;
  return null;
}
