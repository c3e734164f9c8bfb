import _generate from '@babel/generator';
import * as t from '@babel/types';
import type { RenderedDefinitions } from './renderedDefinitions.ts';
import type { InstrumentedSnippet, LoweredSnippet } from '../instrument/instrumentSnippet.ts';
import { needsRewrite } from '../instrument/treeFacts.ts';
import { normalizeSyntax } from '../instrument/normalizeSyntax.ts';
import { parseSnippet, type ParsedSnippet } from '../parse/parseSnippet.ts';
import { lowerForTypeStripping, stripTypes } from '../parse/stripTypes.ts';
import { transformJsx } from '../parse/transformJsx.ts';
import { clockPreamble, readsClock, type ClockSettings } from './clockPreamble.ts';
import { environmentPreamble, functionsRegistration, preludeWithEnvironments, type ProgramEnvironments } from './environmentPreamble.ts';
import { drivenCalls } from './drivenCalls.ts';
import { DRIVE_REGISTRY, driveRegistrySource } from './driveRegistry.ts';
import { markDriveTargets } from '../instrument/driveTargets.ts';
import { globalMirror } from './globalMirror.ts';
import { nullThrows } from '../core/errors.ts';
import type { DriveRecord } from '../protocol/runtime.ts';
import type { ProgramLayout, ProgramTarget } from '../core/runDetail.ts';

const generate = ((_generate as unknown as { default?: unknown }).default ?? _generate) as typeof _generate.default;

/** What the completed program is made of: the snippet, what the run injected, and how it ran. */
export interface ProgramParts {
  readonly parsed: Pick<ParsedSnippet, 'code' | 'lang'>;
  readonly instrumented: Pick<InstrumentedSnippet, 'async' | 'topLevelNames' | 'topLevelReturn' | 'driveTargets' | 'lowered'>;
  readonly rendered: RenderedDefinitions;
  /** The calls the run's drive made to what nothing called. */
  readonly drives: readonly DriveRecord[];
  /** The sandbox's clock; the program installs the same one when it reads the clock. */
  readonly clock?: ClockSettings;
  /** The environments the run loaded: the program loads the same ones, from this snipexec installation. */
  readonly environments?: ProgramEnvironments;
}


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
  return assemble(parts, target, false).code;
}

/** The completed program (buildProgram's text, byte for byte) and where the snippet's lines went in it. */
export function programLayout(parts: ProgramParts, target: ProgramTarget = 'js'): ProgramLayout {
  const { code, lines } = assemble(parts, target, true);
  return { code, snippetLines: nullThrows(lines, 'assemble maps the lines when asked') };
}

