import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { langsFromFileName, parseSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import type { ReportedError, RunResult } from '../report/buildResult.ts';

/** Names every CommonJS module has, which no scope of the file declares. */
const MODULE_SCOPE = new Set(['require', 'module', 'exports', '__dirname', '__filename']);

/**
 * The change's ReferenceErrors: a name the changed version uses free (no declaration or import in
 * the file defines it) that the base version declared, at its first use on a line the changed
 * version's run executed, with V8's message. A name free in both versions (a global the snippet
 * needs) is not one: it stays injected. Uses under `typeof` do not throw and are left out.
 */
export function removedNames(before: string, after: string, file: string, result: RunResult): ReportedError[] {
  let base: Names;
  let changed: Names;
  try {
    base = namesOf(before, file);
    changed = namesOf(after, file);
  } catch {
    return []; // the base does not parse: nothing to compare with
  }
  const ran = new Set(result.lines.measured.filter((l) => !result.lines.uncovered.includes(l)));
  const out: ReportedError[] = [];
  for (const [name, uses] of changed.free) {
    if (base.free.has(name) || !base.declared.has(name) || MODULE_SCOPE.has(name) || name in globalThis) continue;
    const use = uses.find((u) => ran.has(u.line));
    if (use) out.push({ type: 'ReferenceError', message: `${name} is not defined`, line: use.line, column: use.column, attribution: 'snippet' });
  }
  return out;
}

interface Names {
  /** Free names, each with its uses (1-based line and column), typeof operands left out. */
  readonly free: Map<string, { line: number; column: number }[]>;
  /** Every name some scope of the file declares. */
  readonly declared: Set<string>;
}

function namesOf(source: string, file: string): Names {
  const parsed = parseSnippet(source, langsFromFileName(file));
  const free = new Map<string, { line: number; column: number }[]>();
  const declared = new Set<string>();
  traverse(parsed.ast, {
    Scopable(path: NodePath<t.Scopable>) {
      for (const name of Object.keys(path.scope.bindings)) declared.add(name);
    },
    ReferencedIdentifier(path: NodePath<t.Identifier | t.JSXIdentifier>) {
      const node = path.node;
      if (node.type !== 'Identifier' || !node.loc || path.scope.hasBinding(node.name, { noGlobals: true })) return;
      if (path.parentPath?.isUnaryExpression({ operator: 'typeof' })) return;
      free.set(node.name, [...(free.get(node.name) ?? []), { line: node.loc.start.line, column: node.loc.start.column + 1 }]);
    },
  });
  return { free, declared };
}
