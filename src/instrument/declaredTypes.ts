import type { NodePath, Visitor } from '@babel/traverse';
import * as t from '@babel/types';
import { traverse } from '../parse/stripTypes.ts';
import { memberId } from '../protocol/trace.ts';
import type { DriveTarget } from './driveTargets.ts';
import { jsdocType, shapeOf, type ShapePart, type TypeNames, type TypeShape } from './typeShape.ts';
import { mergeUsage, type UsageKeys, type UsageTable } from './usage.ts';

/**
 * What the snippet says of its values' types, read before its types are stripped: TypeScript
 * annotations of parameters, results and variables, type assertions, `declare` statements and
 * body-less signatures, and JSDoc `@param {T}`, `@returns {T}` and `@type {T}`. Nodes are the snippet's own, which stripping
 * keeps (it removes only the annotations).
 */
export interface Declarations {
  /** Identifiers that declare a binding with a type: a parameter, a variable. */
  readonly bindings: Map<t.Identifier, TypeShape>;
  /** Names a `declare` statement or a body-less signature types: free names once types are stripped. */
  readonly globals: Map<string, TypeShape>;
  /** Each function's parameter types, by position (a `this` parameter left out). */
  readonly params: WeakMap<t.Function, (TypeShape | undefined)[]>;
  /** Expressions a type assertion types (`req.body as Order`, `<Order>x`, `x satisfies Order`): the expression inside, which stripping keeps. */
  readonly asserted: Map<t.Expression, TypeShape>;
}

/** A cheap test: nothing to read in a JavaScript snippet without JSDoc tags. */
export function mayDeclareTypes(source: string, typed: boolean): boolean {
  return typed || /@(param|returns?|type)\b/.test(source);
}

/** Reads the declarations of a parsed snippet; call before stripTypes. */
export function collectDeclarations(ast: t.File, code: string): Declarations {
  const byName = new Map<string, t.TSInterfaceDeclaration | t.TSTypeAliasDeclaration | t.TSEnumDeclaration>();
  const generic = new Set<string>();
  t.traverseFast(ast, (n) => {
    if ((t.isTSInterfaceDeclaration(n) || t.isTSTypeAliasDeclaration(n) || t.isTSEnumDeclaration(n)) && !byName.has(n.id.name)) byName.set(n.id.name, n);
    if (t.isTSTypeParameter(n)) generic.add(typeof n.name === 'string' ? n.name : (n.name as t.Identifier).name);
  });
  for (const m of code.matchAll(/@template\s+(?:\{[^}]*\}\s*)?([\w$]+(?:\s*,\s*[\w$]+)*)/g)) for (const n of (m[1] as string).split(/\s*,\s*/)) generic.add(n);
  const names: TypeNames = { byName, code, generic };
  const out: Declarations = { bindings: new Map(), globals: new Map(), params: new WeakMap(), asserted: new Map() };
  const annotated = (node: t.Node | null | undefined): TypeShape | undefined => {
    const ann = node && 'typeAnnotation' in node ? node.typeAnnotation : undefined;
    return ann && t.isTSTypeAnnotation(ann) ? shapeOf(ann.typeAnnotation, names, code) : undefined;
  };
  const jsdoc = (text: string | undefined): TypeShape | undefined => {
    const parsed = text === undefined ? undefined : jsdocType(text);
    return parsed && shapeOf(parsed.node, names, parsed.code);
  };
  traverse(ast, COLLECT, undefined, { out, names, code, annotated, jsdoc });
  return out;
}

/** What COLLECT works with: one snippet's declarations so far, and how to read a type. */
interface Collecting {
  readonly out: Declarations;
  readonly names: TypeNames;
  readonly code: string;
  readonly annotated: (node: t.Node | null | undefined) => TypeShape | undefined;
  readonly jsdoc: (text: string | undefined) => TypeShape | undefined;
}

