import { randomBytes } from 'node:crypto';
import { HostTimeout, SnipexecError, SyntaxRepairFailed } from '../errors.ts';
import { instrumentSnippet, type InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import type { RunOptions } from '../options.ts';
import { decodeSource, langsFromFileName, parseSnippet, type ParsedSnippet } from '../parse/parseSnippet.ts';
import { v8CompileError } from '../parse/v8CompileError.ts';
import { syntaxErrorResult, type RunResult } from '../report/buildResult.ts';
import { hostTimeoutResult, type HostDeadline } from './hostDeadline.ts';
import type { SnippetNames } from '../environments/registry.ts';
import { snippetNames } from '../environments/snippetNames.ts';
import { noteProgramFacts } from '../emit/programFacts.ts';

/** A snippet ready to run: parsed (with repair) and instrumented. */
export interface PreparedSnippet {
  readonly parsed: ParsedSnippet;
  readonly instrumented: InstrumentedSnippet;
  /** The names the snippet uses without declaring them and the modules it loads: they select its environments. */
  readonly names: SnippetNames;
}

/** Thrown when a host pass ran out of stack: the snippet nests deeper than Babel's recursion allows on this thread. */
export class StackTooShallow extends Error {}

/** V8's RangeError for a full stack. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size/i.test(error.message);
}

/**
 * Parses (with repair) and instruments a snippet on this thread: the prepared snippet, or the
 * result that ends it here (syntax error, host timeout, instrumentation failure). A stack overflow
 * throws StackTooShallow, so the caller can prepare it again on a thread with a deeper stack.
 */
export function prepareSnippet(input: string | Uint8Array, options: RunOptions, deadline: HostDeadline): PreparedSnippet | RunResult {
  const elapsed = () => deadline.elapsedMs();
  let parsed: ParsedSnippet;
  try {
    const source = decodeSource(input, options.maxSourceBytes);
    parsed = parseSnippet(source, options.lang ?? langsFromFileName(options.fileName), deadline);
  } catch (error) {
    if (isStackOverflow(error)) throw new StackTooShallow('parsing', { cause: error });
    if (error instanceof HostTimeout) return hostTimeoutResult(error, elapsed());
    if (error instanceof SyntaxRepairFailed) return syntaxErrorResult(error.message, error.line, error.column, elapsed());
    if (error instanceof SnipexecError) return syntaxErrorResult(error.message, 1, 1, elapsed());
    throw error;
  }
  let instrumented: InstrumentedSnippet | undefined;
  let names: SnippetNames = { globals: [], modules: [] };
  try {
    // Read before instrumentation, which rewrites the tree in place.
    names = snippetNames(parsed.ast);
    noteProgramFacts(parsed);
    instrumented = instrumentSnippet(parsed.ast, parsed.code, {
      lang: parsed.lang, operatorHooks: options.operatorHooks ?? (options.mode === 'trace' || options.mode === 'llm'), drive: options.drive || options.callUncalled === true, deadline,
      droppedLines: parsed.droppedLines ?? [],
      // A name of its own for each run of a snippet: nothing the snippet can read or compute derives it.
      hookSalt: randomBytes(16).toString('hex'),
    });
    deadline.check('preparing the first run');
  } catch (error) {
    if (isStackOverflow(error)) throw new StackTooShallow('instrumenting', { cause: error });
    if (error instanceof HostTimeout) return hostTimeoutResult(error, elapsed(), instrumented?.map);
    return instrumentationFailed(error instanceof Error ? error.message : String(error), elapsed());
  }
  return { parsed, instrumented, names };
}

/**
 * The syntax-error result of a snippet V8 itself cannot compile for want of stack (in an isolate,
 * as the snippet would run), with V8's error; undefined for any other input.
 */
export async function uncompilableResult(input: string | Uint8Array, options: RunOptions, deadline: HostDeadline): Promise<RunResult | undefined> {
  let source: string;
  try {
    source = decodeSource(input, options.maxSourceBytes);
  } catch {
    return undefined; // preparing it reports why
  }
  const v8 = await v8CompileError(source);
  return v8 && { ...syntaxErrorResult(v8.message, 1, 1, deadline.elapsedMs()), errors: [{ type: v8.type, message: v8.message, line: 1, column: 1, attribution: 'snippet' }] };
}

/** The result of a snippet the host failed to instrument: a host bug or limit, never the snippet's fault. */
export function instrumentationFailed(message: string, elapsedMs: number): RunResult {
  const failed = syntaxErrorResult(`instrumentation failed: ${message}`, 1, 1, elapsedMs);
  return { ...failed, status: 'internal-error', errors: failed.errors.map((e) => ({ ...e, type: 'InternalError', attribution: 'sandbox' as const })) };
}
