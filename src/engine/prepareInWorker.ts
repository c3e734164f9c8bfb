import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { HostTimeout, UnreadableInput } from '../core/errors.ts';
import type { InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import type { RunOptions } from '../core/options.ts';
import * as t from '@babel/types';
import { syntaxErrorResult } from './buildResult.ts';
import type { RunResult } from '../core/runResult.ts';
import { HostDeadline } from '../core/hostDeadline.ts';
import { hostTimeoutResult } from './hostTimeoutResult.ts';
import { instrumentationFailed, isStackOverflow, prepareSnippet, uncompilableResult, type PreparedSnippet } from './prepareSnippet.ts';

/**
 * Babel parses and traverses recursively, so a snippet nested a few hundred levels deep (a long
 * `'<li>' + x + '</li>' + …` concatenation, deeply nested blocks) overflows the main thread's stack.
 * Such a snippet is prepared again on a worker thread with a deep stack. The worker sends back
 * plain data: the instrumented script, its coverage map and usage table, and the parsed code
 * without its syntax tree (too deep to clone, and nothing after instrumentation reads it).
 * The snippet's budget holds there too: the worker reads its own deadline, and is terminated if
 * it runs past it anyway.
 */

const STACK_MB = 256;
/**
 * The worker's heap: parsing and instrumenting a large snippet (over LARGE_INPUT_BYTES) is done
 * here, so a tree that would take more is stopped by V8 (the worker ends, the process does not).
 */
export const PREPARE_HEAP_MB = 320;
/** Inputs over this many bytes are prepared in the worker from the start, under its heap cap. */
export const LARGE_INPUT_BYTES = 64 * 1024;
const KIND = 'snipexec:prepare';

interface Request {
  readonly kind: typeof KIND;
  readonly source: string | Uint8Array;
  readonly options: RunOptions;
  readonly budgetMs: number;
}

type Reply =
  | { readonly ok: true; readonly parsed: Omit<PreparedSnippet['parsed'], 'ast'>; readonly instrumented: InstrumentedSnippet; readonly names: PreparedSnippet['names'] }
  | { readonly ok: false; readonly result: RunResult };

export async function prepareInWorker(source: string | Uint8Array, options: RunOptions, deadline: HostDeadline): Promise<PreparedSnippet | RunResult> {
  if (deadline.remainingMs() <= 0) return hostTimeoutResult(new HostTimeout('preparing on a worker thread', options.totalTimeoutMs), deadline.elapsedMs());
  // Code V8 itself cannot compile (what sends a snippet here for its depth, or hides in a large one) is the snippet's syntax error, with V8's message.
  const uncompilable = await uncompilableResult(source, options, deadline);
  if (uncompilable) return uncompilable;
  const budgetMs = Math.max(1, deadline.remainingMs());
  const request: Request = { kind: KIND, source, options, budgetMs };
  const worker = new Worker(new URL(import.meta.url), { workerData: request, resourceLimits: { stackSizeMb: STACK_MB, maxOldGenerationSizeMb: PREPARE_HEAP_MB, maxYoungGenerationSizeMb: 16 } });
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await new Promise<Reply | 'late'>((resolve, reject) => {
      // The worker stops itself at its deadline between passes; this is for a pass that would not.
      // (Its grace is at most 2.5 % of the budget, so the whole run keeps to --total-timeout within 10 %.)
      timer = setTimeout(() => resolve('late'), budgetMs + Math.min(500, Math.ceil(budgetMs / 40)));
      worker.once('message', (m: Reply) => resolve(m));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the deep-stack worker exited with code ${code} before answering`)));
    });
    if (reply === 'late') return hostTimeoutResult(new HostTimeout('preparing on a worker thread', options.totalTimeoutMs), deadline.elapsedMs());
    if (!reply.ok) return reply.result;
    // Structured cloning gives the usage table a prototype; lookups by any name must not reach Object.prototype.
    Object.setPrototypeOf(reply.instrumented.usage, null);
    return { parsed: { ...reply.parsed, ast: t.file(t.program([])) }, instrumented: reply.instrumented, names: reply.names };
  } catch (error) {
    // A tree too large for the worker's heap is the input's size, refused as the byte limit is.
    if ((error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') return syntaxErrorResult(new UnreadableInput(`input is too large to prepare within the host's ${PREPARE_HEAP_MB} MB`).message, 1, 1, deadline.elapsedMs());
    return instrumentationFailed(error instanceof Error ? error.message : String(error), deadline.elapsedMs());
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

/** The worker's side: prepare the snippet under its own deadline, and answer with plain data. */
function answer(request: Request): Reply {
  const deadline = new HostDeadline(request.budgetMs);
  try {
    const prepared = prepareSnippet(request.source, request.options, deadline);
    if ('status' in prepared) return { ok: false, result: prepared };
    const { ast: _ast, ...parsed } = prepared.parsed;
    // The trees stay here, as the parsed one does: the program is then generated from a fresh parse.
    const { map, lowered: _lowered, ...instrumented } = prepared.instrumented;
    return { ok: true, parsed, names: prepared.names, instrumented: { ...instrumented, map: { statements: map.statements, branches: map.branches, sites: map.sites, tries: map.tries, functions: map.functions } } };
  } catch (error) {
    const cause = error instanceof Error && isStackOverflow(error.cause) ? 'the snippet nests too deeply even for a deep stack' : error instanceof Error ? error.message : String(error);
    return { ok: false, result: instrumentationFailed(cause, deadline.elapsedMs()) };
  }
}

if (!isMainThread && (workerData as Partial<Request> | null)?.kind === KIND) parentPort?.postMessage(answer(workerData as Request));
