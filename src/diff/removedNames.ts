import type { NodePath } from '@babel/traverse';
import globals from 'globals';
import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import type { ReportedError, RunResult } from '../core/runResult.ts';

/** Names every CommonJS module has, which no scope of the file declares. */
const MODULE_SCOPE = new Set(['require', 'module', 'exports', '__dirname', '__filename']);
/** The globals some environment a module may run in provides (the `globals` package's lists): never `undeclared`. */
const ENVIRONMENT_GLOBALS: ReadonlySet<string> = new Set((['builtin', 'browser', 'node', 'worker', 'serviceworker', 'amd', 'commonjs', 'jquery'] as const).flatMap((env) => Object.keys(globals[env])));

/** The names a file's code reaches the global object by: `globalThis.navigator`, `'navigator' in window`. */
const GLOBAL_OBJECTS: ReadonlySet<string> = new Set(['globalThis', 'window', 'self', 'global']);

/**
 * Why a free name of the changed version is the change's: the base declared it, nothing ever did,
 * or the base tested whether the global exists and the change uses it with no such test.
 */
export type Undeclared = 'removed' | 'undeclared' | 'unguarded';

/** A use of such a name: the ReferenceError it raises, and whether a run reached its line. */
export interface UndeclaredUse {
  readonly name: string;
  readonly error: ReportedError;
  readonly how: Undeclared;
  readonly reached: boolean;
}

/**
 * The free names the change introduces: used free in the changed version (no declaration or
 * import in the file defines them) and not in the base version. `removed` when the base declared
 * the name (a deleted `const x = require('x')` or `var result`); `undeclared` when nothing did
 * and the file is a module and no environment's globals hold the name (a misspelt or forgotten name).
 * `unguarded`: a global the base tested for presence (`'navigator' in globalThis`, `typeof window`),
 * which its authors believe some environment lacks, used free by the changed version with no test
 * anywhere (the guard was dropped): a ReferenceError where it is absent, whichever environment the
 * run gave it. Other names both versions use free stay injected, as every free name of a snippet is.
 */
export function introducedNames(base: FileNames, changed: FileNames): Map<string, Undeclared> {
  const out = new Map<string, Undeclared>();
  for (const name of changed.free.keys()) {
    if (base.tested.has(name) && !changed.tested.has(name) && !changed.declared.has(name)) {
      out.set(name, 'unguarded');
      continue;
    }
    if (base.free.has(name) || MODULE_SCOPE.has(name) || name in globalThis) continue;
    if (base.declared.has(name)) out.set(name, 'removed');
    else if (changed.module && !ENVIRONMENT_GLOBALS.has(name)) out.set(name, 'undeclared');
  }
  return out;
}

/**
 * The ReferenceErrors of the introduced names, with V8's message: at the first use a run reached,
 * else at the first use (`reached` false: no run got there). Uses under `typeof` do not throw.
 */
export function undeclaredUses(changed: FileNames, names: ReadonlyMap<string, Undeclared>, results: readonly RunResult[]): UndeclaredUse[] {
  if (names.size === 0) return [];
  const ran = new Set(results.flatMap((r) => {
    const uncovered = new Set(r.lines.uncovered);
    return r.lines.measured.filter((l) => !uncovered.has(l));
  }));
  const out: UndeclaredUse[] = [];
  for (const [name, how] of names) {
    const uses = changed.free.get(name) ?? [];
    const use = uses.find((u) => ran.has(u.line)) ?? uses[0];
    if (use) out.push({ name, error: { type: 'ReferenceError', message: `${name} is not defined`, line: use.line, column: use.column, attribution: 'snippet' }, how, reached: ran.has(use.line) });
  }
  return out;
}

/** What a version of a file declares and uses free. */
export interface FileNames {
  /** Free names, each with its uses (1-based line and column), typeof operands left out. */
  readonly free: Map<string, { line: number; column: number }[]>;
  /** Every name some scope of the file declares. */
  readonly declared: Set<string>;
  /** Globals the file tests for presence: `typeof x` of a free `x`, `'x' in globalThis`, `globalThis.x` as a condition. */
  readonly tested: Set<string>;
  /** An ES module: it has import or export statements. */
  readonly esm: boolean;
  /** A module of either kind: an ES module, or one that uses `require`, `module` or `exports`. */
  readonly module: boolean;
}

/** The names of a parsed file (parseSnippet). */
export function fileNames(parsed: ParsedSnippet): FileNames {
  const free = new Map<string, { line: number; column: number }[]>();
  const declared = new Set<string>();
  const tested = new Set<string>();
  const esm = parsed.ast.program.body.some((s) => t.isImportDeclaration(s) || t.isExportDeclaration(s));
  let commonjs = false;
  traverse(parsed.ast, {
    Scopable(path: NodePath<t.Scopable>) {
      for (const name of Object.keys(path.scope.bindings)) declared.add(name);
    },
    ReferencedIdentifier(path: NodePath<t.Identifier | t.JSXIdentifier>) {
      const node = path.node;
      if (node.type !== 'Identifier' || !node.loc || path.scope.hasBinding(node.name, { noGlobals: true })) return;
      if (MODULE_SCOPE.has(node.name)) commonjs = true;
      if (path.parentPath?.isUnaryExpression({ operator: 'typeof' })) {
        tested.add(node.name);
        return;
      }
      if (GLOBAL_OBJECTS.has(node.name)) {
        const tests = globalTest(path);
        if (tests !== undefined) tested.add(tests);
      }
      free.set(node.name, [...(free.get(node.name) ?? []), { line: node.loc.start.line, column: node.loc.start.column + 1 }]);
    },
  });
  return { free, declared, tested, esm, module: esm || commonjs };
}

/**
 * The global a use of the global object tests for presence: `'x' in globalThis`, or `globalThis.x`
 * as a condition (an `if`, `?:` or `!` operand, the left of `&&`, `||`, `??`, compared with
 * `undefined` or `null`).
 */
function globalTest(path: NodePath): string | undefined {
  const parent = path.parentPath;
  if (parent?.isBinaryExpression({ operator: 'in' }) && parent.node.right === path.node && t.isStringLiteral(parent.node.left)) return parent.node.left.value;
  if (!parent?.isMemberExpression() || parent.node.object !== path.node) return undefined;
  const key = parent.node.computed ? (t.isStringLiteral(parent.node.property) ? parent.node.property.value : undefined) : t.isIdentifier(parent.node.property) ? parent.node.property.name : undefined;
  const up = parent.parentPath;
  if (key === undefined || !up) return undefined;
  const self = parent.node;
  const isCondition = (up.isIfStatement() && up.node.test === self) || (up.isConditionalExpression() && up.node.test === self)
    || up.isUnaryExpression({ operator: '!' }) || (up.isLogicalExpression() && up.node.left === self)
    || (up.isBinaryExpression() && ['==', '===', '!=', '!=='].includes(up.node.operator) && [up.node.left, up.node.right].some((o) => t.isNullLiteral(o) || t.isIdentifier(o, { name: 'undefined' })));
  return isCondition ? key : undefined;
}
