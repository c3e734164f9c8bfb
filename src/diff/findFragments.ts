import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import { langsFromFileName, parseSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';

/** A piece of a changed file run as a partial snippet. */
export interface Fragment {
  readonly file: string;
  /** The function's name, or `(top level)`. */
  readonly name: string;
  readonly kind: 'function' | 'top-level';
  /** File line of the snippet's first line: snippet line n is file line n + lineOffset. */
  readonly lineOffset: number;
  readonly startLine: number;
  readonly endLine: number;
  /** The changed file lines inside the fragment. */
  readonly changedLines: readonly number[];
  readonly code: string;
  /** Parameter and closure values read off the file (call sites, top-level constants), as source. */
  readonly hints: readonly string[];
}

/**
 * The fragments a change touched: each innermost function around a changed line, run as its
 * body with its parameters, closure variables and `this` left to fill; and, for changes outside
 * any function, the file's top level. Call sites in the file with literal arguments give the
 * parameters their values, and top-level constants with literal values are given too: those are
 * the code's own values, so an error they cause is the change's.
 */
export function findFragments(file: string, source: string, changed: ReadonlySet<number>): Fragment[] {
  const parsed = parseSnippet(source, langsFromFileName(file));
  const code = parsed.code;
  const constants = literalConstants(parsed.ast, code);
  const callArgs = literalCallArguments(parsed.ast, code);
  const names = bindingNames(parsed.ast);
  const touched = new Map<t.Function, number[]>();
  const topLevel: number[] = [];
  const functions = runnableFunctions(parsed.ast);
  for (const line of [...changed].sort((a, b) => a - b)) {
    const fn = innermostFunction(functions, line);
    if (fn) touched.set(fn, [...(touched.get(fn) ?? []), line]);
    else topLevel.push(line);
  }
  // A changed top-level binding (`const LIST = 'a,b'`) touches every function that reads it, on the lines that do.
  for (const [fn, lines] of readersOf(parsed.ast, changedBindings(parsed.ast, topLevel))) {
    if (!touched.has(fn)) touched.set(fn, lines);
  }
  const fragments: Fragment[] = [];
  for (const [fn, lines] of touched) {
    const body = fn.body as t.BlockStatement;
    if (body.start == null || body.end == null || !body.loc || !fn.loc) continue;
    const name = functionName(fn, names);
    const text = code.slice(body.start + 1, body.end - 1);
    const hints: string[] = [];
    const args = callArgs.get(name);
    fn.params.forEach((p, i) => {
      const value = args?.[i];
      if (t.isIdentifier(p) && value !== undefined) hints.push(`var ${p.name} = ${value};`);
    });
    const params = new Set(fn.params.flatMap((p) => (t.isIdentifier(p) ? [p.name] : [])));
    for (const [id, value] of constants) if (!params.has(id) && new RegExp(`\\b${id.replace(/\$/g, '\\$')}\\b`).test(text)) hints.push(`var ${id} = ${value};`);
    // The hints go on the line of the opening brace, so every line keeps its number.
    fragments.push({
      file, name, kind: 'function', lineOffset: body.loc.start.line - 1, startLine: fn.loc.start.line, endLine: fn.loc.end.line,
      changedLines: lines, code: `${hints.join(' ')}${text}`, hints,
    });
  }
  if (topLevel.length > 0) {
    fragments.push({ file, name: '(top level)', kind: 'top-level', lineOffset: 0, startLine: 1, endLine: code.split('\n').length, changedLines: topLevel, code, hints: [] });
  }
  return fragments;
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

/** The outermost functions that read one of the names, with the lines that read it. */
function readersOf(ast: t.File, names: ReadonlySet<string>): Map<t.Function, number[]> {
  const out = new Map<t.Function, number[]>();
  if (names.size === 0) return out;
  traverse(ast, {
    Identifier(path) {
      const name = path.node.name;
      if (!names.has(name) || !path.isReferencedIdentifier() || !path.node.loc) return;
      const binding = path.scope.getBinding(name);
      if (binding && binding.scope !== path.scope.getProgramParent()) return; // shadowed
      const fn = path.getFunctionParent();
      if (!fn || !t.isBlockStatement(fn.node.body) || fn.node.generator) return;
      const outer = fn.findParent((p) => p.isFunction())?.node as t.Function | undefined;
      if (outer) return; // nested: the outer function is the fragment, when it reads the name itself
      out.set(fn.node, [...(out.get(fn.node) ?? []), path.node.loc.start.line]);
    },
  });
  return out;
}

/** The functions that can run as a fragment (a block body, not a generator), outer before inner. */
function runnableFunctions(ast: t.File): t.Function[] {
  const out: t.Function[] = [];
  traverse(ast, {
    Function(path: NodePath<t.Function>) {
      if (path.node.loc && t.isBlockStatement(path.node.body) && !path.node.generator) out.push(path.node);
    },
  });
  return out;
}

/** The innermost runnable function around a line: the last one around it, as inner ones come later. */
function innermostFunction(functions: readonly t.Function[], line: number): t.Function | undefined {
  for (let i = functions.length - 1; i >= 0; i--) {
    const loc = functions[i]?.loc;
    if (loc && line >= loc.start.line && line <= loc.end.line) return functions[i];
  }
  return undefined;
}

function functionName(fn: t.Function, names: WeakMap<t.Node, string>): string {
  if ((t.isFunctionDeclaration(fn) || t.isFunctionExpression(fn)) && fn.id) return fn.id.name;
  if ((t.isObjectMethod(fn) || t.isClassMethod(fn)) && t.isIdentifier(fn.key)) return fn.key.name;
  return names.get(fn) ?? 'anonymous';
}

/** `const f = function…` / `const f = (…) => …`: the name a function is bound to and called by. */
function bindingNames(ast: t.File): WeakMap<t.Node, string> {
  const names = new WeakMap<t.Node, string>();
  traverse(ast, {
    VariableDeclarator(path) {
      const init = path.node.init;
      if (t.isIdentifier(path.node.id) && (t.isFunctionExpression(init) || t.isArrowFunctionExpression(init))) names.set(init, path.node.id.name);
    },
  });
  return names;
}

const isLiteral = (n: t.Node | null | undefined): boolean =>
  t.isStringLiteral(n) || t.isNumericLiteral(n) || t.isBooleanLiteral(n) || t.isNullLiteral(n) || (t.isTemplateLiteral(n) && n.expressions.length === 0) ||
  (t.isUnaryExpression(n, { operator: '-' }) && t.isNumericLiteral(n.argument)) ||
  (t.isArrayExpression(n) && n.elements.every((e) => isLiteral(e))) ||
  (t.isObjectExpression(n) && n.properties.every((p) => t.isObjectProperty(p) && !p.computed && isLiteral(p.value as t.Node)));

/** Top-level `const X = <literal>`, by name, as source. */
function literalConstants(ast: t.File, code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of ast.program.body) {
    if (!t.isVariableDeclaration(s)) continue;
    for (const d of s.declarations) if (t.isIdentifier(d.id) && d.init && isLiteral(d.init)) out.set(d.id.name, code.slice(d.init.start ?? 0, d.init.end ?? 0));
  }
  return out;
}

/** For each function name, the literal arguments of its first call site in the file that has any. */
function literalCallArguments(ast: t.File, code: string): Map<string, (string | undefined)[]> {
  const out = new Map<string, (string | undefined)[]>();
  traverse(ast, {
    CallExpression(path) {
      const callee = path.node.callee;
      const name = t.isIdentifier(callee) ? callee.name : t.isMemberExpression(callee) && t.isIdentifier(callee.property) ? callee.property.name : undefined;
      if (name === undefined || out.has(name)) return;
      const args = path.node.arguments.map((a) => (isLiteral(a) ? code.slice(a.start ?? 0, a.end ?? 0) : undefined));
      if (args.some((a) => a !== undefined)) out.set(name, args);
    },
  });
  return out;
}
