import { parse, type ParserOptions, type ParserPlugin } from '@babel/parser';
import * as t from '@babel/types';
import { SyntaxRepairFailed, UnreadableInput } from '../core/errors.ts';
import type { Lang } from '../core/options.ts';
import { REPAIRS } from './repairSnippet.ts';
import { checkSnippetSize, SNIPPET_LIMITS, type SnippetLimits } from './snippetSize.ts';
import type { Visitor } from '@babel/traverse';
import { traverse } from './stripTypes.ts';
import type { DeadlineCheck } from '../core/hostDeadline.ts';

export interface ParsedSnippet {
  readonly ast: t.File;
  /** The code that parsed: the original, or the original after `repairs`. */
  readonly code: string;
  readonly lang: Lang;
  readonly repairs: readonly string[];
  /** Lines the last-resort repair blanked out: still measured, and never covered. */
  readonly droppedLines?: readonly number[];
}

const STDIN_ORDER: readonly Lang[] = ['js', 'jsx', 'ts', 'tsx'];

function pluginsFor(lang: Lang): ParserPlugin[] {
  const common: ParserPlugin[] = ['decorators-legacy', 'classProperties', 'topLevelAwait', 'importAttributes' as ParserPlugin];
  if (lang === 'jsx') return [...common, 'jsx'];
  if (lang === 'ts') return [...common, 'typescript'];
  if (lang === 'tsx') return [...common, 'typescript', 'jsx'];
  return common;
}

/**
 * The languages to try for a file name: `.js` files often hold JSX, so they are tried as js, then
 * jsx; undefined when the extension says nothing.
 */
export function langsFromFileName(fileName: string | undefined): readonly Lang[] | undefined {
  const lang = langFromFileName(fileName);
  return lang === 'js' ? ['js', 'jsx'] : lang === undefined ? undefined : [lang];
}

/** Language from a file name, or undefined when the extension says nothing. */
export function langFromFileName(fileName: string | undefined): Lang | undefined {
  const ext = fileName?.match(/\.([cm]?[jt]sx?)$/i)?.[1]?.toLowerCase();
  if (ext === undefined) return undefined;
  if (ext === 'jsx') return 'jsx';
  if (ext === 'tsx') return 'tsx';
  if (ext.endsWith('ts')) return 'ts';
  return 'js';
}

function parseAs(code: string, lang: Lang, limits: SnippetLimits): t.File {
  const base = {
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
    allowImportExportEverywhere: true,
    allowNewTargetOutsideFunction: true,
    allowUndeclaredExports: true,
    plugins: pluginsFor(lang),
  } as const;
  let ast: t.File;
  try {
    ast = parseWithoutStacks(code, { ...base, sourceType: 'module' });
  } catch {
    // Sloppy-mode code (octal literals, `with`, duplicate params) only parses as a script.
    ast = parseWithoutStacks(code, { ...base, sourceType: 'script' });
  }
  // Before the scope crawl, which costs far more than the parse: a tree over the limits goes no further.
  checkSnippetSize(ast, limits);
  checkDeclarations(ast);
  return ast;
}

/**
 * Babel's parser throws a syntax error it builds as a SyntaxError, whose stack V8 captures: the
 * repairs make many failed parses, and only an error's message and position are read, so no stack
 * is captured while parsing (measured: about a fifth of parsing the Stack Overflow set, repairs included).
 */
function parseWithoutStacks(code: string, options: ParserOptions): t.File {
  const limit = Error.stackTraceLimit;
  // A host that froze Error keeps its stacks.
  const settable = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;
  if (settable) Error.stackTraceLimit = 0;
  try {
    return parse(code, options);
  } finally {
    if (settable) Error.stackTraceLimit = limit;
  }
}

/** The names each tree checkDeclarations crawled uses without declaring them (its program scope's globals). */
const undeclared = new WeakMap<t.File, readonly string[]>();

/**
 * The names a tree parseSnippet returned uses without declaring them, as its program scope's crawl
 * found them before anything rewrote the tree; undefined for a tree parseSnippet did not make.
 */
export function undeclaredNames(ast: t.File): readonly string[] | undefined {
  return undeclared.get(ast);
}