/** buildProgram's work; with `mapLines`, it also follows the snippet's lines through every text it puts before them. */
function assemble(parts: ProgramParts, target: ProgramTarget, mapLines: boolean): { code: string; lines?: LineMap } {
  const { rendered, instrumented } = parts;
  // The calls drive made; the targets the top level cannot reach are registered where the snippet makes them.
  const driven = drivenCalls(instrumented.driveTargets, parts.drives, new Map(rendered.accessors), instrumented.topLevelReturn);
  const snippet = snippetSource(parts.parsed, instrumented.lowered, target, driven.registered, mapLines);
  let lines = snippet.lines;
  const envs = parts.environments && parts.environments.loaded.length > 0 ? parts.environments : undefined;
  let code = snippet.code;
  if (!code.endsWith('\n')) code += '\n';
  if (envs && instrumented.driveTargets.some((d) => d.topLevel)) {
    const typed = target === 'ts' && (parts.parsed.lang === 'ts' || parts.parsed.lang === 'tsx');
    const insertion = afterPrologue(code, functionsRegistration(instrumented.driveTargets, envs.called), snippet.directives, typed);
    lines = lines && shiftLines(lines, code, insertion.at, insertion.text);
    code = code.slice(0, insertion.at) + insertion.text + code.slice(insertion.at);
  }
  // The functions nothing called are called as the run called them: once the snippet's timers ran out.
  const calls = driven.calls;
  if (calls.length > 0 && parts.clock === undefined) code += `// ---- called by snipexec: declared, never called ----\n${calls.join('\n')}\n`;
  else if (calls.length > 0) {
    if (instrumented.topLevelReturn) {
      // The snippet may return before the end: the calls go in a `finally` that runs unless it threw, on
      // the line the finally opens, so the emitted program has no line of its own left uncovered.
      const opening = 'var __snipexec_threw = false;\ntry {\n';
      lines = lines && shiftLines(lines, code, 0, opening);
      code = `${opening}${code}} catch (e) { __snipexec_threw = true; throw e; } finally { if (!__snipexec_threw) __snipexec_afterTimers(() => { ${calls.join(' ')} }); } // called by snipexec: declared, never called\n`;
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
    const opening = `(${instrumented.async ? 'async ' : ''}function () {\n`;
    lines = lines && shiftLines(lines, code, 0, opening);
    code = `${opening}${code}}).call(${rendered.receiver ?? 'globalThis'});\n`;
  }
  const clock = parts.clock && withClock ? `// ---- the sandbox's clock and Math.random, seeded as in the run ----\n${clockPreamble(parts.clock)}\n` : '';
  const environments = envs ? environmentPreamble(envs, rendered, clock !== '') : '';
  const definitions = envs ? preludeWithEnvironments(rendered.source) : rendered.source;
  const prelude = definitions === '' ? '' : `// ---- injected by snipexec ----\n${definitions}${mirror}`;
  const registry = snippet.registers ? `// ---- snipexec's drive registry: the functions nothing called, where the snippet makes them ----\n${driveRegistrySource()}` : '';
  const head = clock + environments + prelude + registry;
  const opening = head + (head === '' ? '' : '// ---- snippet ----\n');
  lines = lines && shiftLines(lines, code, 0, opening);
  return { code: opening + code, ...(lines ? { lines } : {}) };
}

/** Where a statement goes at the start of the snippet's code: after its directive prologue ('use strict' must stay first). */
function afterPrologue(code: string, statement: string, directives: boolean, typed: boolean): { at: number; text: string } {
  if (!directives) return { at: 0, text: `${statement}\n` };
  let end: number | undefined;
  try {
    end = parseSnippet(code, typed ? 'ts' : 'js').ast.program.directives.at(-1)?.end ?? undefined;
  } catch {
    end = undefined; // the sandbox parsed this code; should it fail here, the statement goes first
  }
  return end === undefined ? { at: 0, text: `${statement}\n` } : { at: end, text: `\n${statement}` };
}

/** Snippet line → the lines (1-based, split on `\n`) of the code being built that hold it. */
type LineMap = Map<number, number[]>;

/**
 * The line map once `text` is put into `code` at offset `at`: the lines after it move down by the
 * lines `text` adds; on the line it goes into, what stood before it stays and what stood after it moves.
 */
function shiftLines(lines: LineMap, code: string, at: number, text: string): LineMap {
  const added = countNewlines(text);
  if (added === 0) return lines;
  const line = countNewlines(code.slice(0, at)) + 1;
  const before = at > 0 && code[at - 1] !== '\n';
  const after = at < code.length && code[at] !== '\n';
  const moveTo = (l: number): number[] => {
    if (l !== line) return [l < line ? l : l + added];
    return before && after ? [l, l + added] : before ? [l] : [l + added];
  };
  return new Map([...lines].map(([snippetLine, held]) => [snippetLine, [...new Set(held.flatMap(moveTo))]]));
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The line map of a snippet kept as its text: each line as Babel numbers it (which also ends a line
 * at `\r`, U+2028 and U+2029) → the line it is on when only `\n` ends one.
 */
function textLines(code: string): LineMap {
  const lines: LineMap = new Map();
  let babel = 1;
  let plain = 1;
  lines.set(1, [1]);
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '\r' && code[i + 1] === '\n') continue;
    if (c !== '\n' && c !== '\r' && c !== '\u2028' && c !== '\u2029') continue;
    babel++;
    if (c === '\n') plain++;
    lines.set(babel, [plain]);
  }
  return lines;
}

/** One mapping of the generator's source map, 1-based lines. */
interface Mapping { readonly generated: { readonly line: number }; readonly original?: { readonly line: number } | undefined }
/** The generator's result with `sourceMaps` on: Babel gives its mappings decoded as `rawMappings`, which @types/babel__generator omits. */
type MappedResult = ReturnType<typeof generate> & { readonly rawMappings?: readonly Mapping[] };

/** The line map of regenerated code, from the generator's mappings: each original line → the generated lines its code went to. */
function generatedLines(mappings: readonly Mapping[]): LineMap {
  const lines: LineMap = new Map();
  for (const { generated, original } of mappings) {
    if (!original) continue;
    const held = lines.get(original.line) ?? [];
    if (!held.includes(generated.line)) held.push(generated.line);
    lines.set(original.line, held);
  }
  for (const held of lines.values()) held.sort((a, b) => a - b);
  return lines;
}

