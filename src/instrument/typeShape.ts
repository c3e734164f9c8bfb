import { parseExpression } from '@babel/parser';
import * as t from '@babel/types';
import type { Category } from '../core/categories.ts';
import { API_CATEGORIES } from '../core/platformCategories.ts';

/**
 * What a type annotation says of a value, as far as a learnt value can honour it: its category,
 * the type's text, and the shapes of its parts (members, elements, a call's result, what `await`
 * gives). Plain data; parts are resolved lazily through `part`.
 */
export interface TypeShape {
  /**
   * Undefined for a type the snippet names and snipexec cannot resolve (an imported or a library's
   * type: `ASTNode`, `Token`): it asks for no category, yet it is a declaration, so a guess from the
   * value's name does not apply (`@param {ASTNode} node` is no DOM node).
   */
  readonly category: Category | undefined;
  readonly type: string;
  /** The shapes one step below: members (`.name`), elements (`[0]`), a call's result, what `await` gives. */
  readonly parts: () => readonly ShapePart[];
}

export type PartStep = { readonly member: string } | { readonly element: number } | 'call' | 'await';
export interface ShapePart {
  readonly step: PartStep;
  readonly shape: TypeShape;
}

/** How many elements of an array type get a shape of their own: the ones a loop or a pair reaches. */
const ARRAY_ELEMENTS = 3;

/** The interfaces and type aliases a snippet declares, by name: what a type reference resolves to. */
export interface TypeNames {
  readonly byName: ReadonlyMap<string, t.TSInterfaceDeclaration | t.TSTypeAliasDeclaration | t.TSEnumDeclaration>;
  /** The snippet's source, which the declarations' offsets index. */
  readonly code: string;
  /** Type parameters declared anywhere in the snippet (`<T>`, JSDoc `@template T`): a reference to one says nothing of the value. */
  readonly generic: ReadonlySet<string>;
}

/**
 * Type names that say a value's category: the platform interfaces each category stands for (its
 * roots and representative, core/platformCategories.ts, from which the platform table is made too),
 * and beside them the names TypeScript's library adds: utility types, like-types, weak collections,
 * Error subclasses and DOM interfaces a snippet names often.
 */
const BY_REFERENCE: ReadonlyMap<string, Category> = new Map<string, Category>([
  ...Object.entries(API_CATEGORIES).flatMap(([category, { roots, representative }]) => [...roots, representative].map((name) => [name, category as Category] as const)),
  ['PromiseLike', 'promise'], ['WeakMap', 'Map'], ['WeakSet', 'Set'], ['TypeError', 'Error'], ['RangeError', 'Error'], ['Element', 'element'], ['EventTarget', 'element'],
  ['Record', 'object'], ['Partial', 'object'], ['Required', 'object'], ['Readonly', 'object'], ['Pick', 'object'], ['Omit', 'object'],
]);

/** `Partial<T>`, `Readonly<T>`…: the same members as T. */
const WRAPPERS = new Set(['Partial', 'Required', 'Readonly']);
const MAX_DEPTH = 6;

function name(ref: t.TSEntityName): string {
  return t.isIdentifier(ref) ? ref.name : `${name(ref.left)}.${ref.right.name}`;
}

/** The type as written: its source text (`code` is what its offsets index). */
function text(node: t.TSType, code: string): string {
  const { start, end } = node;
  return typeof start === 'number' && typeof end === 'number' ? code.slice(start, end) : '';
}

/** Members of a type literal or interface body, by key. */
/** A method signature's member: a function whose call gives `returns`. */
interface Method {
  readonly returns: t.TSType | undefined;
  readonly at: t.Node;
}