/** Reads the program scope's globals (entering the program crawled it), and goes no further. Made (and exploded by Babel) once. */
const PROGRAM_GLOBALS: Visitor<{ readonly ast: t.File }> = {
  Program(path, state) {
    undeclared.set(state.ast, Object.keys((path.scope as unknown as { globals: Record<string, unknown> }).globals));
    path.stop();
  },
};

/**
 * A name declared twice in one scope (`import { v4 as id } …` and `const { v4: id } = …`, which
 * the TypeScript parser lets through) is the snippet's syntax error, as V8 reports it: thrown
 * here like a parse error, on the line of the second declaration, so a repair may drop that line.
 */
function checkDeclarations(ast: t.File): void {
  try {
    // Entering the program crawls its scope (Scope#init), where a duplicate declaration throws: one crawl of the tree.
    traverse(ast, PROGRAM_GLOBALS, undefined, { ast });
  } catch (error) {
    // A crawl that threw leaves scopes marked as crawling, which would make any later crawl of them a no-op.
    traverse.cache.clear();
    const name = /^Duplicate declaration "(.+)"$/.exec(error instanceof Error ? error.message : '')?.[1];
    if (name === undefined) throw error;
    const second = declarationsOf(ast, name)[1] ?? declarationsOf(ast, name)[0];
    throw Object.assign(new SyntaxError(`Identifier '${name}' has already been declared`), { loc: { line: second?.line ?? 1, column: second?.column ?? 0 } });
  }
  // The scopes stay cached with the tree: the first pass over it reuses them instead of crawling it
  // again, and instrumentation crawls the program once more after its rewrites (instrumentSnippet).
}

/** Where `name` is declared (variables, imports, functions, classes), in source order. */
function declarationsOf(ast: t.File, name: string): { line: number; column: number }[] {
  const at: { line: number; column: number }[] = [];
  t.traverseFast(ast, (node) => {
    if (!t.isDeclaration(node) && !t.isVariableDeclarator(node)) return;
    const ids = t.isVariableDeclarator(node) ? t.getBindingIdentifiers(node.id) : t.isFunction(node) || t.isClass(node) || t.isImportDeclaration(node) ? t.getBindingIdentifiers(node) : {};
    const id = ids[name];
    const loc = (Array.isArray(id) ? id[0] : id)?.loc?.start;
    if (loc) at.push({ line: loc.line, column: loc.column });
  });
  return at.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Rejects input that is not text: NUL bytes, invalid UTF-8, or over the size limit. */
export function decodeSource(input: string | Uint8Array, maxBytes: number): string {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > maxBytes) throw new UnreadableInput(`input is ${size} bytes, over the limit of ${maxBytes}`);
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new UnreadableInput('input is not UTF-8 text');
    }
  }
  if (text.includes('\u0000')) throw new UnreadableInput('input is binary (contains NUL bytes)');
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/**
 * Parses a partial snippet: top-level return and await, import/export anywhere. When it fails,
 * applies the repairs cumulatively and reports the first error of the original when all fail.
 * A tree over `limits` (SNIPPET_LIMITS unless a measurement of the host passes lifts them) throws
 * UnreadableInput.
 */
export function parseSnippet(code: string, lang?: Lang | readonly Lang[], deadline?: DeadlineCheck, limits: SnippetLimits = SNIPPET_LIMITS): ParsedSnippet {
  const langs = lang === undefined ? STDIN_ORDER : typeof lang === 'string' ? [lang] : lang;
  let firstError: unknown;
  let current = code;
  const applied: string[] = [];
  // The line repairs' whole-text parses, by text: seeded with each text below that no language parses (the last is where they start).
  const attempts: Attempts = new Map();
  for (let round = 0; round <= REPAIRS.length; round++) {
    if (round > 0) {
      const repair = REPAIRS[round - 1];
      if (repair === undefined) break;
      const next = repair.apply(current);
      if (next === current) continue;
      current = next;
      applied.push(repair.name);
    }
    deadline?.check(round === 0 ? 'parsing' : 'repairing');
    let parsed = false;
    let failedFirst: Attempt | undefined;
    for (const candidate of langs) {
      try {
        const ast = parseAs(current, candidate, limits);
        parsed = true;
        // A repair that leaves nothing of the original to run has not repaired it.
        if (applied.length === 0 || hasRunnableStatement(ast)) return { ast, code: current, lang: candidate, repairs: [...applied] };
      } catch (error) {
        if (error instanceof RangeError || error instanceof UnreadableInput) throw error; // a full stack is the host's limit, a tree over the limits the input's size: not the snippet's syntax
        firstError ??= error;
        failedFirst ??= { error: (error as { loc?: Position }).loc };
      }
    }
    // What parseAny answers for a text no language parses: where the first one's parse failed.
    if (!parsed && failedFirst !== undefined) attempts.set(current, failedFirst);
  }
  // Line by line, each try is a parse of the whole snippet: a large one is not repaired line by line.
  const dropped = code.length <= MAX_LINE_REPAIR_CHARS ? dropUnparsableLines(current, langs, limits, attempts, deadline) : undefined;
  if (dropped) return { ...dropped, repairs: [...applied, ...dropped.repairs] };
  const e = firstError as { message?: string; loc?: { line: number; column: number } };
  const message = (e.message ?? String(firstError)).replace(/\s*\(\d+:\d+\)$/, '');
  throw new SyntaxRepairFailed(message, e.loc?.line ?? 1, (e.loc?.column ?? 0) + 1);
}