/** The names the clock and environment preambles read at the program's top level. */
const PREAMBLE_NAMES: ReadonlySet<string> = new Set(['globalThis', 'Date', 'Math', 'Object', 'Reflect', 'String', 'Number', 'setImmediate', 'require', 'module', '__dirname', '__filename']);

/**
 * The snippet as the sandbox ran it, as source: its own text when it needs no change, else
 * regenerated from its syntax tree after the sandbox's own rewrites (types, JSX, module syntax,
 * decorators). A `#!` line becomes a comment, since the definitions come before it. With
 * `mapLines`, also where each of the snippet's lines went (the generator's source map, when regenerated).
 */
function snippetSource(parsed: Pick<ParsedSnippet, 'code' | 'lang'>, lowered: LoweredSnippet | undefined, target: ProgramTarget, register: ReadonlySet<number>, mapLines: boolean): SnippetSource {
  // Every result of a run (each kept scenario's too) builds its program: the same snippet with the
  // same registrations is generated once. A line map is asked for rarely, and is not kept.
  if (mapLines) return snippetSourceOf(parsed, lowered, target, register, true);
  const owner = target === 'js' && lowered ? lowered : parsed;
  const key = `${target} ${[...register].sort((a, b) => a - b).join(',')}`;
  let made = madeSources.get(owner);
  if (!made) madeSources.set(owner, made = new Map());
  let source = made.get(key);
  if (!source) made.set(key, source = snippetSourceOf(parsed, lowered, target, register, false));
  return source;
}

/** The snippet's source as a program holds it: code, whether it has a directive prologue, whether it registers drive targets. */
interface SnippetSource {
  readonly code: string;
  readonly directives: boolean;
  readonly registers: boolean;
  readonly lines?: LineMap;
}

/** The sources made of each lowered snippet (or parsed one, for a typed program), by target and registrations. */
const madeSources = new WeakMap<object, Map<string, SnippetSource>>();

function snippetSourceOf(parsed: Pick<ParsedSnippet, 'code' | 'lang'>, lowered: LoweredSnippet | undefined, target: ProgramTarget, register: ReadonlySet<number>, mapLines: boolean): SnippetSource {
  const asText = (directives: boolean, code = parsed.code) => ({ code, directives, registers: false, ...(mapLines ? { lines: textLines(code) } : {}) });
  // JavaScript comes from the form instrumentation lowered (the snippet is not parsed again); types kept need a parse of their own.
  const form = target === 'js' && lowered ? { ...lowered, fresh: false } : parsedForm(parsed);
  if (form === undefined) return asText(false);
  const typed = parsed.lang === 'ts' || parsed.lang === 'tsx';
  if (!typed && !form.rewrite && register.size === 0) return asText(form.directives, parsed.code.replace(/^#!/, '//#!'));
  try {
    let ast = form.ast;
    if (form.fresh) {
      ast.program.interpreter = null;
      if (typed && target === 'js') stripTypes(ast);
      else if (typed) lowerForTypeStripping(ast);
      transformJsx(ast);
      normalizeSyntax(ast);
    } else if (register.size > 0) ast = t.cloneNode(ast, true); // registering writes into the tree: the lowered form serves every result
    // The same targets, in the same order, as the sandbox's instrumentation found (it ran these rewrites first).
    if (register.size > 0) markDriveTargets(ast, DRIVE_REGISTRY, { enter: false, only: register });
    // Lines kept where they were, when registrations were added: the program's lines are the snippet's.
    // A source map changes nothing in the code; its mappings say where each original line went.
    const generated: MappedResult = generate(ast, { comments: true, ...(register.size > 0 ? { retainLines: true } : {}), ...(mapLines ? { sourceMaps: true, sourceFileName: 'snippet' } : {}) });
    return { code: generated.code, directives: form.directives, registers: register.size > 0, ...(mapLines ? { lines: generatedLines(generated.rawMappings ?? []) } : {}) };
  } catch {
    // The sandbox ran these same rewrites on this code; should one fail here, the program keeps the text.
    return asText(form.directives);
  }
}

/** The snippet parsed afresh, for the rewrites to run on: with types kept, or when no lowered form came with it. */
function parsedForm(parsed: Pick<ParsedSnippet, 'code' | 'lang'>): { ast: t.File; directives: boolean; rewrite: boolean; fresh: true } | undefined {
  try {
    const ast = parseSnippet(parsed.code, parsed.lang).ast;
    return { ast, directives: ast.program.directives.length > 0, rewrite: needsRewrite(ast), fresh: true };
  } catch {
    return undefined;
  }
}
