import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';

/** How the code uses a string literal: it tests a string against it (`=== 'Z'`, `case 'Z':`) or searches a string for it (`split(':')`). */
export type LiteralUse = 'compare' | 'search';

/** A string the changed code tests its inputs against: a token, a delimiter, a keyword. */
export interface CodeLiteral {
  readonly value: string;
  readonly line: number;
  readonly use: LiteralUse;
  /** On a changed line; otherwise on a line the changed lines depend on (a variable's definition they read, a test around them). */
  readonly changed: boolean;
}

/** String methods whose first argument is a string searched for in the receiver. */
const SEARCHES: ReadonlySet<string> = new Set(['indexOf', 'lastIndexOf', 'includes', 'split', 'startsWith', 'endsWith', 'replace', 'replaceAll', 'match', 'search']);
/** Comparison operators a string literal is an operand of. */
const EQUALITIES: ReadonlySet<string> = new Set(['===', '!==', '==', '!=']);
/** Longer literals are messages or markup, not tokens the code parses its input by. */
const MAX_LITERAL = 40;

/**
 * The string literals the changed code tests strings against, in source order: on a changed
 * line, an operand of `===`/`!==`/`==`/`!=`, a `case` label, or the first argument of a string
 * search (`indexOf`, `includes`, `split`, `startsWith`, `endsWith`, `replace`, `match`, …). Then
 * the same on the unchanged lines the changed lines depend on within their function: the
 * definitions (declaration or assignment, above the use) of the local variables they read,
 * transitively, and the tests of the `if`/`switch`/`?:`/loops around them. A bug that shows only
 * on input holding such a token (a format with `Z`, a value with the `,` the new code splits on)
 * is out of reach of learnt values ('example'), which the code's own literals fill in (literalEdges).
 * A regular expression counts when it matches one string only (`split(/,/)`, `replace(/^\?/, '')`).
 */
export function changedLiterals(parsed: ParsedSnippet, changed: ReadonlySet<number>): CodeLiteral[] {
  const uses = new Map<t.Node, LiteralUse>();
  const onChanged: NodePath<t.Identifier>[] = [];
  const roots: NodePath[] = [];
  traverse(parsed.ast, {
    StringLiteral(path: NodePath<t.StringLiteral>) {
      const use = useOf(path);
      if (use && valueOf(path.node) !== undefined) uses.set(path.node, use);
    },
    TemplateLiteral(path: NodePath<t.TemplateLiteral>) {
      const use = useOf(path);
      if (use && valueOf(path.node) !== undefined) uses.set(path.node, use);
    },
    RegExpLiteral(path: NodePath<t.RegExpLiteral>) {
      if (useOf(path) === 'search' && valueOf(path.node) !== undefined) uses.set(path.node, 'search');
    },
    Identifier(path: NodePath<t.Identifier>) {
      if (path.isReferencedIdentifier() && changed.has(lineOf(path.node))) onChanged.push(path);
    },
    Statement(path: NodePath<t.Statement>) {
      // The innermost statements on a changed line: the tests around them are what they depend on.
      if (changed.has(lineOf(path.node)) && !path.isBlockStatement()) roots.push(path);
    },
  });
  const found = new Map<t.Node, boolean>();
  for (const node of uses.keys()) if (changed.has(lineOf(node))) found.set(node, true);
  const seen = new Set<t.Node>();
  const queue: NodePath[] = [];
  const depend = (path: NodePath | undefined) => {
    if (!path?.node || seen.has(path.node)) return;
    seen.add(path.node);
    queue.push(path);
  };
  for (const root of roots) for (const test of testsAround(root)) depend(test);
  const definitionsOf = (ref: NodePath<t.Identifier>): NodePath[] => {
    const binding = ref.scope.getBinding(ref.node.name);
    const fn = ref.getFunctionParent();
    if (!binding || !fn || binding.scope.getFunctionParent() !== fn.scope || binding.kind === 'param') return [];
    const line = lineOf(ref.node);
    const defs: NodePath[] = [];
    if (binding.path.isVariableDeclarator() && binding.path.node.init) defs.push(binding.path.get('init') as NodePath);
    for (const v of binding.constantViolations) if (v.isAssignmentExpression()) defs.push(v.get('right'));
    return defs.filter((d) => lineOf(d.node) <= line);
  };
  for (const ref of onChanged) for (const d of definitionsOf(ref)) depend(d);
  while (queue.length > 0) {
    const at = queue.shift()!;
    const inner: NodePath<t.Identifier>[] = [];
    const visit = (path: NodePath) => {
      if (uses.has(path.node) && !found.has(path.node)) found.set(path.node, false);
      if (path.isIdentifier() && path.isReferencedIdentifier()) inner.push(path);
    };
    visit(at);
    at.traverse({ enter: visit });
    for (const ref of inner) for (const d of definitionsOf(ref)) depend(d);
  }
  const out: CodeLiteral[] = [];
  for (const [node, isChanged] of found) {
    const value = valueOf(node)!;
    out.push({ value, line: lineOf(node), use: uses.get(node)!, changed: isChanged });
  }
  return out.sort((a, b) => a.line - b.line);
}

