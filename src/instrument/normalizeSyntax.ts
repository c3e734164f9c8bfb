import type { Visitor } from '@babel/traverse';
import * as t from '@babel/types';
import { traverse } from '../parse/stripTypes.ts';

/**
 * Rewrites module syntax into what runs inside one function: imports become `require` calls
 * (hoisted, as imports are), exports lose their keyword. Single statements in loop and `if`
 * bodies get blocks so every statement can carry a coverage counter. `tick` is called on every
 * node: the snippet's deadline, read every so often.
 */
export function normalizeSyntax(ast: t.File, tick?: () => void): void {
  // The blocks are made in a fast walk (no paths, no scopes); module syntax and decorators, which
  // need Babel's paths to be replaced and removed as Babel does it, take a traversal after it.
  if (!blocksAndModuleSyntax(ast, tick)) return;
  if (tick) traverse(ast, NORMALIZE_TICKED, undefined, { tick });
  else traverse(ast, NORMALIZE);
}

/**
 * Gives single statements in loop, `if` and `with` bodies their block (ensureBlock, as REWRITES
 * does it: the walk then goes into the new block); true when the tree has module syntax or a
 * decorator, left for the traversal.
 */
function blocksAndModuleSyntax(ast: t.File, tick?: () => void): boolean {
  let found = false;
  t.traverseFast(ast, (node) => {
    tick?.();
    if (t.isIfStatement(node)) {
      ensureBlock(node, 'consequent');
      if (node.alternate) ensureBlock(node, 'alternate');
    } else if (t.isLoop(node) || t.isWithStatement(node)) ensureBlock(node, 'body');
    else if (t.isImportDeclaration(node) || t.isExportDeclaration(node) || t.isDecorator(node)) found = true;
  });
  return found;
}

/** The rewrites, keyed by node type; made (and exploded by Babel, which expands the Loop alias) once, not per snippet. */
const REWRITES: Visitor = {
    ImportDeclaration(path) {
      // Kept in place rather than hoisted: a snippet's definitions (and --emit's prelude) come first.
      path.replaceWithMultiple(importToRequire(path.node));
    },
    ExportNamedDeclaration(path) {
      const decl = path.node.declaration;
      if (decl) path.replaceWith(decl);
      else if (path.node.exportKind === 'type') path.remove();
      else path.replaceWith(doesNothing(path.node));
    },
    ExportDefaultDeclaration(path) {
      const decl = path.node.declaration;
      if (t.isFunctionDeclaration(decl) || t.isClassDeclaration(decl)) {
        if (decl.id) return void path.replaceWith(decl);
        const expr = t.isFunctionDeclaration(decl) ? t.functionExpression(null, decl.params, decl.body, decl.generator, decl.async) : t.classExpression(null, decl.superClass, decl.body, decl.decorators);
        expr.loc = decl.loc;
        const stmt = t.expressionStatement(expr);
        stmt.loc = path.node.loc;
        return void path.replaceWith(stmt);
      }
      if (t.isTSDeclareFunction(decl)) return void path.remove();
      const stmt = t.expressionStatement(decl as t.Expression);
      stmt.loc = path.node.loc;
      path.replaceWith(stmt);
    },
    Decorator(path) {
      path.remove(); // V8 has no decorators; the decorated class still runs, undecorated
    },
    ExportAllDeclaration(path) {
      if (path.node.exportKind === 'type') path.remove();
      else path.replaceWith(doesNothing(path.node));
    },
    IfStatement(path) {
      ensureBlock(path.node, 'consequent');
      if (path.node.alternate) ensureBlock(path.node, 'alternate');
    },
    Loop(path) {
      ensureBlock(path.node, 'body');
    },
    WithStatement(path) {
      ensureBlock(path.node, 'body');
    },
};
const NORMALIZE: Visitor = traverse.visitors.merge([REWRITES]);
/** The deadline's check on every node first, then the rewrites (as the check's `enter` ran before the type's handlers). */
const NORMALIZE_TICKED = traverse.visitors.merge<{ readonly tick: () => void }>([{ enter: (_path, state) => state.tick() }, REWRITES as Visitor<{ readonly tick: () => void }>]);

/**
 * `export { a }` and `export * from 'm'` run nothing inside one function, but they are statements
 * of the snippet: they stay, measured on their line, as a statement that does nothing.
 */
function doesNothing(node: t.Node): t.ExpressionStatement {
  const stmt = t.expressionStatement(t.unaryExpression('void', t.numericLiteral(0)));
  stmt.loc = node.loc;
  return stmt;
}

function ensureBlock(at: t.Node, key: 'consequent' | 'alternate' | 'body'): void {
  const node = at as unknown as Record<string, t.Statement | null>;
  const stmt = node[key];
  if (stmt && !t.isBlockStatement(stmt)) node[key] = t.blockStatement([stmt]);
}

function importToRequire(node: t.ImportDeclaration): t.Statement[] {
  const req = t.callExpression(t.identifier('require'), [t.stringLiteral(node.source.value)]);
  req.loc = node.loc;
  (req.callee as t.Identifier).loc = node.loc;
  const withLoc = <T extends t.Node>(n: T): T => {
    n.loc = node.loc;
    return n;
  };
  if (node.specifiers.length === 0) return [withLoc(t.expressionStatement(req))];
  const out: t.Statement[] = [];
  const named: t.ObjectProperty[] = [];
  for (const s of node.specifiers) {
    if (t.isImportDefaultSpecifier(s) || t.isImportNamespaceSpecifier(s)) out.push(withLoc(t.variableDeclaration('const', [t.variableDeclarator(s.local, t.cloneNode(req, true, false))])));
    else {
      const imported = t.isIdentifier(s.imported) ? s.imported.name : s.imported.value;
      named.push(t.objectProperty(t.identifier(imported), s.local, false, imported === s.local.name));
    }
  }
  if (named.length > 0) out.push(withLoc(t.variableDeclaration('const', [t.variableDeclarator(t.objectPattern(named), t.cloneNode(req, true, false))])));
  return out;
}
