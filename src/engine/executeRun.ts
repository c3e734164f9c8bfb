import type { Logger } from 'pino';
import type { InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import type { RunOptions } from '../core/options.ts';
import { jsString } from '../core/sourceText.ts';
import { runInIsolate, type ExecutionResult } from '../sandbox/runInIsolate.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import type { LoadedEnvironments } from '../environments/loadEnvironments.ts';
import type { DefinitionBook } from './definitionBook.ts';
import { renderDefinitions } from './renderDefinitions.ts';
import { HELPERS_SOURCE } from '../values/dummyTable.ts';
import type { Transcript } from './replays.ts';

/** One run in an isolate; `transcript`, when given, gets each request to the book and its answer; `watchLoops`: the loops that end the run as stalled past STALL_TURNS turns. */
export async function execute(instrumented: InstrumentedSnippet, config: RuntimeConfig, environments: LoadedEnvironments, book: DefinitionBook, options: RunOptions, timeoutMs: number, log: Logger, transcript?: Transcript, watchLoops?: readonly number[]): Promise<ExecutionResult> {
  const rendered = renderDefinitions(book.defs);
  // A script that evaluates to the `[id, value]` pairs the runtime adopts.
  const adopt = rendered.accessors.length === 0 ? '' : `[${rendered.accessors.map(([id, expr]) => `[${jsString(id)}, ${expr}]`).join(', ')}];`;
  return runInIsolate({
    prelude: rendered.guarded(instrumented.hook),
    adopt,
    helpers: HELPERS_SOURCE,
    script: instrumented.code,
    environments: environments.bundles,
    snapshotEnvironments: environments.fromRegistry,
    log,
    config,
    timeoutMs,
    memoryLimitMb: options.memoryLimitMb,
    maxTimerTicks: options.maxTimerTicks,
    onRequest: transcript ? async (json) => { const answer = await book.handle(json); transcript.push(json, answer); return answer; } : (json) => book.handle(json),
    waitedMs: () => book.providerMs,
    ...(watchLoops !== undefined && watchLoops.length > 0 ? { watchLoops } : {}),
  });
}