/** The largest snippet edited or dropped line by line (up to 200 whole parses); larger ones get the whole-text repairs only. */
const MAX_LINE_REPAIR_CHARS = 64 * 1024;
const MAX_DROPPED_LINES = 10;
const MAX_EDITED_LINES = 10;

/**
 * The last repairs, at each parse error in turn: first a one-token edit of the line it points at
 * (a missing `)` or `,`, a stray `)` or `.`, a `}` for a `)`, a string left open or closed with the
 * other quote, a doubled keyword), kept when the parser then gets past that line; else the line is
 * blanked out (prose, shell commands, output pasted among the code), keeping the line count, for at
 * most a third of the lines. The edited and dropped lines are named in `repairs`.
 */
function dropUnparsableLines(code: string, langs: readonly Lang[], limits: SnippetLimits, attempts: Attempts, deadline?: DeadlineCheck): ParsedSnippet | undefined {
  const lines = code.split('\n');
  const nonEmpty = lines.filter((l) => l.trim() !== '').length;
  const dropped: number[] = [];
  const edited: number[] = [];
  for (let i = 0; i <= MAX_DROPPED_LINES + MAX_EDITED_LINES; i++) {
    deadline?.check('repairing');
    const attempt = parseAny(lines.join('\n'), langs, limits, attempts);
    if ('ast' in attempt) {
      if (dropped.length + edited.length === 0 || !hasRunnableStatement(attempt.ast)) return undefined;
      const repairs = [...(edited.length > 0 ? [`edited-lines:${edited.join(',')}`] : []), ...(dropped.length > 0 ? [`dropped-lines:${dropped.join(',')}`] : [])];
      return { ast: attempt.ast, code: attempt.code, lang: attempt.lang, repairs, ...(dropped.length > 0 ? { droppedLines: [...dropped].sort((a, b) => a - b) } : {}) };
    }
    const at = attempt.error;
    if (at === undefined || lines[at.line - 1] === undefined || lines[at.line - 1]?.trim() === '') return undefined;
    const fixed = edited.length < MAX_EDITED_LINES && !edited.includes(at.line) ? editLine(lines, at, langs, limits, attempts, deadline) : undefined;
    if (fixed !== undefined) {
      lines[at.line - 1] = fixed;
      edited.push(at.line);
      continue;
    }
    if ((dropped.length + 1) * 3 > nonEmpty || dropped.length >= MAX_DROPPED_LINES) return undefined; // at most a third of the snippet may go
    lines[at.line - 1] = '';
    dropped.push(at.line);
  }
  return undefined;
}

interface Position {
  readonly line: number;
  readonly column: number;
}

/** A whole-text parse of the line repairs: the tree of the first language the text parses as, or where the first one's parse failed. */
type Attempt = { readonly ast: t.File; readonly code: string; readonly lang: Lang } | { readonly error: Position | undefined };

/**
 * The attempts of one snippet's repairs, by text. Parsing is a function of the text (for the same
 * languages and limits): the edit editLine keeps is the text dropUnparsableLines parses next, and
 * each failed text costs up to eight parses (every language, as a module and as a script).
 */
