import { parse } from '@babel/parser';
import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import { traverse } from '../src/parse/stripTypes.ts';

/** One function body, cut out of its file: the snippet of LExecutor's protocol. */
export interface FunctionBody {
  readonly id: string;
  readonly code: string;
  readonly lang: 'js';
  readonly package: string;
  readonly file: string;
  /** 1-based line of the function's first body line in the file. */
  readonly line: number;
  readonly name: string;
  /** Parameter names (patterns as written): missing elements of the snippet. */
  readonly params: readonly string[];
}

export interface BodyStats {
  readonly files: number;
  readonly unparsable: number;
  readonly functions: number;
  readonly tooShort: number;
  /** Bodies that cannot stand alone at top level: `super`, `yield`, `new.target`. */
  readonly contextBound: number;
}

/** Bodies with fewer non-blank lines are left out: a one-line getter says little about coverage. */
export const MIN_BODY_LINES = 3;

/**
 * Every function body of a source file with at least MIN_BODY_LINES lines: declarations,
 * expressions, arrows with a block, methods. Nested functions are candidates of their own. The
 * body's text is dedented; its parameters, closure variables, imports and `this` are left missing.
 */
export function functionBodies(source: string, pkg: string, file: string, stats: Mutable<BodyStats>): FunctionBody[] {
  stats.files++;
  let ast: t.File;
  try {
    ast = parse(source, { sourceType: 'unambiguous', plugins: ['jsx'], errorRecovery: false, allowReturnOutsideFunction: true });
  } catch {
    stats.unparsable++;
    return [];
  }
  const out: FunctionBody[] = [];
  traverse(ast, {
    Function(path: NodePath<t.Function>) {
      const body = path.node.body;
      if (!t.isBlockStatement(body) || body.start == null || body.end == null || !body.loc) return;
      stats.functions++;
      const inner = source.slice(body.start + 1, body.end - 1);
      const lines = inner.split('\n').filter((l) => l.trim() !== '');
      if (lines.length < MIN_BODY_LINES) {
        stats.tooShort++;
        return;
      }
      if (path.node.generator || usesBoundSyntax(path)) {
        stats.contextBound++;
        return;
      }
      const name = functionName(path);
      out.push({
        id: `${pkg}:${file}:${body.loc.start.line}:${name}`,
        code: dedent(inner),
        lang: 'js',
        package: pkg,
        file,
        line: body.loc.start.line,
        name,
        params: path.node.params.map((p) => (p.start == null || p.end == null ? '?' : source.slice(p.start, p.end))),
      });
    },
  });
  return out;
}

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function emptyStats(): Mutable<BodyStats> {
  return { files: 0, unparsable: 0, functions: 0, tooShort: 0, contextBound: 0 };
}

/** `super`, `new.target` or `yield` of this very function cannot run at the top level of a snippet. */
function usesBoundSyntax(fn: NodePath<t.Function>): boolean {
  let found = false;
  fn.traverse({
    Super(p) { if (ownerOf(p) === fn.node) found = true; },
    MetaProperty(p) { if (p.node.meta.name === 'new' && ownerOf(p) === fn.node) found = true; },
    YieldExpression(p) { if (p.getFunctionParent()?.node === fn.node) found = true; },
  });
  return found;
}

/** The nearest non-arrow function: the one `super` and `new.target` belong to. */
function ownerOf(p: NodePath): t.Node | undefined {
  let cur = p.getFunctionParent();
  while (cur && cur.isArrowFunctionExpression()) cur = cur.parentPath.getFunctionParent();
  return cur?.node;
}

function functionName(path: NodePath<t.Function>): string {
  const n = path.node;
  if ((t.isFunctionDeclaration(n) || t.isFunctionExpression(n)) && n.id) return n.id.name;
  if ((t.isObjectMethod(n) || t.isClassMethod(n)) && t.isIdentifier(n.key)) return n.key.name;
  const parent = path.parent;
  if (t.isVariableDeclarator(parent) && t.isIdentifier(parent.id)) return parent.id.name;
  if (t.isObjectProperty(parent) && t.isIdentifier(parent.key)) return parent.key.name;
  if (t.isAssignmentExpression(parent) && t.isMemberExpression(parent.left) && t.isIdentifier(parent.left.property)) return parent.left.property.name;
  return 'anonymous';
}

/** Removes the indentation every non-blank line shares. */
export function dedent(text: string): string {
  const lines = text.replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(cut)).join('\n') + '\n';
}

/** A seeded shuffle (mulberry32 + Fisher-Yates): the same seed picks the same sample. */
export function seededSample<T>(items: readonly T[], n: number, seed: number): T[] {
  let s = seed >>> 0;
  const random = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}
