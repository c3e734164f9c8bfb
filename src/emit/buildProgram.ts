import _generate from '@babel/generator';
import * as t from '@babel/types';
import type { RenderedDefinitions } from '../engine/renderDefinitions.ts';
import type { InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import { normalizeSyntax } from '../instrument/normalizeSyntax.ts';
import { parseSnippet, type ParsedSnippet } from '../parse/parseSnippet.ts';
import { lowerForTypeStripping, stripTypes, traverse } from '../parse/stripTypes.ts';
import { transformJsx } from '../parse/transformJsx.ts';
import { clockPreamble, readsClock, type ClockSettings } from './clockPreamble.ts';
import { environmentPreamble, functionsRegistration, preludeWithEnvironments, type ProgramEnvironments } from './environmentPreamble.ts';
import { drivenCalls } from './drivenCalls.ts';
import { DRIVE_REGISTRY, driveRegistrySource } from './driveRegistry.ts';
import { markDriveTargets } from '../instrument/driveTargets.ts';
import { globalMirror } from './globalMirror.ts';
import type { DriveRecord } from '../protocol/runtime.ts';

const generate = ((_generate as unknown as { default?: unknown }).default ?? _generate) as typeof _generate.default;

/** What the completed program is made of: the snippet, what the run injected, and how it ran. */
export interface ProgramParts {
  readonly parsed: Pick<ParsedSnippet, 'code' | 'lang'>;
  readonly instrumented: Pick<InstrumentedSnippet, 'async' | 'topLevelNames' | 'topLevelReturn' | 'driveTargets'>;
  readonly rendered: RenderedDefinitions;
  /** The calls the run's drive made to what nothing called. */
  readonly drives: readonly DriveRecord[];
  /** The sandbox's clock; the program installs the same one when it reads the clock. */
  readonly clock?: ClockSettings;
  /** The environments the run loaded: the program loads the same ones, from this snipexec installation. */
  readonly environments?: ProgramEnvironments;
}

/** `js`: plain JavaScript (types erased, JSX lowered). `ts`: types kept, what Node's type stripping cannot erase lowered. */
export type ProgramTarget = 'js' | 'ts';

/**
 * The completed program: the clock (when read), the definitions of everything the run injected,
 * then the snippet as the sandbox ran it (imports of injected modules read the definitions, types
 * erased, JSX lowered), then the calls drive made that its top level can reach. It runs under plain `node` as a
 * CommonJS script, with no package installed, and prints what the run printed. A run that used
 * environments (a DOM, Node's built-ins) gives a program that first loads the same ones from this
 * snipexec installation (src/emit/nodeEnvironments.ts; Node ≥ 24), and runs their drivers once
 * the snippet's timers ran out.
 */
export function buildProgram(parts: ProgramParts, target: ProgramTarget = 'js'): string {
  const { rendered, instrumented } = parts;
  // The calls drive made; the targets the top level cannot reach are registered where the snippet makes them.
  const driven = drivenCalls(instrumented.driveTargets, parts.drives, new Map(rendered.accessors), instrumented.topLevelReturn);
  const snippet = snippetSource(parts.parsed, target, driven.registered);
  const envs = parts.environments && parts.environments.loaded.length > 0 ? parts.environments : undefined;
  let code = snippet.code;
  if (!code.endsWith('\n')) code += '\n';
  if (envs && instrumented.driveTargets.some((d) => d.topLevel)) {
    const typed = target === 'ts' && (parts.parsed.lang === 'ts' || parts.parsed.lang === 'tsx');
    code = insertAfterPrologue(code, functionsRegistration(instrumented.driveTargets, envs.called), snippet.directives, typed);
  }
  // The functions nothing called are called as the run called them: once the snippet's timers ran out.
  const calls = driven.calls;
  if (calls.length > 0 && parts.clock === undefined) code += `// ---- called by snipexec: declared, never called ----\n${calls.join('\n')}\n`;
  else if (calls.length > 0) {
    if (instrumented.topLevelReturn) {
      // The snippet may return before the end: the calls go in a `finally` that runs unless it threw, on
      // the line the finally opens, so the emitted program has no line of its own left uncovered.
      code = `var __snipexec_threw = false;\ntry {\n${code}} catch (e) { __snipexec_threw = true; throw e; } finally { if (!__snipexec_threw) __snipexec_afterTimers(() => { ${calls.join(' ')} }); } // called by snipexec: declared, never called\n`;
    } else code += `__snipexec_afterTimers(() => { // ---- called by snipexec: declared, never called ----\n${calls.join('\n')}\n});\n`;
  }
  // Environments read the clock and queue their drivers after the snippet's timers: they need it.
  const withClock = parts.clock !== undefined && (envs !== undefined || calls.length > 0 || readsClock(rendered.source + code));
  // The live run keeps the snippet in its own function scope, called with the injected receiver
  // (else the global object); the program does the same when it has to: a receiver, a top-level
  // name that shadows one the definitions use (`let Promise = require('promise')`), a top-level
  // await (a CommonJS script cannot have one), or a directive such as 'use strict'; also a
  // top-level name the preambles read (`var globalThis = global` would be hoisted over them).
  // Injected globals the snippet may read through the global object are put on it (globalMirror), as the sandbox has them.
  const mirror = rendered.source === '' ? '' : globalMirror(rendered, snippet.code);
  const preambleNames = withClock || envs || mirror !== '' ? PREAMBLE_NAMES : new Set<string>();
  const shadows = instrumented.topLevelNames.some((n) => rendered.identifiers.has(n) || preambleNames.has(n));
  if (rendered.receiver !== undefined || shadows || instrumented.async || snippet.directives) {
    code = `(${instrumented.async ? 'async ' : ''}function () {\n${code}}).call(${rendered.receiver ?? 'globalThis'});\n`;
  }
  const clock = parts.clock && withClock ? `// ---- the sandbox's clock and Math.random, seeded as in the run ----\n${clockPreamble(parts.clock)}\n` : '';
  const environments = envs ? environmentPreamble(envs, rendered, clock !== '') : '';
  const definitions = envs ? preludeWithEnvironments(rendered.source) : rendered.source;
  const prelude = definitions === '' ? '' : `// ---- injected by snipexec ----\n${definitions}${mirror}`;
  const registry = snippet.registers ? `// ---- snipexec's drive registry: the functions nothing called, where the snippet makes them ----\n${driveRegistrySource()}` : '';
  const head = clock + environments + prelude + registry;
  return head + (head === '' ? '' : '// ---- snippet ----\n') + code;
}

/** Puts a statement at the start of the snippet's code, after its directive prologue ('use strict' must stay first). */
function insertAfterPrologue(code: string, statement: string, directives: boolean, typed: boolean): string {
  if (!directives) return `${statement}\n${code}`;
  let end: number | undefined;
  try {
    end = parseSnippet(code, typed ? 'ts' : 'js').ast.program.directives.at(-1)?.end ?? undefined;
  } catch {
    end = undefined; // the sandbox parsed this code; should it fail here, the statement goes first
  }
  return end === undefined ? `${statement}\n${code}` : `${code.slice(0, end)}\n${statement}${code.slice(end)}`;
}

/** The names the clock and environment preambles read at the program's top level. */
const PREAMBLE_NAMES: ReadonlySet<string> = new Set(['globalThis', 'Date', 'Math', 'Object', 'Reflect', 'String', 'Number', 'setImmediate', 'require', 'module', '__dirname', '__filename']);

/**
 * The snippet as the sandbox ran it, as source: its own text when it needs no change, else
 * regenerated from its syntax tree after the sandbox's own rewrites (types, JSX, module syntax,
 * decorators). A `#!` line becomes a comment, since the definitions come before it.
 */
function snippetSource(parsed: Pick<ParsedSnippet, 'code' | 'lang'>, target: ProgramTarget, register: ReadonlySet<number>): { code: string; directives: boolean; registers: boolean } {
  let ast: t.File;
  try {
    ast = parseSnippet(parsed.code, parsed.lang).ast;
  } catch {
    return { code: parsed.code, directives: false, registers: false };
  }
  const directives = ast.program.directives.length > 0;
  const typed = parsed.lang === 'ts' || parsed.lang === 'tsx';
  if (!typed && !needsRewrite(ast) && register.size === 0) return { code: parsed.code.replace(/^#!/, '//#!'), directives, registers: false };
  try {
    ast.program.interpreter = null;
    if (typed && target === 'js') stripTypes(ast);
    else if (typed) lowerForTypeStripping(ast);
    transformJsx(ast);
    normalizeSyntax(ast);
    // The same targets, in the same order, as the sandbox's instrumentation found (it ran these rewrites first).
    if (register.size > 0) markDriveTargets(ast, DRIVE_REGISTRY, { enter: false, only: register });
    // Lines kept where they were, when registrations were added: the program's lines are the snippet's.
    return { code: generate(ast, { comments: true, ...(register.size > 0 ? { retainLines: true } : {}) }).code, directives, registers: register.size > 0 };
  } catch {
    // The sandbox ran these same rewrites on this code; should one fail here, the program keeps the text.
    return { code: parsed.code, directives, registers: false };
  }
}

/** Syntax plain Node cannot run as a CommonJS script after the definitions: module syntax, JSX, decorators. */
function needsRewrite(ast: t.File): boolean {
  let found = false;
  traverse(ast, {
    enter(path) {
      const n = path.node;
      if (t.isImportDeclaration(n) || t.isExportDeclaration(n) || t.isJSX(n) || t.isDecorator(n)) {
        found = true;
        path.stop();
      }
    },
  });
  return found;
}

/**
 * Gives a result its `typedProgram`: the program with the snippet's TypeScript types kept, built
 * on first read (only `--emit FILE.ts` reads it), not enumerable, so JSON output never carries it.
 * For a JavaScript snippet it is the JavaScript program.
 */
export function withTypedProgram<R extends { readonly program?: string }>(result: R, parts: ProgramParts): R {
  const typed = parts.parsed.lang === 'ts' || parts.parsed.lang === 'tsx';
  let cached: string | undefined;
  Object.defineProperty(result, 'typedProgram', {
    get: () => (cached ??= typed ? buildProgram(parts, 'ts') : (result.program ?? buildProgram(parts))),
    enumerable: false,
    configurable: true,
  });
  return result;
}
