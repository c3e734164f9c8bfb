import { createHash } from 'node:crypto';
import _generate from '@babel/generator';
import type { NodePath, Scope, Visitor } from '@babel/traverse';
import { nullThrows } from '../core/errors.ts';
import * as t from '@babel/types';
import type { Lang } from '../core/options.ts';
import { stripTypes, traverse } from '../parse/stripTypes.ts';
import { transformJsx } from '../parse/transformJsx.ts';
import type { DeadlineCheck } from '../core/hostDeadline.ts';
import { HOOKS } from '../protocol/hooks.ts';
import { CoverageModel, type CoverageMap } from './coverageModel.ts';
import { coverageVisitor } from './coverageVisitor.ts';
import { locateSiteCalls, positionTable } from './stackPositions.ts';
import { applyDeclarations, collectDeclarations, DECLARED_VISITOR, mayDeclareTypes, typesTreeNodes, type DeclaredAt, type DeclaredState } from './declaredTypes.ts';
import { markDriveTargets, type DriveTarget } from './driveTargets.ts';
import { normalizeSyntax } from './normalizeSyntax.ts';
import { pathPreferences } from './pathPreference.ts';
import { syntaxFacts, treeFacts } from './treeFacts.ts';
import { directUsage, mergeUsage, UsageKeys, type UsageTable } from './usage.ts';
import { hookVisitor, type VisitorState } from './visitor.ts';

const generate = ((_generate as unknown as { default?: unknown }).default ?? _generate) as typeof _generate.default;

export interface InstrumentedSnippet {
  /** Script to run in the isolate after the runtime: evaluates to `(hook) => { hook.main(function () { <snippet> }) }`. */
  readonly code: string;
  /** Name of the parameter through which the code reaches the runtime's hooks. */
  readonly hook: string;
  /**
   * The name Function.prototype.toString shows in its place: the one derived from the source alone.
   * With a salt the hook's own name is unguessable, and no function's text gives it away.
   */
  readonly shownHook: string;
  readonly map: CoverageMap;
  readonly usage: UsageTable;
  readonly async: boolean;
  /** Names the snippet declares at its top level. */
  readonly topLevelNames: readonly string[];
  /**
   * The functions the snippet defines, registered with the runtime whatever the options: environments
   * see the top-level ones (`topLevelFunctions`), and with `drive` the runtime calls the ones nothing called.
   */
  readonly driveTargets: readonly DriveTarget[];
  /** Whether the runtime calls the drive targets nothing called (`drive`). */
  readonly drive: boolean;
  /** The snippet returns at its top level (a function body): code appended after it would not run. */
  readonly topLevelReturn: boolean;
  /** Generated-to-original positions, for the runtime to print stack frames as the original code's (stackPositions.ts). */
  readonly positions: readonly number[];
  /** The snippet as lowered before instrumentation, when asked for (`keepLowered`). */
  readonly lowered?: LoweredSnippet;
}

/**
 * The snippet after the sandbox's rewrites (types erased, JSX lowered, syntax normalised) and before
 * instrumentation: the completed program is generated from it (src/emit/buildProgram.ts), so a
 * snippet is parsed and lowered once.
 */
export interface LoweredSnippet {
  /** A copy of the lowered tree, without its `#!` line; instrumentation never touches it. */
  readonly ast: t.File;
  /** The snippet has a directive prologue ('use strict'). */
  readonly directives: boolean;
  /** The snippet holds syntax plain Node cannot run as a CommonJS script after the definitions: module syntax, JSX, decorators. */
  readonly rewrite: boolean;
}

export interface InstrumentOptions {
  readonly lang: Lang;
  readonly operatorHooks: boolean;
  /** Call the functions nothing called, after the snippet (drive). */
  readonly drive?: boolean;
  /** Lines the parser's repair blanked out: measured, and never covered. */
  readonly droppedLines?: readonly number[];
  /** The snippet's wall budget: checked between passes and every few thousand nodes inside one. */
  readonly deadline?: DeadlineCheck;
  /** Mixed into the hook's name (a random one per run of a snippet): the name is then derivable from nothing the snippet can read. */
  readonly hookSalt?: string;
  /** Keep a copy of the lowered snippet (`lowered`), for the completed program. */
  readonly keepLowered?: boolean;
}

