import _traverse, { type NodePath, type Visitor } from '@babel/traverse';
import * as t from '@babel/types';

// CommonJS interop: Node hands over module.exports, whose `default` is the function.
const traverse = ((_traverse as unknown as { default?: unknown }).default ?? _traverse) as typeof _traverse.default;
export { traverse };

/**
 * The TypeScript with a run-time meaning, lowered the same way for the sandbox and for the emitted
 * program: enums become objects, `import x = require()` a `require` call, `export =` an
 * expression; namespaces and type-only imports and exports go.
 */
const RUNTIME_TS_SYNTAX: Visitor = {
  TSExportAssignment(path) { path.replaceWith(t.expressionStatement(path.node.expression)); },
  TSModuleDeclaration(path) { path.remove(); },
  TSImportEqualsDeclaration(path) {
    if (path.node.importKind === 'type') return void path.remove();
    const ref = path.node.moduleReference;
    const init = t.isTSExternalModuleReference(ref) ? t.callExpression(t.identifier('require'), [ref.expression]) : entityToExpression(ref);
    const decl = t.variableDeclaration('const', [t.variableDeclarator(path.node.id, init)]);
    decl.loc = path.node.loc;
    if (init.type === 'CallExpression') init.loc = path.node.loc;
    path.replaceWith(decl);
  },
  TSEnumDeclaration(path) {
    if (path.node.declare) return void path.remove();
    path.replaceWith(enumToVar(path.node));
  },
  ImportDeclaration(path) {
    if (path.node.importKind === 'type') return void path.remove();
    const kept = path.node.specifiers.filter((s) => !(t.isImportSpecifier(s) && s.importKind === 'type'));
    // `import { type A } from 'x'` imports nothing at run time (TypeScript elides it).
    if (kept.length === 0 && path.node.specifiers.length > 0) return void path.remove();
    path.node.specifiers = kept;
  },
  ExportNamedDeclaration(path) {
    if (path.node.exportKind === 'type') path.remove();
  },
};

/**
 * Erases TypeScript syntax in place, keeping every runtime node and its location, so a TS snippet
 * is measured on its own lines. Enums become objects; parameter properties become assignments.
 */
export function stripTypes(ast: t.File): void {
  traverse(ast, STRIP_TYPES);
}

const remove = (path: NodePath) => { path.remove(); };
const unwrap = (path: NodePath<t.TSAsExpression | t.TSSatisfiesExpression | t.TSNonNullExpression | t.TSTypeAssertion | t.TSInstantiationExpression>) => {
  path.replaceWith(path.node.expression);
};

/** stripTypes' visitor, made (and exploded by Babel) once. */
const STRIP_TYPES: Visitor = {
  TSTypeAnnotation: remove,
  TSTypeParameterDeclaration: remove,
  TSTypeParameterInstantiation: remove,
  TSInterfaceDeclaration: remove,
  TSTypeAliasDeclaration: remove,
  TSDeclareFunction: remove,
  TSDeclareMethod: remove,
  TSIndexSignature: remove,
  TSAsExpression: unwrap,
  TSSatisfiesExpression: unwrap,
  TSNonNullExpression: unwrap,
  TSTypeAssertion: unwrap,
  TSInstantiationExpression: unwrap,
  ...RUNTIME_TS_SYNTAX,
  VariableDeclaration(path) {
    if (path.node.declare) path.remove();
    else for (const d of path.node.declarations) d.definite = null;
  },
  ClassDeclaration(path) {
    if (path.node.declare) path.remove();
  },
  Class(path) {
    path.node.implements = null;
    (path.node as { abstract?: boolean | null }).abstract = null;
    for (const member of path.get('body').get('body')) {
      const node = member.node as t.ClassProperty & { declare?: boolean; abstract?: boolean };
      if ((t.isClassProperty(node) && (node.declare || node.abstract)) || t.isTSIndexSignature(node)) member.remove();
      else if (t.isClassProperty(node) || t.isClassMethod(node) || t.isClassPrivateProperty(node)) {
        const m = node as { accessibility?: unknown; optional?: unknown; definite?: unknown; readonly?: unknown; override?: unknown };
        m.accessibility = null;
        m.optional = null;
        m.definite = null;
        m.readonly = null;
        m.override = null;
      }
    }
  },
  Function(path) {
    const first = path.node.params[0];
    if (t.isIdentifier(first, { name: 'this' })) path.node.params.shift();
    for (const p of path.node.params) if (t.isIdentifier(p) || t.isObjectPattern(p) || t.isArrayPattern(p)) p.optional = null;
    if (t.isClassMethod(path.node) && path.node.kind === 'constructor') lowerParameterProperties(path.node);
  },
};

/**
 * Lowers the TypeScript that Node's type stripping cannot erase, and keeps every other type: enums
 * become objects, parameter properties assignments, `import x = require()` a `require` call,
 * `export =` an expression; namespaces and type-only imports go, as they do for the sandbox.
 * What is left runs under `node file.ts`.
 */
export function lowerForTypeStripping(ast: t.File): void {
  traverse(ast, LOWER_FOR_TYPE_STRIPPING);
}

const LOWER_FOR_TYPE_STRIPPING: Visitor = {
  ...RUNTIME_TS_SYNTAX,
  Function(path) {
    if (t.isClassMethod(path.node) && path.node.kind === 'constructor') lowerParameterProperties(path.node);
  },
};

function entityToExpression(ref: t.TSEntityName): t.Expression {
  if (t.isIdentifier(ref)) return ref;
  if (t.isTSQualifiedName(ref)) return t.memberExpression(entityToExpression(ref.left), ref.right);
  return t.identifier('undefined');
}

function enumToVar(node: t.TSEnumDeclaration): t.VariableDeclaration {
  const props: t.ObjectProperty[] = [];
  let next = 0;
  const members = (node as { members?: t.TSEnumMember[]; body?: { members: t.TSEnumMember[] } }).members ?? (node as { body?: { members: t.TSEnumMember[] } }).body?.members ?? [];
  for (const m of members) {
    const name = t.isIdentifier(m.id) ? m.id.name : m.id.value;
    let value: t.Expression;
    if (m.initializer) {
      value = m.initializer;
      if (t.isNumericLiteral(m.initializer)) next = m.initializer.value + 1;
    } else value = t.numericLiteral(next++);
    props.push(t.objectProperty(t.stringLiteral(name), value));
    if (t.isNumericLiteral(value)) props.push(t.objectProperty(t.stringLiteral(String(value.value)), t.stringLiteral(name)));
  }
  const decl = t.variableDeclaration('var', [t.variableDeclarator(t.identifier(node.id.name), t.objectExpression(props))]);
  decl.loc = node.loc;
  return decl;
}

function lowerParameterProperties(ctor: t.ClassMethod): void {
  const assigns: t.Statement[] = [];
  ctor.params = ctor.params.map((p) => {
    if (!t.isTSParameterProperty(p)) return p;
    const inner = p.parameter;
    const id = t.isAssignmentPattern(inner) ? (inner.left as t.Identifier) : inner;
    assigns.push(t.expressionStatement(t.assignmentExpression('=', t.memberExpression(t.thisExpression(), t.identifier(id.name)), t.identifier(id.name))));
    return inner;
  });
  if (assigns.length === 0) return;
  const body = ctor.body.body;
  const superIdx = body.findIndex((s) => t.isExpressionStatement(s) && t.isCallExpression(s.expression) && t.isSuper(s.expression.callee));
  body.splice(superIdx + 1, 0, ...assigns);
}
