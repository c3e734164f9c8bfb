// Build-time only: reads TypeScript's declaration files with the compiler API (typescript is a devDependency).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { API_CATEGORIES } from '../../core/platformCategories.ts';
import type { ApiKind } from './apiKinds.ts';

/** One declaration of a member in one interface or class of the platform. */
export interface MemberDeclaration {
  /** The interface or class that declares it. */
  readonly owner: string;
  /** Where: ECMAScript's lib files, the DOM's, or @types/node. */
  readonly source: 'es' | 'dom' | 'node';
  /** Declared inside a namespace or module (Intl's option bags, Node's modules), not at the top level. */
  readonly nested: boolean;
  /** Marked @deprecated: still there at run time, but says nothing of today's types. */
  readonly deprecated: boolean;
  /** Kinds of its value when read (a property, accessor, or a method as a function). */
  readonly read: ReadonlySet<ApiKind>;
  /** Kinds of what calling it returns, for methods and function-typed properties; absent otherwise. */
  readonly returns?: ReadonlySet<ApiKind>;
}

/** Every member declaration of the platform, and the interfaces that make up each category. */
export interface ApiMembers {
  readonly members: ReadonlyMap<string, readonly MemberDeclaration[]>;
  /** Category → the interface names of its family (its roots, what extends them, mixins only they extend); also `event`. */
  readonly families: ReadonlyMap<string, ReadonlySet<string>>;
  /** Category → members its representative interface has, inherited ones included. */
  readonly categoryMembers: ReadonlyMap<string, ReadonlySet<string>>;
  /** Interface → the interfaces it extends. */
  readonly bases: ReadonlyMap<string, ReadonlySet<string>>;
  /** The declaration files read, relative to node_modules. */
  readonly files: readonly string[];
}

const LIBS = ['lib.es2024.full.d.ts', 'lib.esnext.iterator.d.ts', 'lib.esnext.collection.d.ts', 'lib.dom.iterable.d.ts', 'lib.dom.asynciterable.d.ts'];

/** The declaration files: ECMAScript and the DOM from TypeScript's lib, Node's from @types/node. */
function program(): ts.Program {
  const require = createRequire(import.meta.url);
  const nodeTypes = dirname(require.resolve('@types/node/package.json'));
  const options: ts.CompilerOptions = { lib: LIBS, types: [], noEmit: true, target: ts.ScriptTarget.ESNext, skipLibCheck: true, strict: true };
  return ts.createProgram([join(nodeTypes, 'index.d.ts')], options);
}

function memberName(name: ts.PropertyName | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name)) return ts.isPrivateIdentifier(name) ? undefined : name.text;
  return undefined; // computed names: symbols such as [Symbol.iterator]
}

/** Reads every interface and class member of the platform's declaration files. */
export function collectApiMembers(): ApiMembers {
  const prog = program();
  const checker = prog.getTypeChecker();
  const bases = new Map<string, Set<string>>();
  const declared = new Map<string, ts.InterfaceType>();
  const members = new Map<string, MemberDeclaration[]>();
  const files: string[] = [];
  const kinds = new KindReader(checker);

  const visitOwner = (node: ts.InterfaceDeclaration | ts.ClassDeclaration, source: MemberDeclaration['source'], nested: boolean) => {
    const owner = node.name?.text;
    if (owner === undefined) return;
    const symbol = checker.getSymbolAtLocation(node.name as ts.Identifier);
    const type = symbol ? (checker.getDeclaredTypeOfSymbol(symbol) as ts.InterfaceType) : undefined;
    if (type && !declared.has(owner)) declared.set(owner, type);
    const mine = bases.get(owner) ?? new Set<string>();
    bases.set(owner, mine);
    for (const clause of node.heritageClauses ?? []) for (const t of clause.types) if (ts.isIdentifier(t.expression) || ts.isPropertyAccessExpression(t.expression)) mine.add(t.expression.getText().replace(/^.*\./, ''));
    // Tag and event maps list names, not members; a deprecated interface says nothing of today's platform.
    // A constructor interface holds statics of a real global (Buffer.byteLength), never a value to synthesise.
    if (/(TagNameMap|EventMap|Constructor)$/.test(owner) || ts.getJSDocDeprecatedTag(node)) return;
    for (const m of node.members) {
      if ('questionToken' in m && m.questionToken !== undefined) continue; // optional: what code passes in (options)
      if (ts.isConstructorDeclaration(m) || ts.isIndexSignatureDeclaration(m) || ts.isCallSignatureDeclaration(m) || ts.isConstructSignatureDeclaration(m)) continue;
      if (ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword || x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      const name = memberName(m.name);
      if (name === undefined) continue;
      const decl = kinds.declaration({ owner, source, nested, deprecated: ts.getJSDocDeprecatedTag(m) !== undefined }, m);
      if (!decl) continue;
      const list = members.get(name) ?? [];
      list.push(decl);
      members.set(name, list);
    }
  };
  for (const file of prog.getSourceFiles()) {
    const name = file.fileName.replace(/^.*node_modules\//, '');
    const source = /\/lib\.es[^/]*$/.test(name) ? 'es' : /\/lib\.[^/]*$/.test(name) ? 'dom' : 'node';
    const visit = (node: ts.Node, nested: boolean): void => {
      if (ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) visitOwner(node, source, nested);
      else if (ts.isModuleDeclaration(node) || ts.isModuleBlock(node) || ts.isSourceFile(node)) ts.forEachChild(node, (child) => visit(child, nested || ts.isModuleDeclaration(node)));
    };
    files.push(name);
    visit(file, false);
  }

  const families = new Map<string, ReadonlySet<string>>();
  const categoryMembers = new Map<string, ReadonlySet<string>>();
  families.set('event', family(['Event'], bases));
  for (const [category, { roots, representative }] of Object.entries(API_CATEGORIES)) {
    families.set(category, family(roots, bases));
    const names = new Set<string>();
    const type = declared.get(representative);
    // Deprecated members too: `substr` is still there on every string.
    if (type) for (const p of checker.getPropertiesOfType(type)) if (!p.name.startsWith('__@')) names.add(p.name);
    categoryMembers.set(category, names);
  }
  return { members, families, categoryMembers, bases, files: files.sort() };
}

/**
 * The roots and every interface that extends one of them; then the mixins only they extend
 * (ParentNode, ChildNode), not those shared with others (EventTarget, which Window extends too).
 */
function family(roots: readonly string[], bases: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const all = new Set<string>(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const [owner, of] of bases) if (!all.has(owner) && [...of].some((b) => all.has(b))) { all.add(owner); grew = true; }
  }
  const extenders = new Map<string, string[]>();
  for (const [owner, of] of bases) for (const b of of) extenders.set(b, [...(extenders.get(b) ?? []), owner]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [mixin, by] of extenders) if (!all.has(mixin) && by.every((o) => all.has(o))) { all.add(mixin); grew = true; }
  }
  return all;
}