/** collectDeclarations' traversal, made (and exploded by Babel) once. */
const COLLECT: Visitor<Collecting> = {
  Function(path, { out, names, code, annotated, jsdoc }) {
    const fn = path.node;
    const doc = docOf(path);
    const params = fn.params.filter((p) => !(t.isIdentifier(p) && p.name === 'this'));
    out.params.set(fn, params.map((p) => {
      const inner = t.isTSParameterProperty(p) ? p.parameter : p;
      const id = t.isAssignmentPattern(inner) ? inner.left : inner;
      const name = t.isIdentifier(id) ? id.name : undefined;
      const shape = annotated(id) ?? (name === undefined ? undefined : jsdoc(doc.params.get(name)));
      if (shape && t.isIdentifier(id)) out.bindings.set(id, shape);
      return shape;
    }));
    // A declared result types what the function returns (`return cart.total` in `(): number`); an async one's, what its promise gives.
    const declaredReturn = t.isTSTypeAnnotation(fn.returnType) ? shapeOf(fn.returnType.typeAnnotation, names, code) : jsdoc(doc.returns);
    const returned = fn.async ? declaredReturn?.parts().find((p) => p.step === 'await')?.shape : declaredReturn;
    if (!returned) return;
    if (!t.isBlockStatement(fn.body)) return void (out.asserted.has(fn.body) || out.asserted.set(fn.body, returned));
    path.traverse(RETURNS, { asserted: out.asserted, returned });
  },
  TSDeclareFunction(path, { out, names, code }) {
    const { id, returnType } = path.node;
    if (!id || out.globals.has(id.name)) return;
    const ret = returnType && t.isTSTypeAnnotation(returnType) ? shapeOf(returnType.typeAnnotation, names, code) : undefined;
    out.globals.set(id.name, functionShape(code.slice(path.node.start ?? 0, path.node.end ?? 0), ret));
  },
  VariableDeclaration(path, { out, annotated, jsdoc }) {
    const doc = path.node.declarations.length === 1 ? docOf(path).type : undefined;
    for (const d of path.node.declarations) {
      if (!t.isIdentifier(d.id)) continue;
      const shape = annotated(d.id) ?? jsdoc(doc);
      if (!shape) continue;
      if (path.node.declare) out.globals.set(d.id.name, shape);
      else out.bindings.set(d.id, shape);
    }
  },
  'TSAsExpression|TSTypeAssertion|TSSatisfiesExpression'(path, { out, names, code }) {
    const node = path.node as t.TSAsExpression | t.TSTypeAssertion | t.TSSatisfiesExpression;
    // `x as unknown as T`: the outer assertion says what the value is.
    if (out.asserted.has(node as unknown as t.Expression)) return;
    const shape = shapeOf(node.typeAnnotation, names, code);
    let inner: t.Expression = node.expression;
    while (t.isTSAsExpression(inner) || t.isTSTypeAssertion(inner) || t.isTSSatisfiesExpression(inner) || t.isTSNonNullExpression(inner) || t.isParenthesizedExpression(inner)) {
      out.asserted.set(inner, shape ?? NOTHING);
      inner = inner.expression;
    }
    if (shape) out.asserted.set(inner, shape);
  },
  ClassDeclaration(path, { out }) {
    if (path.node.declare && path.node.id) out.globals.set(path.node.id.name, { category: 'class', type: `typeof ${path.node.id.name}`, parts: () => [] });
  },
};

/** The return statements of one function (not of the functions inside it): what they return is of the declared result. */
const RETURNS: Visitor<{ readonly asserted: Map<t.Expression, TypeShape>; readonly returned: TypeShape }> = {
  Function(inner) { inner.skip(); },
  ReturnStatement(ret, { asserted, returned }) {
    const arg = ret.node.argument;
    if (arg && !asserted.has(arg)) asserted.set(arg, returned);
  },
};

/** Marks an expression an outer assertion already typed. */
const NOTHING: TypeShape = { category: 'undefined', type: '', parts: () => [] };

function functionShape(type: string, ret: TypeShape | undefined): TypeShape {
  return { category: 'function', type, parts: () => (ret ? [{ step: 'call', shape: ret }] : []) };
}

/** The JSDoc block before a function or declaration (or the statement that holds it): its `@param` and `@type` types. */
function docOf(path: NodePath): { params: Map<string, string>; type: string | undefined; returns: string | undefined } {
  const params = new Map<string, string>();
  let type: string | undefined;
  let returns: string | undefined;
  let holder: NodePath | null = path;
  // `const f = (a) => …`, `export function f`, `key: function (a) {}`: the comment sits on the statement or property.
  for (let i = 0; holder && i < 3 && !holder.node.leadingComments?.length; i++) {
    if (!holder.parentPath || holder.parentPath.isProgram() || holder.parentPath.isBlockStatement()) break;
    holder = holder.parentPath;
  }
  const comment = holder?.node.leadingComments?.at(-1);
  if (!comment || comment.type !== 'CommentBlock' || !comment.value.startsWith('*')) return { params, type, returns };
  for (const m of comment.value.matchAll(/@(param|arg|argument|type|returns?)\s*\{([^}]*(?:\{[^}]*\}[^}]*)*)\}\s*\[?([\w$]*)/g)) {
    const [, tag, typeText, name] = m;
    if ((tag === 'param' || tag === 'arg' || tag === 'argument') && name) params.set(name, typeText as string);
    else if (tag === 'type') type = typeText;
    else if (tag === 'return' || tag === 'returns') returns = typeText;
  }
  return { params, type, returns };
}