function membersOf(members: readonly t.TSTypeElement[]): Map<string, t.TSType | Method> {
  const out = new Map<string, t.TSType | Method>();
  for (const m of members) {
    if (!t.isTSPropertySignature(m) && !t.isTSMethodSignature(m)) continue;
    const key = t.isIdentifier(m.key) ? m.key.name : t.isStringLiteral(m.key) ? m.key.value : undefined;
    if (key === undefined) continue;
    if (t.isTSPropertySignature(m) && m.typeAnnotation) out.set(key, m.typeAnnotation.typeAnnotation);
    else if (t.isTSMethodSignature(m)) out.set(key, { returns: m.typeAnnotation?.typeAnnotation, at: m });
  }
  return out;
}

function enumNamed(names: TypeNames, name: string): t.TSEnumDeclaration | undefined {
  const found = names.byName.get(name);
  return t.isTSEnumDeclaration(found) ? found : undefined;
}

function enumCategory(decl: t.TSEnumDeclaration): Category {
  const members = (decl as { members?: t.TSEnumMember[]; body?: { members: t.TSEnumMember[] } }).members ?? (decl as { body?: { members: t.TSEnumMember[] } }).body?.members ?? [];
  return members.length > 0 && members.every((m) => t.isStringLiteral(m.initializer) || t.isTemplateLiteral(m.initializer)) ? 'string' : 'number';
}

/** Drops `null`, `undefined` and `void` from a union; the first of what is left stands for it (`string | number` is a string). */
function nonNullish(types: readonly t.TSType[]): t.TSType[] {
  return types.filter((u) => !t.isTSNullKeyword(u) && !t.isTSUndefinedKeyword(u) && !t.isTSVoidKeyword(u));
}

/**
 * The shape of a TypeScript type node; undefined for what says nothing of the value's kind (`any`,
 * `unknown`, a type parameter) or says it is nothing (`void`, `never`). A name nothing resolves
 * gives a shape without a category (TypeShape.category).
 */
export function shapeOf(node: t.TSType, names: TypeNames, code: string, depth = 0): TypeShape | undefined {
  return shape(node, names, code, depth, node);
}

