import type * as t from '@babel/types';
import { functionParent, isFunctionNode, walkAst, type AstPath } from './walkAst.ts';

/**
 * A module's state variables as the recorder captures them: the top-level `let` and `var`
 * bindings that some function assigns (json5's lexer keeps `pos`, `c`, `lexState` so), and, for
 * each function, those its body names, nested functions included. Read by name, without scopes
 * (the recorder does not load @babel/traverse): a shadowing parameter counts as a read too, so
 * this is a superset of what testgen's moduleState.ts finds with scopes, which decides what a
 * test sets. A call of a function that names any is recorded with their values as it started
 * (CallRecord `state`), and a test sets them again through reach() (test mode gives them setters).
 */
export interface StateVariables {
  /** Every state variable of the module, in source order. */
  readonly names: readonly string[];
  /** By function node, the state variables it (or a function nested in it) names. */
  readonly readBy: ReadonlyMap<t.Node, readonly string[]>;
}

export function stateVariables(program: t.Program): StateVariables {
  const declared = new Set<string>();
  const assigned = new Set<string>();
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'VariableDeclaration' && declaration.kind === 'let') for (const d of declaration.declarations) patternNames(d.id, declared);
  }
  const references: AstPath[] = [];
  walkAst(program, (path) => {
    const { node } = path;
    // A `var` anywhere outside functions is top-level too (`for (var i …)` at the top).
    if (node.type === 'VariableDeclaration' && node.kind === 'var' && functionParent(path) === null) for (const d of node.declarations) patternNames(d.id, declared);
    if (node.type === 'Identifier' && isReference(path)) references.push(path);
    if (functionParent(path) === null) return;
    if (node.type === 'AssignmentExpression') patternNames(node.left, assigned);
    else if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier') assigned.add(node.argument.name);
    else if ((node.type === 'ForOfStatement' || node.type === 'ForInStatement') && node.left.type !== 'VariableDeclaration') patternNames(node.left, assigned);
  });
  const names = [...declared].filter((name) => assigned.has(name));
  const state = new Set(names);
  const readBy = new Map<t.Node, Set<string>>();
  for (const ref of references) {
    const name = (ref.node as t.Identifier).name;
    if (!state.has(name)) continue;
    for (let fn = functionParent(ref); fn !== null; fn = functionParent(fn)) {
      const set = readBy.get(fn.node) ?? new Set<string>();
      set.add(name);
      readBy.set(fn.node, set);
    }
  }
  return { names, readBy: new Map([...readBy].map(([fn, set]) => [fn, names.filter((n) => set.has(n))])) };
}

/** The identifiers a declaration or assignment target binds (`a`, `[a, { b }]`, `{ c = 1, ...d }`); members bind none. */
function patternNames(node: t.Node | null | undefined, into: Set<string>): void {
  if (node === null || node === undefined) return;
  switch (node.type) {
    case 'Identifier': into.add(node.name); return;
    case 'ArrayPattern': for (const element of node.elements) patternNames(element, into); return;
    case 'ObjectPattern': for (const property of node.properties) patternNames(property.type === 'RestElement' ? property : property.value, into); return;
    case 'AssignmentPattern': patternNames(node.left, into); return;
    case 'RestElement': patternNames(node.argument, into); return;
    default: return;
  }
}

/** Whether an identifier may name a variable here: not a property name, key or label (a function's own name counts: harmless). */
function isReference(path: AstPath): boolean {
  const parent = path.parent?.node;
  if (parent === undefined) return false;
  if ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && path.key === 'property') return parent.computed;
  if ((parent.type === 'ObjectProperty' || parent.type === 'ObjectMethod' || parent.type === 'ClassMethod' || parent.type === 'ClassProperty') && path.key === 'key') return parent.computed;
  if (parent.type === 'LabeledStatement' || parent.type === 'BreakStatement' || parent.type === 'ContinueStatement') return false;
  return !isFunctionNode(parent) || path.key !== 'id';
}
