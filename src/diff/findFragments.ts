import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import { EXTRA_ARGUMENTS, readsArguments } from '../instrument/driveTargets.ts';

/** A part of a changed file that `snipexec diff` drives: a function around a change, or the top level. */
export interface Fragment {
  readonly file: string;
  /** The function's name (`parse`, `Parser.prototype.next`, `exports.isDefined`), or `(top level)`. */
  readonly name: string;
  readonly kind: 'function' | 'top-level';
  readonly startLine: number;
  readonly endLine: number;
  /** The changed file lines inside the fragment. */
  readonly changedLines: readonly number[];
  /** The lines (from, to) of the functions inside it passed as arguments of a call: callbacks, which outside code calls with its own values. */
  readonly callbacks: readonly (readonly [number, number])[];
  /** The function's parameter names, by position (undefined for a pattern or rest); none for the top level. */
  readonly params: readonly (string | undefined)[];
  /** The first lines of the functions inside it that the function around them returns (`return function wrapper() {…}`): callers call those. */
  readonly returned: readonly number[];
  /** Called where it is defined (`(() => {…})()`): loading the file runs it. */
  readonly immediate: boolean;
}

/**
 * The fragments a change touched. For a changed line inside a function, the outermost named
 * function or method around it (a callback or arrow is reached the way its callers reach it: the
 * function that makes it is driven), else the function itself; for a change outside any function,
 * the file's top level. A changed top-level binding (`const LIST = 'a,b'`), and a free name the
 * change introduces (`introduced`), touch every outermost function that reads them.
 */
export function findFragments(file: string, parsed: ParsedSnippet, changed: ReadonlySet<number>, introduced: ReadonlySet<string> = new Set()): Fragment[] {
  const functions = functionsOf(parsed.ast);
  const touched = new Map<FunctionInfo, number[]>();
  const topLevel: number[] = [];
  for (const line of [...changed].sort((a, b) => a - b)) {
    const fn = enclosing(functions, line);
    if (fn) touched.set(fn, [...(touched.get(fn) ?? []), line]);
    else topLevel.push(line);
  }
  // So does a name the change introduces free (a removed declaration): the functions around its reads
  // (found as for a changed line) are run, to reach the use.
  const read = new Map<FunctionInfo, number[]>();
  for (const line of readingLines(parsed.ast, new Set([...changedBindings(parsed.ast, topLevel), ...introduced]))) {
    const fn = enclosing(functions, line);
    if (fn && !touched.has(fn)) read.set(fn, [...(read.get(fn) ?? []), line]);
  }
  for (const [fn, lines] of read) touched.set(fn, lines);
  const callbacks = functions.filter((f) => f.callback).map((f) => [f.start, f.end] as const);
  const within = (from: number, to: number) => callbacks.filter(([a, b]) => a >= from && b <= to && !(a === from && b === to));
  const returnedWithin = (from: number, to: number) => functions.filter((f) => f.returned && f.start >= from && f.end <= to && !(f.start === from && f.end === to)).map((f) => f.start);
  const fragments: Fragment[] = [...touched].sort(([a], [b]) => a.start - b.start)
    .map(([fn, lines]) => ({ file, name: fn.name, kind: 'function' as const, startLine: fn.start, endLine: fn.end, changedLines: lines, callbacks: within(fn.start, fn.end), params: fn.params, returned: returnedWithin(fn.start, fn.end), immediate: fn.immediate }));
  if (topLevel.length > 0) {
    const endLine = parsed.code.split('\n').length;
    fragments.push({ file, name: '(top level)', kind: 'top-level', startLine: 1, endLine, changedLines: topLevel, callbacks: within(1, endLine), params: [], returned: [], immediate: true });
  }
  return fragments;
}

interface FunctionInfo {
  readonly name: string;
  /** Named: declared with a name, a method, or bound to a name or member where it is made. */
  readonly named: boolean;
  readonly start: number;
  readonly end: number;
  /** The function around it, when nested. */
  readonly outer: FunctionInfo | undefined;
  /** Passed as an argument of a call (`stream.on('data', function (chunk) {…})`). */
  readonly callback: boolean;
  /** The callee of the call that makes it (an IIFE). */
  readonly immediate: boolean;
  readonly params: readonly (string | undefined)[];
  /** Returned by the function around it, as it is or by the name it is bound to. */
  readonly returned: boolean;
  /** The positions of the parameters its code reads. */
  readonly read: ReadonlySet<number>;
}

/** Per named function of a file (named as fragments are), the positions of the parameters its code reads: what a version did with its arguments. */
export function readParameters(parsed: ParsedSnippet): Map<string, ReadonlySet<number>> {
  const out = new Map<string, ReadonlySet<number>>();
  for (const f of functionsOf(parsed.ast)) if (f.named && !out.has(f.name)) out.set(f.name, f.read);
  return out;
}

/** The fragment for a changed line: the outermost named function around it, else the innermost function; undefined at the top level. */
function enclosing(functions: readonly FunctionInfo[], line: number): FunctionInfo | undefined {
  let innermost: FunctionInfo | undefined;
  for (const f of functions) if (line >= f.start && line <= f.end && (!innermost || f.start >= innermost.start)) innermost = f;
  if (!innermost) return undefined;
  let outermostNamed: FunctionInfo | undefined;
  for (let f: FunctionInfo | undefined = innermost; f; f = f.outer) if (f.named) outermostNamed = f;
  return outermostNamed ?? innermost;
}

