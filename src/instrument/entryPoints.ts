import * as t from '@babel/types';
import { HOOKS, type HookName } from '../protocol/hooks.ts';

/** A function the snippet declares at its top level, which `callUncalled` calls when nothing else did. */
export interface EntryPoint {
  readonly name: string;
  readonly params: number;
  readonly line: number;
}

/**
 * Finds the top-level functions (`function f() {}`, `const f = (…) => {…}`, `const f = (…) => expr`), marks the start of
 * each body with `hook.fe(k)` so the runtime knows it ran, and registers each function with
 * `hook.fr(k, f)`: declarations at the top (they are hoisted), bindings right after their
 * statement. Injected nodes have no location, so they are neither measured nor hooked.
 * Generators are left out: calling one runs none of its body. With `functionScopedOnly` (a
 * snippet that returns at its top level, whose --emit calls them from a `finally`), `let` and
 * `const` bindings are left out too, since a `finally` block cannot see them.
 */
export function markEntryPoints(program: t.Program, hook: string, functionScopedOnly = false): EntryPoint[] {
  const entries: EntryPoint[] = [];
  const call = (method: HookName, args: t.Expression[]) => t.expressionStatement(t.callExpression(t.memberExpression(t.identifier(hook), t.identifier(method)), args));
  const hoisted: t.Statement[] = [];
  const body: t.Statement[] = [];
  const add = (name: string, fn: t.Function): number => {
    const k = entries.length;
    entries.push({ name, params: fn.params.length, line: fn.loc?.start.line ?? 0 });
    // `(…) => expr` gets a block, `{ return expr; }`: the return has no location (it is neither
    // measured nor hooked), and expr stays where it was, so no measured line moves.
    if (t.isArrowFunctionExpression(fn) && !t.isBlockStatement(fn.body)) fn.body = t.blockStatement([t.returnStatement(fn.body)]);
    if (t.isBlockStatement(fn.body)) fn.body.body.unshift(call(HOOKS.entryEnter, [t.numericLiteral(k)]));
    return k;
  };
  for (const stmt of program.body) {
    const decl = t.isExportNamedDeclaration(stmt) || t.isExportDefaultDeclaration(stmt) ? stmt.declaration : stmt;
    body.push(stmt);
    if (t.isFunctionDeclaration(decl) && decl.id && !decl.generator && t.isBlockStatement(decl.body)) {
      hoisted.push(call(HOOKS.entryRegister, [t.numericLiteral(add(decl.id.name, decl)), t.identifier(decl.id.name)]));
    } else if (t.isVariableDeclaration(decl) && (!functionScopedOnly || decl.kind === 'var')) {
      for (const d of decl.declarations) {
        const init = d.init;
        if (!t.isIdentifier(d.id) || !(t.isFunctionExpression(init) || t.isArrowFunctionExpression(init)) || init.generator) continue;
        body.push(call(HOOKS.entryRegister, [t.numericLiteral(add(d.id.name, init)), t.identifier(d.id.name)]));
      }
    }
  }
  program.body = [...hoisted, ...body];
  return entries;
}
