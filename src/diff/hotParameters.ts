import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import { EXTRA_ARGUMENTS, readsArguments } from '../instrument/driveTargets.ts';

/** Rounds of passing a parameter on to another function's: `stringify(value)` → `canonicalType(value)` → a changed line. */
const FLOW_ROUNDS = 3;

/**
 * Per function of the file (by its first line), the positions of the parameters the change
 * touches: read on a changed line of the function (or of an arrow inside it), or passed as they are
 * to a parameter of a function of the file that is (up to FLOW_ROUNDS calls away). diff tries their
 * edge values first: `prefix` is read first above the changed line, where a learnt value is made,
 * but it is the changed line's `prefix.replace` that a non-string breaks.
 */
export function hotParameters(parsed: ParsedSnippet, changed: ReadonlySet<number>): Map<number, Set<number>> {
  const functions: { path: NodePath<t.Function>; hot: Set<number>; name: string | undefined }[] = [];
  traverse(parsed.ast, {
    Function(path: NodePath<t.Function>) {
      if (!path.node.loc) return;
      const hot = new Set<number>();
      path.node.params.forEach((p, i) => {
        const id = t.isAssignmentPattern(p) ? p.left : p;
        if (!t.isIdentifier(id)) return;
        const binding = path.scope.getOwnBinding(id.name);
        if (binding?.referencePaths.some((r) => r.node.loc !== undefined && r.node.loc !== null && changed.has(r.node.loc.start.line))) hot.add(i);
      });
      // The arguments past the declared ones (drive passes EXTRA_ARGUMENTS of them), where the change reads `arguments` or a list made of it.
      if (readsArguments(path.node) && argumentsTouched(path, changed)) for (let k = 0; k < EXTRA_ARGUMENTS; k++) hot.add(path.node.params.length + k);
      functions.push({ path, hot, name: nameOf(path) });
    },
  });
  const byName = new Map<string, (typeof functions)[number]>();
  for (const f of functions) if (f.name !== undefined && !byName.has(f.name)) byName.set(f.name, f);
  for (let round = 0; round < FLOW_ROUNDS; round++) {
    let grew = false;
    for (const f of functions) {
      f.path.traverse({
        CallExpression(call: NodePath<t.CallExpression>) {
          const callee = call.node.callee;
          const name = t.isIdentifier(callee) ? callee.name : t.isMemberExpression(callee) && !callee.computed && t.isIdentifier(callee.property) ? callee.property.name : undefined;
          const target = name === undefined ? undefined : byName.get(name);
          if (!target || target === f) return;
          call.node.arguments.forEach((a, j) => {
            if (!t.isIdentifier(a) || !target.hot.has(j)) return;
            const i = f.path.node.params.findIndex((p) => t.isIdentifier(p, { name: a.name }) || (t.isAssignmentPattern(p) && t.isIdentifier(p.left, { name: a.name })));
            if (i >= 0 && call.scope.getBinding(a.name)?.scope === f.path.scope && !f.hot.has(i)) {
              f.hot.add(i);
              grew = true;
            }
          });
        },
      });
    }
    if (!grew) break;
  }
  const out = new Map<number, Set<number>>();
  for (const f of functions) if (f.hot.size > 0) out.set(f.path.node.loc!.start.line, new Set([...(out.get(f.path.node.loc!.start.line) ?? []), ...f.hot]));
  return out;
}

/**
 * The function reads `arguments` on a changed line, or a variable made of it there
 * (`const args = [].slice.call(arguments, 2)` above `args[i - 1].toString()`).
 */
function argumentsTouched(fn: NodePath<t.Function>, changed: ReadonlySet<number>): boolean {
  const onChange = (node: t.Node) => node.loc !== undefined && node.loc !== null && changed.has(node.loc.start.line);
  let touched = false;
  fn.traverse({
    Identifier(p: NodePath<t.Identifier>) {
      if (touched || p.node.name !== 'arguments' || !p.isReferencedIdentifier()) return;
      let owner = p.getFunctionParent();
      while (owner?.isArrowFunctionExpression()) owner = owner.parentPath.getFunctionParent();
      if (owner !== fn) return;
      if (onChange(p.node)) touched = true;
      const declarator = p.findParent((q) => q.isVariableDeclarator() || q === fn);
      if (declarator?.isVariableDeclarator() && t.isIdentifier(declarator.node.id)) {
        const binding = declarator.scope.getBinding(declarator.node.id.name);
        if (binding?.referencePaths.some((r) => onChange(r.node))) touched = true;
      }
    },
  });
  return touched;
}

/** `function f`, `var f = function`, `exports.f = function`, `{ f() {} }`: the name it is called by. */
function nameOf(path: NodePath<t.Function>): string | undefined {
  const { node, parent } = path;
  if ((t.isFunctionDeclaration(node) || t.isFunctionExpression(node)) && node.id) return node.id.name;
  if (t.isVariableDeclarator(parent) && t.isIdentifier(parent.id)) return parent.id.name;
  if (t.isAssignmentExpression(parent) && t.isMemberExpression(parent.left) && !parent.left.computed && t.isIdentifier(parent.left.property)) return parent.left.property.name;
  if ((t.isObjectMethod(node) || t.isClassMethod(node)) && t.isIdentifier(node.key)) return node.key.name;
  if (t.isObjectProperty(parent) && t.isIdentifier(parent.key)) return parent.key.name;
  return undefined;
}