/** Every function of the file, outer before inner, with its name and its enclosing function. */
function functionsOf(ast: t.File): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  const infos = new Map<t.Node, FunctionInfo>();
  traverse(ast, {
    Function(path: NodePath<t.Function>) {
      const loc = path.node.loc;
      if (!loc) return;
      const outerPath = path.findParent((p) => p.isFunction());
      const bound = boundName(path);
      const own = ownName(path.node);
      const name = own ?? bound ?? `<anonymous>@${loc.start.line}`;
      const callback = (t.isCallExpression(path.parent) || t.isNewExpression(path.parent)) && path.parent.arguments.includes(path.node as t.Expression);
      const params = path.node.params.map((p) => (t.isIdentifier(p) ? p.name : t.isAssignmentPattern(p) && t.isIdentifier(p.left) ? p.left.name : undefined));
      const read = new Set(params.flatMap((p, i) => (p !== undefined && path.scope.getOwnBinding(p)?.referenced ? [i] : [])));
      // One that reads `arguments` reads those past its parameters too (as many as drive passes it).
      if (readsArguments(path.node)) for (let i = params.length; i < params.length + EXTRA_ARGUMENTS; i++) read.add(i);
      const immediate = t.isCallExpression(path.parent) && path.parent.callee === path.node;
      const info: FunctionInfo = { name, named: own !== undefined || bound !== undefined, start: loc.start.line, end: loc.end.line, outer: outerPath ? infos.get(outerPath.node) : undefined, callback, immediate, params, returned: outerPath !== null && returnedBy(path, outerPath), read };
      infos.set(path.node, info);
      out.push(info);
    },
  });
  return out;
}

/**
 * `return function () {…}`, or `function wrapper() {…} … return wrapper;` (`var wrapper = function …` too) in `outer`;
 * or a method put on an object `outer` returns (`self.parse = function …; … return self;`, a factory's API).
 */
function returnedBy(path: NodePath<t.Function>, outer: NodePath): boolean {
  if (t.isReturnStatement(path.parent) || (t.isArrowFunctionExpression(path.parent) && path.parent.body === path.node)) return true;
  const onObject = t.isAssignmentExpression(path.parent) && path.parent.right === path.node && t.isMemberExpression(path.parent.left) && t.isIdentifier(path.parent.left.object) ? path.parent.left.object : undefined;
  const id = t.isFunctionDeclaration(path.node) ? path.node.id : t.isVariableDeclarator(path.parent) && t.isIdentifier(path.parent.id) ? path.parent.id : onObject;
  if (!id) return false;
  const binding = (t.isFunctionDeclaration(path.node) ? path.parentPath.scope : path.scope.parent)?.getBinding(id.name);
  if (onObject && binding?.scope.path.node !== outer.node) return false;
  return binding?.referencePaths.some((r) => t.isReturnStatement(r.parent) && r.getFunctionParent()?.node === outer.node) ?? false;
}

function ownName(fn: t.Function): string | undefined {
  if ((t.isFunctionDeclaration(fn) || t.isFunctionExpression(fn)) && fn.id) return fn.id.name;
  if ((t.isObjectMethod(fn) || t.isClassMethod(fn) || t.isClassPrivateMethod(fn)) && t.isIdentifier(fn.key)) return fn.key.name;
  return undefined;
}

/** `const f = () => …`, `exports.f = function …`, `{ f: function … }`: the name or member it is bound to. */
function boundName(path: NodePath<t.Function>): string | undefined {
  const parent = path.parent;
  if (t.isVariableDeclarator(parent) && parent.init === path.node && t.isIdentifier(parent.id)) return parent.id.name;
  if (t.isAssignmentExpression(parent) && parent.right === path.node) return memberText(parent.left);
  if (t.isObjectProperty(parent) && parent.value === path.node && !parent.computed && (t.isIdentifier(parent.key) || t.isStringLiteral(parent.key))) return t.isIdentifier(parent.key) ? parent.key.name : parent.key.value;
  if ((t.isClassProperty(parent) || t.isClassPrivateProperty(parent)) && parent.value === path.node && t.isIdentifier(parent.key)) return parent.key.name;
  return undefined;
}

/** `a`, `this.a`, `a.b.c`, `a?.b` (members by name): an access path as source text; undefined for anything else. */
export function memberText(node: t.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (t.isIdentifier(node)) return node.name;
  if (t.isThisExpression(node)) return 'this';
  if ((t.isMemberExpression(node) || t.isOptionalMemberExpression(node)) && !node.computed && t.isIdentifier(node.property)) {
    const object = memberText(node.object);
    return object === undefined ? undefined : `${object}.${node.property.name}`;
  }
  return undefined;
}

/** Names declared by top-level variable declarations on the changed lines. */
function changedBindings(ast: t.File, lines: readonly number[]): Set<string> {
  const names = new Set<string>();
  for (const s of ast.program.body) {
    if (!t.isVariableDeclaration(s) || !s.loc) continue;
    const { start, end } = s.loc;
    if (!lines.some((l) => l >= start.line && l <= end.line)) continue;
    for (const d of s.declarations) if (t.isIdentifier(d.id)) names.add(d.id.name);
  }
  return names;
}

/** The lines inside functions that read one of the top-level names (not a shadowing binding). */
function readingLines(ast: t.File, names: ReadonlySet<string>): number[] {
  const out: number[] = [];
  if (names.size === 0) return out;
  traverse(ast, {
    Identifier(path) {
      const name = path.node.name;
      if (!names.has(name) || !path.isReferencedIdentifier() || !path.node.loc || !path.getFunctionParent()) return;
      const binding = path.scope.getBinding(name);
      if (binding && binding.scope !== path.scope.getProgramParent()) return; // shadowed
      out.push(path.node.loc.start.line);
    },
  });
  return out;
}
