import * as t from '@babel/types';

// The whole-tree questions the instrumenter asks, answered in one walk each: before the rewrites
// (what the snippet holds) and after them (what instrumentation needs). A walk with no paths and no
// scopes, iterative so depth costs no stack, several times faster than a Babel traversal.

/** What the snippet holds before the sandbox's rewrites. */
export interface SyntaxFacts {
  /** JSX elements or fragments. */
  readonly jsx: boolean;
  /** Syntax plain Node cannot run as a CommonJS script after the definitions: module syntax, JSX, decorators. */
  readonly rewrite: boolean;
}

export function syntaxFacts(ast: t.File): SyntaxFacts {
  let jsx = false;
  let rewrite = false;
  t.traverseFast(ast, (node) => {
    if (t.isJSX(node)) {
      jsx ||= t.isJSXElement(node) || t.isJSXFragment(node);
      rewrite = true;
    } else if (t.isImportDeclaration(node) || t.isExportDeclaration(node) || t.isDecorator(node)) rewrite = true;
    return jsx && rewrite ? t.traverseFast.stop : undefined;
  });
  return { jsx, rewrite };
}

/** Syntax plain Node cannot run as a CommonJS script after the definitions: module syntax, JSX, decorators. */
export function needsRewrite(ast: t.File): boolean {
  return syntaxFacts(ast).rewrite;
}

/** What instrumentation reads off the rewritten tree before it instruments it. */
export interface TreeFacts {
  /** Every node of the tree, parents before their children (pathPreferences' order). */
  readonly nodes: readonly t.Node[];
  /** The snippet returns at its top level (outside every function and class). */
  readonly topLevelReturn: boolean;
  /** The snippet awaits at its top level (`await`, `for await`). */
  readonly topLevelAwait: boolean;
  /** `{ function f() {} } f();`: names of functions declared inside blocks, which sloppy code sees outside them. */
  readonly blockFunctions: Set<string>;
}

export function treeFacts(root: t.Node): TreeFacts {
  const nodes: t.Node[] = [];
  const blockFunctions = new Set<string>();
  const functionBodies = new Set<t.Node>();
  const addDeclared = (statements: readonly t.Statement[]) => {
    for (const s of statements) if (t.isFunctionDeclaration(s) && s.id) blockFunctions.add(s.id.name);
  };
  let topLevelReturn = false;
  let topLevelAwait = false;
  // Each entry: a node, and whether it stands outside every function and class.
  const stack: { node: t.Node; top: boolean }[] = [{ node: root, top: true }];
  const children: t.Node[] = [];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { node } = entry;
    nodes.push(node);
    // A function is met before its body, so its body is known when the body's turn comes.
    if (t.isFunction(node)) functionBodies.add(node.body);
    else if (t.isBlockStatement(node) && !functionBodies.has(node)) addDeclared(node.body);
    else if (t.isSwitchCase(node)) addDeclared(node.consequent);
    const top = entry.top && !t.isFunction(node) && !t.isClass(node);
    if (top) {
      if (t.isReturnStatement(node)) topLevelReturn = true;
      else if (t.isAwaitExpression(node) || (t.isForOfStatement(node) && node.await)) topLevelAwait = true;
    }
    children.length = 0;
    forEachChild(node, (child) => { children.push(child); });
    for (let k = children.length - 1; k >= 0; k--) stack.push({ node: children[k] as t.Node, top });
  }
  return { nodes, topLevelReturn, topLevelAwait, blockFunctions };
}

/** Calls `visit` on each child node, in Babel's visiting order. */
export function forEachChild(node: t.Node, visit: (child: t.Node) => void): void {
  for (const key of t.VISITOR_KEYS[node.type] ?? []) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof (item as t.Node).type === 'string') visit(item as t.Node);
    } else if (value && typeof (value as t.Node).type === 'string') visit(value as t.Node);
  }
}