/** How a literal's parent uses it, if it tests a string against it. */
function useOf(path: NodePath<t.StringLiteral | t.TemplateLiteral | t.RegExpLiteral>): LiteralUse | undefined {
  const { parent, node } = path;
  // Not a type's name (`typeof key === 'object'`): the input's type, not its text.
  if (t.isBinaryExpression(parent) && EQUALITIES.has(parent.operator)) return [parent.left, parent.right].some((o) => t.isUnaryExpression(o, { operator: 'typeof' })) ? undefined : 'compare';
  if (t.isSwitchCase(parent) && parent.test === node) return 'compare';
  if (t.isCallExpression(parent) && parent.arguments[0] === node && t.isMemberExpression(parent.callee)) {
    const p = parent.callee.property;
    const name = t.isIdentifier(p) && !parent.callee.computed ? p.name : t.isStringLiteral(p) ? p.value : undefined;
    if (name !== undefined && SEARCHES.has(name)) return 'search';
  }
  return undefined;
}

/** A literal's string: a plain string, a template without substitutions, or a regular expression that matches one string (PLAIN_PATTERN); none when empty or too long. */
function valueOf(node: t.Node): string | undefined {
  const value = t.isStringLiteral(node) ? node.value : t.isTemplateLiteral(node) && node.expressions.length === 0 ? node.quasis[0]?.value.cooked ?? undefined : t.isRegExpLiteral(node) ? plainPattern(node.pattern) : undefined;
  return value !== undefined && value.length > 0 && value.length <= MAX_LITERAL ? value : undefined;
}

/** A pattern of plain characters and escaped punctuation, anchors aside (`/,/`, `/^\?/`, `/\r\n/` not: an escape of a letter is a class). */
const PLAIN_PATTERN = /^\^?((?:[^\\^$.|?*+()[\]{}]|\\[^A-Za-z0-9])+)\$?$/;

/** The one string a regular expression of plain characters matches (`/^\?/` → `?`); undefined for a real pattern. */
function plainPattern(pattern: string): string | undefined {
  const m = PLAIN_PATTERN.exec(pattern);
  return m ? m[1]!.replace(/\\(.)/g, '$1') : undefined;
}

/** The tests of the decisions around a statement, up to its function: whether it runs depends on them. */
function testsAround(path: NodePath): NodePath[] {
  const tests: NodePath[] = [];
  for (let p: NodePath | null = path.parentPath; p && !p.isFunction() && !p.isProgram(); p = p.parentPath) {
    if (p.isIfStatement() || p.isConditionalExpression() || p.isWhileStatement() || p.isDoWhileStatement() || p.isForStatement() || p.isSwitchCase()) {
      const test = p.get('test') as NodePath;
      if (test.node) tests.push(test);
    } else if (p.isSwitchStatement()) tests.push(p.get('discriminant'));
  }
  return tests;
}

function lineOf(node: t.Node): number {
  return node.loc?.start.line ?? 0;
}