/** Most entries one snippet's declarations add to its usage table (a large interface nests far). */
const MAX_ENTRIES = 400;
const MAX_PART_DEPTH = 4;

/** A declared type the usage pass met: an expression's (an assertion, a declared result), or a binding identifier's. */
export interface DeclaredAt {
  readonly path: NodePath;
  readonly shape: TypeShape;
  readonly binding: boolean;
}

/** What DECLARED_VISITOR reads and writes: the declarations, and what it met of them, in the traversal's order. */
export interface DeclaredState {
  readonly declarations: Declarations;
  readonly met: DeclaredAt[];
}

/**
 * Notes the expressions and binding identifiers the declarations type, in the order the traversal
 * meets them: merged into the usage pass (instrumentSnippet), so that one walk of the tree serves
 * both; applyDeclarations writes them into the table after it, in that order.
 */
export const DECLARED_VISITOR: Visitor<DeclaredState> = {
  Expression(path, state) {
    const shape = state.declarations.asserted.get(path.node);
    if (shape && shape !== NOTHING) state.met.push({ path, shape, binding: false });
  },
  // Not in Expression: Babel's Expression leaves out identifiers that declare a binding.
  Identifier(path, state) {
    const shape = state.declarations.bindings.get(path.node);
    if (shape) state.met.push({ path, shape, binding: true });
  },
};

/** Whether the usage pass has anything to note for DECLARED_VISITOR. */
export function typesTreeNodes(decl: Declarations | undefined): decl is Declarations {
  return decl !== undefined && (decl.bindings.size > 0 || decl.asserted.size > 0);
}

/**
 * Writes the declarations into the usage table, under the usage keys of what they type: a free
 * name's, a binding's (`const u: User = getUser()` types `getUser()`), and each drive target's
 * arguments (`greet#arg0`); with the parts below them (`.name`, `[0]`, `()`, `await`). A drive
 * target's parameter also gives its argument its name, which says what the value is for. `met`:
 * what the usage pass met of the declarations (DECLARED_VISITOR), in its order.
 */
export function applyDeclarations(decl: Declarations | undefined, keys: UsageKeys, usage: UsageTable, targets: readonly { target: DriveTarget; fn: t.Function }[], met: readonly DeclaredAt[]): void {
  let budget = MAX_ENTRIES;
  const emit = (key: string, shape: TypeShape, depth: number): void => {
    if (budget-- <= 0) return;
    const parts = depth < MAX_PART_DEPTH ? shape.parts() : [];
    const returns = parts.some((p) => p.step === 'call');
    // A type nothing resolves is written only where nothing with a category was (TypeShape.category).
    if (shape.category === undefined && usage[key]?.declared?.category !== undefined) return;
    usage[key] = mergeUsage(usage[key] ?? {}, { declared: { ...(shape.category !== undefined ? { category: shape.category } : {}), type: shape.type, ...(returns ? { returns: true } : {}) } });
    for (const p of parts) {
      emit(partKey(key, p), p.shape, depth + 1);
      // An element reached by iterating is `xs[0]`; one read by index, `xs["0"]` (its id) or `xs.0` (its site's usage key).
      if (typeof p.step === 'object' && 'element' in p.step) {
        emit(`${key}[${JSON.stringify(String(p.step.element))}]`, p.shape, depth + 1);
        emit(`${key}.${p.step.element}`, p.shape, depth + 1);
      }
    }
  };
  for (const { target, fn } of targets) {
    const types = decl?.params.get(fn);
    fn.params.forEach((p, i) => {
      const key = `${target.name}#arg${i}`;
      const id = t.isAssignmentPattern(p) ? p.left : p;
      if (t.isIdentifier(id)) usage[key] = mergeUsage(usage[key] ?? {}, { declared: { ...usage[key]?.declared, name: id.name } });
      const shape = types?.[i];
      if (shape) emit(key, shape, 0);
    });
  }
  if (!decl) return;
  for (const [name, shape] of decl.globals) emit(name, shape, 0);
  for (const { path, shape, binding } of met) {
    if (!binding) {
      emit(keys.keyOf(path), shape, 0);
      continue;
    }
    const declared = path.scope.getBinding((path.node as t.Identifier).name);
    if (declared?.identifier === path.node) emit(keys.bindingKey(declared), shape, 0);
  }
}

function partKey(key: string, part: ShapePart): string {
  const { step } = part;
  if (step === 'call') return `${key}()`;
  if (step === 'await') return `await ${key}`;
  if ('element' in step) return `${key}[${step.element}]`;
  return memberId(key, step.member);
}