function shape(node: t.TSType, names: TypeNames, code: string, depth: number, shown: t.TSType): TypeShape | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const make = (category: Category | undefined, parts: () => (ShapePart | undefined)[] = () => []): TypeShape => ({
    category, type: text(shown, code) || (category ?? 'unknown'), parts: () => parts().filter((p): p is ShapePart => p !== undefined),
  });
  const below = (step: PartStep, n: t.TSType | undefined, at = code): ShapePart | undefined => {
    const sh = n === undefined ? undefined : shapeOf(n, names, at, depth + 1);
    return sh && { step, shape: sh };
  };
  const elements = (n: t.TSType | undefined) => () => Array.from({ length: ARRAY_ELEMENTS }, (_, i) => below({ element: i }, n));
  const members = (list: ReadonlyMap<string, t.TSType | Method>, at = code) => () => [...list].map(([member, n]): ShapePart | undefined => {
    if (!('returns' in n)) return below({ member }, n, at);
    const ret = n.returns === undefined ? undefined : shapeOf(n.returns, names, at, depth + 2);
    const type = typeof n.at.start === 'number' && typeof n.at.end === 'number' ? at.slice(n.at.start, n.at.end) : 'function';
    return { step: { member }, shape: { category: 'function', type, parts: () => (ret ? [{ step: 'call', shape: ret }] : []) } };
  });
  if (t.isTSParenthesizedType(node) || t.isTSOptionalType(node)) return shape(node.typeAnnotation, names, code, depth, shown);
  if (t.isTSNumberKeyword(node) || t.isTSBigIntKeyword(node)) return make('number');
  if (t.isTSStringKeyword(node) || t.isTSTemplateLiteralType?.(node)) return make('string');
  if (t.isTSBooleanKeyword(node)) return make('boolean');
  if (t.isTSLiteralType(node)) {
    const lit = node.literal;
    if (t.isStringLiteral(lit) || t.isTemplateLiteral(lit)) return make('string');
    if (t.isNumericLiteral(lit) || t.isBigIntLiteral(lit) || t.isUnaryExpression(lit)) return make('number');
    if (t.isBooleanLiteral(lit)) return make('boolean');
    return undefined;
  }
  if (t.isTSArrayType(node)) return make('array', elements(node.elementType));
  if (t.isTSTupleType(node)) {
    const items = node.elementTypes.map((e) => (t.isTSNamedTupleMember(e) ? e.elementType : e) as t.TSType);
    return make('tuple', () => items.map((n, i) => below({ element: i }, n)));
  }
  if (t.isTSFunctionType(node) || t.isTSConstructorType(node)) {
    const ret = node.typeAnnotation?.typeAnnotation;
    return make(t.isTSConstructorType(node) ? 'class' : 'function', () => [below('call', ret)]);
  }
  if (t.isTSTypeLiteral(node)) {
    const own = membersOf(node.members);
    if (node.members.some((m) => t.isTSCallSignatureDeclaration(m)) && own.size === 0) return make('function');
    return make('object', members(own));
  }
  if (t.isTSObjectKeyword(node)) return make('object');
  if (t.isTSUnionType(node)) {
    const kept = nonNullish(node.types);
    const first = kept[0];
    if (first === undefined) return undefined;
    const chosen = shape(first, names, code, depth, kept.length === 1 ? first : shown);
    // `Token | string`: a member nothing resolves yields to a later one that has a category.
    if (!chosen || chosen.category !== undefined) return chosen;
    for (const other of kept.slice(1)) {
      const known = shape(other, names, code, depth, shown);
      if (known?.category !== undefined) return known;
    }
    return chosen;
  }
  if (t.isTSIntersectionType(node)) {
    const first = node.types[0];
    return first === undefined ? undefined : shape(first, names, code, depth, shown);
  }
  if (t.isTSTypeReference(node)) {
    const ref = name(node.typeName);
    const args = node.typeParameters?.params ?? [];
    // An enum, or one of its members (`Status.Active`): a string when its members are initialised with strings, else a number.
    const declared = names.byName.get(ref) ?? (t.isTSQualifiedName(node.typeName) && t.isIdentifier(node.typeName.left) ? enumNamed(names, node.typeName.left.name) : undefined);
    if (t.isTSEnumDeclaration(declared)) return make(enumCategory(declared));
    if (declared) {
      if (t.isTSTypeAliasDeclaration(declared)) {
        const aliased = shape(declared.typeAnnotation, names, names.code, depth + 1, declared.typeAnnotation);
        return aliased && { ...aliased, type: text(shown, code) };
      }
      return make('object', members(membersOf(declared.body.body), names.code));
    }
    if (WRAPPERS.has(ref) && args[0]) {
      const inner = shape(args[0], names, code, depth + 1, shown);
      return inner && { ...inner, category: 'object' };
    }
    if (/^HTML\w*Element$|^SVG\w*Element$/.test(ref)) return make('element');
    const category = BY_REFERENCE.get(ref);
    // A name nothing resolves (an imported type, a library's): declared, with no category; a type parameter says nothing.
    if (category === undefined) return names.generic.has(ref) ? undefined : make(undefined);
    if (category === 'array') return make('array', elements(args[0]));
    if (category === 'promise') return make('promise', () => [below('await', args[0])]);
    return make(category);
  }
  return undefined;
}

/**
 * A JSDoc type (`number`, `string[]`, `?Object`, `Array<User>`, `boolean=`) as a TypeScript type
 * node; undefined when it does not parse. Offsets index `text` with `offset` added.
 */
export function jsdocType(text: string): { node: t.TSType; code: string } | undefined {
  const cleaned = text.trim().replace(/^[?!]/, '').replace(/=$/, '').replace(/^\*$/, 'any').replace(/^function\b(?!\s*\()/, 'Function')
    .replace(/\bObject\.<([^>]*)>/g, 'Record<$1>').replace(/\.</g, '<');
  const code = `0 as ${cleaned}`;
  try {
    const expr = parseExpression(code, { plugins: ['typescript'] });
    return t.isTSAsExpression(expr) ? { node: expr.typeAnnotation, code } : undefined;
  } catch {
    return undefined;
  }
}
