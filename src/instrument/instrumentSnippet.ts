import { createHash } from 'node:crypto';
import _generate from '@babel/generator';
import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { Lang } from '../options.ts';
import { stripTypes, traverse } from '../parse/stripTypes.ts';
import { transformJsx } from '../parse/transformJsx.ts';
import { CoverageModel, type CoverageMap } from './coverageModel.ts';
import { coverageVisitor } from './coverageVisitor.ts';
import { markEntryPoints, type EntryPoint } from './entryPoints.ts';
import { normalizeSyntax } from './normalizeSyntax.ts';
import { pathPreferences } from './pathPreference.ts';
import { directUsage, mergeUsage, UsageKeys, type UsageTable } from './usage.ts';
import { hookVisitor, type VisitorState } from './visitor.ts';

const generate = ((_generate as unknown as { default?: unknown }).default ?? _generate) as typeof _generate.default;

export interface InstrumentedSnippet {
  /** Script to run in the isolate after the runtime: the snippet wrapped in one function. */
  readonly code: string;
  /** Name of the in-isolate hook object the code calls. */
  readonly hook: string;
  readonly map: CoverageMap;
  readonly usage: UsageTable;
  readonly async: boolean;
  /** Names the snippet declares at its top level. */
  readonly topLevelNames: readonly string[];
  /** Top-level functions the runtime calls when nothing else did (`callUncalled`). */
  readonly entryPoints: readonly EntryPoint[];
  /** The snippet returns at its top level (a function body): code appended after it would not run. */
  readonly topLevelReturn: boolean;
}

export interface InstrumentOptions {
  readonly lang: Lang;
  readonly operatorHooks: boolean;
  /** Mark top-level functions, so the ones never called can be called at the end. */
  readonly callUncalled?: boolean;
}

/** Derives the hook object's name from the source, so it cannot collide with the snippet's names. */
export function hookNameFor(source: string): string {
  return `__snx_${createHash('sha256').update(source).digest('hex').slice(0, 10)}`;
}

/** Instruments a parsed snippet in place and generates the script the sandbox runs. */
export function instrumentSnippet(ast: t.File, source: string, options: InstrumentOptions): InstrumentedSnippet {
  if (options.lang === 'ts' || options.lang === 'tsx') stripTypes(ast);
  if (options.lang === 'jsx' || options.lang === 'tsx' || containsJsx(ast)) transformJsx(ast);
  normalizeSyntax(ast);
  const hook = hookNameFor(source);
  const topLevelReturn = hasTopLevelReturn(ast);
  const entryPoints = options.callUncalled ? markEntryPoints(ast.program, hook, topLevelReturn) : [];
  let programPath: NodePath<t.Program> | undefined;
  traverse(ast, { Program(p) { programPath = p; p.stop(); } });
  programPath?.scope.crawl();
  const topLevelNames = Object.keys(programPath?.scope.bindings ?? {});

  const keys = new UsageKeys();
  const usage: UsageTable = Object.create(null) as UsageTable;
  traverse(ast, {
    Expression(path) {
      const key = keys.keyOf(path);
      const direct = directUsage(path, keys);
      if (Object.keys(direct).length > 0) usage[key] = mergeUsage(usage[key] ?? {}, direct);
    },
  });

  const model = new CoverageModel();
  const state: VisitorState = {
    model, keys, hook, source, operatorHooks: options.operatorHooks, preferences: pathPreferences(ast), blockFunctions: blockFunctionNames(ast),
    done: new WeakSet(), pending: new WeakMap(),
  };
  const isAsync = hasTopLevelAwait(ast);
  traverse(ast, traverse.visitors.merge([hookVisitor, coverageVisitor]) as never, undefined, state);

  const program = ast.program;
  const fn = t.functionExpression(null, [], t.blockStatement(program.body, program.directives), false, isAsync);
  const main = t.expressionStatement(t.callExpression(t.memberExpression(t.identifier(hook), t.identifier('main')), [fn]));
  const code = generate(t.program([main]), { comments: false, compact: false }).code;
  return { code, hook, map: model, usage, async: isAsync, topLevelNames, entryPoints, topLevelReturn };
}

function containsJsx(ast: t.File): boolean {
  let found = false;
  traverse(ast, { JSXElement(p) { found = true; p.stop(); }, JSXFragment(p) { found = true; p.stop(); } });
  return found;
}

/** `{ function f() {} } f();`: names of functions declared inside blocks, which sloppy code sees outside them. */
function blockFunctionNames(ast: t.File): Set<string> {
  const names = new Set<string>();
  traverse(ast, {
    FunctionDeclaration(p) {
      const parent = p.parentPath;
      const inBlock = (parent.isBlockStatement() && !parent.parentPath?.isFunction()) || parent.isSwitchCase();
      if (inBlock && p.node.id) names.add(p.node.id.name);
    },
  });
  return names;
}

function hasTopLevelReturn(ast: t.File): boolean {
  let found = false;
  traverse(ast, {
    Function(p) { p.skip(); },
    Class(p) { p.skip(); },
    ReturnStatement(p) { found = true; p.stop(); },
  });
  return found;
}

function hasTopLevelAwait(ast: t.File): boolean {
  let found = false;
  traverse(ast, {
    Function(p) { p.skip(); },
    AwaitExpression(p) { found = true; p.stop(); },
    ForOfStatement(p) { if (p.node.await) { found = true; p.stop(); } },
  });
  return found;
}
