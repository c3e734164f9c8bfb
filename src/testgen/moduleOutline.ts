import { parse, type ParserPlugin } from '@babel/parser';
import * as t from '@babel/types';

/** A parameter as the recorder names it: its identifier, or `arg<index>` when it is destructured. */
export interface ParamShape {
  readonly name: string;
  readonly rest: boolean;
}

export interface FunctionShape {
  readonly params: readonly ParamShape[];
  readonly async: boolean;
  readonly generator: boolean;
}

export interface MemberShape extends FunctionShape {
  readonly name: string;
  readonly static: boolean;
  readonly access: 'method' | 'get' | 'set';
}

export interface ClassShape {
  readonly name: string;
  readonly members: readonly MemberShape[];
  /** The class declares `#private` fields or methods, which Object.create cannot give an object. */
  readonly hasPrivate: boolean;
  /** The superclass when it is a plain name (`extends Map`), else undefined. */
  readonly superName: string | undefined;
  /** The constructor the class declares, undefined when it declares none. */
  readonly construct: FunctionShape | undefined;
}

export type TopLevelBinding = { readonly kind: 'function'; readonly shape: FunctionShape } | { readonly kind: 'class'; readonly shape: ClassShape };

/** A module's top-level functions and classes by name: what testHooks' reach() gives a test. */
export interface ModuleOutline {
  readonly bindings: ReadonlyMap<string, TopLevelBinding>;
}

function pluginsFor(fileName: string): ParserPlugin[] {
  const common: ParserPlugin[] = ['decorators-legacy', 'classProperties', 'topLevelAwait', 'importAttributes'];
  if (/\.[cm]?tsx$/i.test(fileName)) return [...common, 'typescript', 'jsx'];
  if (/\.[cm]?ts$/i.test(fileName)) return [...common, 'typescript'];
  return [...common, 'jsx'];
}

/**
 * The top-level function and class declarations of a program module (also `const f = () => …`,
 * `const C = class …`, and either behind `export`), with their parameters as the recorder names
 * them. Throws Babel's SyntaxError when the source does not parse.
 */
export function outlineModule(source: string, fileName: string): ModuleOutline {
  const ast = parse(source, { sourceType: 'unambiguous', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, plugins: pluginsFor(fileName) });
  const bindings = new Map<string, TopLevelBinding>();
  const add = (node: t.Node | null | undefined, name: string | undefined): void => {
    if (node === null || node === undefined || name === undefined) return;
    if (t.isFunction(node) && !t.isObjectMethod(node) && !t.isClassMethod(node) && !t.isClassPrivateMethod(node)) bindings.set(name, { kind: 'function', shape: functionShape(node) });
    else if (t.isClass(node)) bindings.set(name, { kind: 'class', shape: classShape(node, name) });
  };
  for (const statement of ast.program.body) {
    const declaration = t.isExportNamedDeclaration(statement) || t.isExportDefaultDeclaration(statement) ? statement.declaration : statement;
    if (t.isFunctionDeclaration(declaration) || t.isClassDeclaration(declaration)) add(declaration, declaration.id?.name);
    else if (t.isVariableDeclaration(declaration)) {
      for (const declarator of declaration.declarations) if (t.isIdentifier(declarator.id)) add(declarator.init, declarator.id.name);
    }
  }
  return { bindings };
}

function functionShape(node: t.Function | t.TSDeclareMethod): FunctionShape {
  const params: ParamShape[] = [];
  for (const param of node.params) {
    // TypeScript's `this: Type` is no parameter.
    if (t.isIdentifier(param) && param.name === 'this') continue;
    const inner = t.isTSParameterProperty(param) ? param.parameter : param;
    const rest = t.isRestElement(inner);
    const target = rest ? inner.argument : t.isAssignmentPattern(inner) ? inner.left : inner;
    params.push({ name: t.isIdentifier(target) ? target.name : `arg${params.length}`, rest });
  }
  return { params, async: node.async === true, generator: node.generator === true };
}

function classShape(node: t.Class, name: string): ClassShape {
  const members: MemberShape[] = [];
  let hasPrivate = false;
  let construct: FunctionShape | undefined;
  for (const member of node.body.body) {
    if (t.isClassPrivateMethod(member) || t.isClassPrivateProperty(member)) hasPrivate = true;
    if (t.isClassMethod(member) && member.kind === 'constructor') construct = functionShape(member);
    if (!t.isClassMethod(member) || member.kind === 'constructor') continue;
    const key = member.computed ? (t.isStringLiteral(member.key) ? member.key.value : undefined) : t.isIdentifier(member.key) ? member.key.name : t.isStringLiteral(member.key) ? member.key.value : undefined;
    if (key === undefined) continue;
    members.push({ name: key, static: member.static, access: member.kind, ...functionShape(member) });
  }
  return { name, members, hasPrivate, superName: t.isIdentifier(node.superClass) ? node.superClass.name : undefined, construct };
}