/** Classifies declared types into the coarse kinds the value generators use. */
class KindReader {
  private readonly checker: ts.TypeChecker;
  constructor(checker: ts.TypeChecker) {
    this.checker = checker;
  }

  declaration(where: Pick<MemberDeclaration, 'owner' | 'source' | 'nested' | 'deprecated'>, m: ts.ClassElement | ts.TypeElement): MemberDeclaration | undefined {
    const c = this.checker;
    if (ts.isMethodSignature(m) || ts.isMethodDeclaration(m)) {
      const sig = c.getSignatureFromDeclaration(m);
      return { ...where, read: new Set<ApiKind>(['function']), returns: sig ? this.kinds(c.getReturnTypeOfSignature(sig)) : new Set<ApiKind>(['any']) };
    }
    if (ts.isPropertySignature(m) || ts.isPropertyDeclaration(m) || ts.isGetAccessorDeclaration(m)) {
      const type = c.getTypeAtLocation(m);
      const read = this.kinds(type);
      const calls = c.getNonNullableType(type).getCallSignatures();
      if (calls.length === 0 || type.isUnion()) return { ...where, read };
      const returns = new Set<ApiKind>();
      for (const s of calls) for (const k of this.kinds(c.getReturnTypeOfSignature(s))) returns.add(k);
      return { ...where, read, returns };
    }
    return undefined;
  }

  kinds(type: ts.Type, depth = 0): Set<ApiKind> {
    const out = new Set<ApiKind>();
    this.add(type, out, depth);
    return out;
  }

  private add(type: ts.Type, out: Set<ApiKind>, depth: number): void {
    const f = type.flags;
    const F = ts.TypeFlags;
    if (depth > 6 || f & (F.Any | F.Unknown)) { out.add('any'); return; }
    if (type.isUnion()) { for (const t of type.types) this.add(t, out, depth + 1); return; }
    if (f & F.NumberLike) out.add('number');
    else if (f & F.StringLike) out.add('string');
    else if (f & F.BooleanLike) out.add('boolean');
    else if (f & F.BigIntLike) out.add('bigint');
    else if (f & F.ESSymbolLike) out.add('symbol');
    else if (f & (F.Void | F.Undefined)) out.add('undefined');
    else if (f & F.Null) out.add('null');
    else if (f & F.Never) out.add('never');
    else if (f & F.TypeParameter) {
      if ((type as ts.TypeParameter & { isThisType?: boolean }).isThisType) { out.add('this'); return; }
      const constraint = this.checker.getBaseConstraintOfType(type);
      if (constraint && constraint !== type && !(constraint.flags & F.Unknown)) this.add(constraint, out, depth + 1);
      else out.add('any');
    } else if (f & (F.IndexedAccess | F.Conditional | F.Substitution)) {
      const constraint = this.checker.getBaseConstraintOfType(type);
      if (constraint && constraint !== type) this.add(constraint, out, depth + 1);
      else out.add('any');
    } else if (type.isIntersection()) {
      for (const t of type.types) if (!(t.flags & F.Object) || t.getProperties().length > 0) { this.add(t, out, depth + 1); return; }
      out.add('object');
    } else if (f & F.Object) out.add(this.objectKind(type));
    else out.add('any');
  }

  private objectKind(type: ts.Type): ApiKind {
    const c = this.checker;
    if (c.isArrayType(type) || c.isTupleType(type)) return 'array';
    const name = (type.aliasSymbol ?? type.getSymbol())?.getName();
    if (name !== undefined && name in NAMED_KINDS) return NAMED_KINDS[name] as ApiKind;
    if (name !== undefined && ELEMENT_NAME.test(name)) return 'element';
    if (type.getCallSignatures().length > 0) return 'function';
    return 'object';
  }
}

// Object types that stand for a category of their own; elements are recognised by name (…Element, Node, Document).
const NAMED_KINDS: Readonly<Record<string, ApiKind>> = {
  Promise: 'promise', PromiseLike: 'promise', Date: 'Date', RegExp: 'RegExp', Map: 'Map', ReadonlyMap: 'Map', Set: 'Set', ReadonlySet: 'Set',
  Error: 'Error', ReadonlyArray: 'array', Node: 'element', ChildNode: 'element', ParentNode: 'element', Document: 'element', DocumentFragment: 'element', Text: 'element',
};
const ELEMENT_NAME = /^(HTML|SVG|MathML)?\w*Element$/;