/**
 * Derives the hook's name from the source, so it cannot collide with the snippet's names: a source
 * cannot hold its own hash, and should it hold the name anyway (as text, or as the start of a
 * longer name), the next salted hash is taken. The name must occur nowhere in the source: the
 * runtime refuses a direct eval whose code names it, and `with` hides every name it begins.
 */
export function hookNameFor(source: string, secret = ''): string {
  for (let salt = 0; ; salt++) {
    const name = `__snx_${createHash('sha256').update(salt === 0 && secret === '' ? source : `${secret}${salt}\0${source}`).digest('hex').slice(0, 10)}`;
    if (!source.includes(name)) return name;
  }
}

/** Instruments a parsed snippet in place and generates the script the sandbox runs. */
export function instrumentSnippet(ast: t.File, source: string, options: InstrumentOptions): InstrumentedSnippet {
  const check = (phase: string) => options.deadline?.check(phase);
  // Read before the rewrites: what the snippet itself holds.
  const syntax = options.keepLowered || (options.lang !== 'jsx' && options.lang !== 'tsx') ? syntaxFacts(ast) : undefined;
  const kept = options.keepLowered ? { directives: ast.program.directives.length > 0, rewrite: syntax?.rewrite === true } : undefined;
  const typed = options.lang === 'ts' || options.lang === 'tsx';
  // Read before stripping: the annotations go with the types.
  const declarations = mayDeclareTypes(source, typed) ? collectDeclarations(ast, source) : undefined;
  if (typed) stripTypes(ast);
  check('stripping types');
  if (options.lang === 'jsx' || options.lang === 'tsx' || syntax?.jsx) transformJsx(ast);
  check('transforming JSX');
  normalizeSyntax(ast, options.deadline ? tickerOf(options.deadline, 'normalizing syntax') : undefined);
  check('normalizing syntax');
  const lowered = kept && { ...kept, ast: loweredCopy(ast) };
  const shownHook = hookNameFor(source);
  const hook = options.hookSalt === undefined ? shownHook : hookNameFor(source, options.hookSalt);
  const driven: { target: DriveTarget; fn: t.Function }[] = [];
  const driveTargets = markDriveTargets(ast, hook, { found: (target, fn) => driven.push({ target, fn }) });
  const programScope = crawledProgramScope(ast);
  const topLevelNames = Object.keys(programScope.bindings);
  check('reading scopes');

  const keys = new UsageKeys();
  const usage: UsageTable = Object.create(null) as UsageTable;
  const usageTick = options.deadline ? tickerOf(options.deadline, 'usage analysis') : undefined;
  // One walk for the usage and what the declarations type: written into the table after it.
  const met: DeclaredAt[] = [];
  const usageState: UsageState = { keys, usage, ...(usageTick ? { tick: usageTick } : {}) };
  if (typesTreeNodes(declarations)) traverse(ast, USAGE_AND_DECLARED, undefined, { ...usageState, declarations, met });
  else traverse(ast, USAGE_VISITOR, undefined, usageState);
  applyDeclarations(declarations, keys, usage, driven, met);

  const model = new CoverageModel();
  for (const line of options.droppedLines ?? []) model.newDroppedLine(line);
  const visitTick = options.deadline ? tickerOf(options.deadline, 'instrumentation') : undefined;
  const facts = treeFacts(ast);
  const state: TickedState = {
    model, keys, hook, source, operatorHooks: options.operatorHooks, preferences: pathPreferences(facts.nodes), blockFunctions: facts.blockFunctions,
    done: new WeakSet(), thrown: new WeakSet(), pending: new WeakMap(), selfCompared: new WeakSet(), siteCalls: [], ...(visitTick ? { tick: visitTick } : {}),
  };
  const isAsync = facts.topLevelAwait;
  check('path preferences');
  traverse(ast, visitTick ? INSTRUMENT_TICKED : INSTRUMENT, undefined, state);
  model.finishFunctions();
  check('generating code');

  const program = ast.program;
  const fn = t.functionExpression(null, [], t.blockStatement(program.body, program.directives), false, isAsync);
  const main = t.expressionStatement(t.callExpression(t.memberExpression(t.identifier(hook), t.identifier(HOOKS.main)), [fn]));
  // The script evaluates to an arrow the runtime calls with its hooks: no global holds them, and an
  // arrow has no `.arguments` a stack-trace trick could read them from.
  const wrapper = t.expressionStatement(t.arrowFunctionExpression([t.identifier(hook)], t.blockStatement([main])));
  const generated = t.program([wrapper]);
  locateSiteCalls(state.siteCalls, model.sites);
  const output = generate(generated, { comments: false, compact: false, sourceMaps: true, sourceFileName: 'snippet' });
  // The decoded mappings are on the result, though @babel/generator's types leave them out.
  const positions = positionTable((output as { decodedMap?: { mappings: number[][][] } }).decodedMap?.mappings ?? []);
  return { code: output.code, hook, shownHook, map: model, usage, async: isAsync, topLevelNames, driveTargets, drive: options.drive === true, topLevelReturn: facts.topLevelReturn, positions, ...(lowered ? { lowered } : {}) };
}