type Attempts = Map<string, Attempt>;

/** The first language the code parses as, or where the first one's parse failed; a text tried before is answered from `attempts`. */
function parseAny(code: string, langs: readonly Lang[], limits: SnippetLimits, attempts: Attempts): Attempt {
  const known = attempts.get(code);
  if (known !== undefined) return known;
  let attempt: Attempt | undefined;
  let error: Position | undefined;
  let failed = false;
  for (const lang of langs) {
    try {
      attempt = { ast: parseAs(code, lang, limits), code, lang };
      break;
    } catch (e) {
      if (e instanceof RangeError || e instanceof UnreadableInput) throw e;
      if (!failed) error = (e as { loc?: Position }).loc;
      failed = true;
    }
  }
  attempt ??= { error };
  attempts.set(code, attempt);
  return attempt;
}

/**
 * A one-token edit of the line a parse error points at that gets the parser past that line; the
 * line's new text, or undefined when none does. The first that parses wins, else the one the parser
 * gets furthest with.
 */
function editLine(lines: readonly string[], at: Position, langs: readonly Lang[], limits: SnippetLimits, attempts: Attempts, deadline?: DeadlineCheck): string | undefined {
  const line = lines[at.line - 1]!;
  const c = Math.min(at.column, line.length);
  const candidates: string[] = [];
  const insert = (p: number, text: string) => candidates.push(line.slice(0, p) + text + line.slice(p));
  const remove = (p: number, n = 1) => { if (p >= 0 && p + n <= line.length) candidates.push(line.slice(0, p) + line.slice(p + n)); };
  const replace = (p: number, text: string) => { if (p >= 0 && p < line.length) candidates.push(line.slice(0, p) + text + line.slice(p + 1)); };
  const quote = line[c];
  if (quote === "'" || quote === '"') {
    // A string left open: closed before what ends the expression, or its other quote made this one.
    const other = quote === "'" ? '"' : "'";
    const mismatched = line.indexOf(other, c + 1);
    if (mismatched > 0) replace(mismatched, quote);
    for (let p = line.length; p > c; p--) if (p === line.length || ');,]}'.includes(line[p]!)) insert(p, quote);
  }
  // (No `;` is inserted: two words that need one between them are prose, `Then run this:`.)
  for (const closer of [')', ',', ']', '}']) insert(c, closer);
  if (')]},;.'.includes(line[c] ?? '')) remove(c);
  if (line[c - 1] === '.') remove(c - 1);
  for (const closer of [')', '}', ']']) if ('}])'.includes(line[c] ?? '') && line[c] !== closer) replace(c, closer);
  const word = /^[A-Za-z_$][\w$]*\s*/.exec(line.slice(c))?.[0];
  if (word) remove(c, word.length);
  // The edit the parser gets furthest with: one that parses, else the one whose error comes last, past this line.
  let best: { text: string; line: number; column: number } | undefined;
  for (const candidate of new Set(candidates)) {
    deadline?.check('repairing');
    const copy = [...lines];
    copy[at.line - 1] = candidate;
    const attempt = parseAny(copy.join('\n'), langs, limits, attempts);
    if ('ast' in attempt) return candidate;
    const e = attempt.error;
    if (e === undefined || e.line <= at.line) continue;
    if (!best || e.line > best.line || (e.line === best.line && e.column > best.column)) best = { text: candidate, line: e.line, column: e.column };
  }
  return best?.text;
}

/** Whether the tree has a statement that runs: not a block, an empty statement or a TypeScript-only declaration. */
function hasRunnableStatement(ast: t.File): boolean {
  let found = false;
  t.traverseFast(ast, (node) => {
    if (!t.isStatement(node) || t.isBlockStatement(node) || t.isEmptyStatement(node) || isTypeOnly(node)) return undefined;
    found = true;
    return t.traverseFast.stop;
  });
  return found;
}

function isTypeOnly(node: t.Statement): boolean {
  if (t.isTSInterfaceDeclaration(node) || t.isTSTypeAliasDeclaration(node) || t.isTSDeclareFunction(node)) return true;
  if ((t.isImportDeclaration(node) && node.importKind === 'type') || (t.isExportNamedDeclaration(node) && node.exportKind === 'type')) return true;
  return 'declare' in node && node.declare === true;
}