/** A copy of the lowered tree for the completed program: a `#!` line becomes nothing there, since the definitions come first. */
function loweredCopy(ast: t.File): t.File {
  const program = t.cloneNode(ast.program, true);
  program.interpreter = null;
  return t.file(program);
}

/** Stops at the program, whose path it keeps; made (and exploded by Babel) once. */
const PROGRAM_PATH: Visitor<{ path?: NodePath<t.Program> }> = {
  Program(path, state) {
    state.path = path;
    path.stop();
  },
};

/**
 * The program's scope, crawled once after the rewrites: a scope kept from an earlier pass (the
 * parser's crawl) is crawled again; one made just now was crawled as it was made (Scope#init).
 */
function crawledProgramScope(ast: t.File): Scope {
  const kept = traverse.cache.scope.get(ast.program);
  const found: { path?: NodePath<t.Program> } = {};
  traverse(ast, PROGRAM_PATH, undefined, found);
  const scope = nullThrows(found.path, 'a file has a program').scope;
  if (scope === kept) scope.crawl();
  return scope;
}

/** A traversal's state with the deadline's check, called on every node. */
type TickedState = VisitorState & { readonly tick?: () => void };

interface UsageState {
  readonly keys: UsageKeys;
  readonly usage: UsageTable;
  readonly tick?: () => void;
}

// The visitors are made (and exploded by Babel, which expands aliases such as Expression) once, not per snippet.

/** Reads how each expression's value is used, before instrumentation rewrites the tree. */
const USAGE_VISITOR: Visitor<UsageState> = {
  Expression(path, state) {
    state.tick?.();
    const key = state.keys.keyOf(path);
    const direct = directUsage(path, state.keys);
    if (Object.keys(direct).length > 0) state.usage[key] = mergeUsage(state.usage[key] ?? {}, direct);
  },
};

/** The usage pass noting, as it goes, what the snippet's declarations type. */
const USAGE_AND_DECLARED = traverse.visitors.merge<UsageState & DeclaredState>([USAGE_VISITOR, DECLARED_VISITOR] as Visitor<UsageState & DeclaredState>[]);

/** The hook and coverage visitors in one traversal; with the deadline's check on every node after them. */
const INSTRUMENT = traverse.visitors.merge<TickedState>([hookVisitor, coverageVisitor] as Visitor<TickedState>[]);
const INSTRUMENT_TICKED = traverse.visitors.merge<TickedState>([hookVisitor, coverageVisitor, { enter: (_path, state) => state.tick?.() }] as Visitor<TickedState>[]);

/** A check to call on every node: the deadline is read once every 2,048 calls. */
function tickerOf(deadline: DeadlineCheck, phase: string): () => void {
  let n = 0;
  return () => {
    if (++n % 2048 === 0) deadline.check(phase);
  };
}
