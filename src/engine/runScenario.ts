import type { Logger } from 'pino';
import type { InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import type { RunOptions } from '../core/options.ts';
import type { HostDeadline } from '../core/hostDeadline.ts';
import type { ExecutionResult } from '../sandbox/runInIsolate.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import type { RuntimeReport } from '../protocol/runtime.ts';
import type { LoadedEnvironments } from '../environments/loadEnvironments.ts';
import type { DefinitionBook } from './definitionBook.ts';
import { execute } from './executeRun.ts';
import type { Replays, Transcript } from './replays.ts';

export interface ScenarioRun {
  /** The measured run (undefined when the last run allowed was a learning one). */
  readonly last: ExecutionResult | undefined;
  /** The definitions it ran with. */
  readonly ranWith: ReturnType<DefinitionBook['snapshot']>;
  /** The runs executed in an isolate; a replayed one (Replays) is not. */
  readonly runs: number;
  /** The answers recording proxies gave at decisions in the learning runs, first seen (what exploration flips). */
  readonly answers: Readonly<Record<string, boolean>>;
  /** The recording proxies called, and iterated, at each site in the learning runs, first seen (what exploration makes fail, or empties). */
  readonly callees: Readonly<Record<string, string>>;
  readonly iterables: Readonly<Record<string, string>>;
  /** A run of it timed out or ran out of memory. */
  readonly stalled: boolean;
}

/**
 * One scenario: runs the snippet in a fresh isolate as often as new elements are injected, up to
 * `maxRuns`, and reports the last measured run, which starts with every definition already in place.
 */
export async function runScenario(instrumented: InstrumentedSnippet, config: RuntimeConfig, environments: LoadedEnvironments, book: DefinitionBook, options: RunOptions, deadline: HostDeadline, log: Logger, promising?: (report: RuntimeReport) => boolean, replays?: Replays, setAsideDeclared = true): Promise<ScenarioRun> {
  let executed = 0;
  // One run with the book as it stands: replayed when it would repeat an earlier run of the session (Replays).
  const runOnce = async (timeoutMs: number): Promise<ExecutionResult> => {
    book.consulted = 0;
    // The loops the learnt functions called in them could keep going end the run as stalled early (endStalledLoops.ts).
    const watch = watching ? book.loops.watched(instrumented.map, callees) : [];
    const key = replays?.keyOf(config, book, options, watch);
    const replayed = key !== undefined && (await replays!.replay(key, config, book, timeoutMs));
    if (replayed) return replayed;
    const transcript: Transcript | undefined = replays?.recordsTranscripts ? [] : undefined;
    const started = Date.now();
    const result = await execute(instrumented, config, environments, book, options, timeoutMs, log, transcript, watch);
    executed++;
    if (key !== undefined) replays!.keep(key, config, result, book, Date.now() - started, transcript);
    return result;
  };
  let last: ExecutionResult | undefined;
  // The definitions the last run used: the result lists these, not any learnt after it.
  let ranWith: ReturnType<DefinitionBook['snapshot']> = new Map();
  let lastLearnt = false;
  let runs = 0;
  let stalledAny = false;
  const answers: Record<string, boolean> = {};
  const callees: Record<string, string> = {};
  const iterables: Record<string, string> = {};
  // The best measured run so far, to come back to when retrying values made things worse.
  let best: { covered: number; defs: ReturnType<DefinitionBook['snapshot']> } | undefined;
  // The definitions of the last run that neither timed out nor ran out of memory.
  let finished: ReturnType<DefinitionBook['snapshot']> | undefined;
  // A measured run that went wrong and the definitions it ran with, while the next run tries its declared types set aside (once).
  let beforeTrial: { last: ExecutionResult; ranWith: ReturnType<DefinitionBook['snapshot']>; defsBefore: ReturnType<DefinitionBook['snapshot']>; changed: boolean } | undefined;
  let trialDone = !setAsideDeclared;
  // The measured run that stalled before learnt functions were made to end its loop (endStalledLoops.ts), with the errors it raised.
  let beforeMend: { last: ExecutionResult; ranWith: ReturnType<DefinitionBook['snapshot']>; errors: Set<string>; enders: readonly string[] } | undefined;
  // Whether runs watch the loops learnt functions could keep going (they stop once a watched stall was not one the mending ends).
  let watching = true;
  // The loops endStalledLoops would end, in a run that stalled (before the declared-type trial only).
  const endersOf = (run: ExecutionResult): string[] => ((run.status === 'timeout' || run.status === 'memory-limit') && !beforeTrial && run.report ? book.loops.enders(run.report.branches, instrumented.map, mergedCallees(callees, run.report.callees)) : []);
  while (runs < options.maxRuns) {
    // Waiting for a provider (an LLM) is not the snippet's time.
    const left = deadline.remainingMs() + book.providerMs;
    if (runs > 0 && left < 50 && !lastLearnt) break;
    runs++;
    book.changed = false;
    // Recording proxies may stand in for missing values in any run but the last one allowed.
    book.mayProbe = runs < options.maxRuns && left >= 50 && !beforeTrial;
    let defsBefore = book.snapshot();
    const timeoutMs = Math.min(options.timeoutMs, Math.max(50, left));
    last = await runOnce(timeoutMs);
    // A watched loop ended the run early, but ending its learnt functions would change nothing: the
    // run goes again unwatched, to its deadline, as it would without the watch (a loop that ends
    // after many turns on its own: `for (…; i < 1e6; …) buffer('a')`).
    if (last.report?.stalledLoop !== undefined && !(await book.loops.wouldEnd(endersOf(last)))) {
      watching = false;
      last = await runOnce(timeoutMs);
    }
    ranWith = book.snapshot();
    lastLearnt = book.probed.size > 0;
    if (beforeMend && !lastLearnt) {
      // The null a mended function returns must not become an error (`fn().then` on it), the snippet's
      // or an injected value's: a measured run after the mending that raises one the stalled run did
      // not is not kept; the stalled run is the result.
      const known = beforeMend.errors;
      if ((last.report?.errors ?? []).some((e) => (e.attribution === 'snippet' || e.attribution === 'injected') && !known.has(errorKey(e)))) {
        ({ last, ranWith } = beforeMend);
        book.restore(ranWith);
        // Later scenarios learn these functions as they were, too.
        book.loops.keepGoing(beforeMend.enders);
        lastLearnt = false;
        // A watched loop ended that run early: it runs again unwatched, to its deadline, as it would without the watch.
        if (last.report?.stalledLoop !== undefined) {
          watching = false;
          last = await runOnce(timeoutMs);
          ranWith = book.snapshot();
        }
        break;
      }
      beforeMend = undefined;
    }
    // A run that stalled in a loop a learnt function keeps going: those functions end, as cursors do, before anything else is tried.
    const enders = endersOf(last);
    if (beforeTrial) {
      // The values usage gives, for those the snippet declares a type of, are kept only when they cover more; else it is as if they were never tried.
      if (!last.report || !beforeTrial.last.report || coveredStatements(last.report, instrumented.map.statements.length) <= coveredStatements(beforeTrial.last.report, instrumented.map.statements.length)) {
        ({ last, ranWith, defsBefore } = beforeTrial);
        book.restore(ranWith);
        book.changed = beforeTrial.changed;
      }
      beforeTrial = undefined;
    } else if (!trialDone && !lastLearnt && enders.length === 0 && runs < options.maxRuns && wentWrong(last) && !book.hostError) {
      // A measured run that threw or stalled: it may be a declared type's doing (a declared `number` that makes a recursion endless).
      trialDone = true;
      const changed = book.changed;
      if (await book.setAsideDeclared()) {
        beforeTrial = { last, ranWith, defsBefore, changed };
        if (last.status === 'timeout' || last.status === 'memory-limit') stalledAny = true;
        continue;
      }
    }
    // A scenario whose first learning run reaches no line that matters (exploration's: none no kept
    // scenario covered) is given up: recording proxies take every path the learnt values would.
    if (runs === 1 && lastLearnt && promising && last.report && !promising(last.report)) break;
    const ranOut = last.status === 'timeout' || last.status === 'memory-limit';
    if (ranOut) stalledAny = true;
    // An exploration scenario whose learning run stalls is given up too: the values learnt so far
    // made a loop endless (recording proxies end loops), and its measured run would have them.
    if (promising && lastLearnt && ranOut) break;
    for (const [sid, answer] of Object.entries(last.report?.answers ?? {})) if (!(sid in answers)) answers[sid] = answer;
    for (const [sid, id] of Object.entries(last.report?.callees ?? {})) if (!(sid in callees)) callees[sid] = id;
    for (const [sid, id] of Object.entries(last.report?.iterables ?? {})) if (!(sid in iterables)) iterables[sid] = id;
    const stalled = !lastLearnt && ranOut;
    // A run that timed out or ran out of memory with generated definitions new since the last run
    // that did not: they are blamed (an LLM's function that loops when called), and retried.
    const stallBlamed = stalled && runs < options.maxRuns && (await book.blameStall(last.status as 'timeout' | 'memory-limit', finished));
    if (!stalled) finished = ranWith;
    if (!lastLearnt && last.report && !stallBlamed) {
      const covered = coveredStatements(last.report, instrumented.map.statements.length);
      if (!best || covered > best.covered) best = { covered, defs: book.changed ? defsBefore : book.snapshot() };
    }
    const loopsEnded = !stallBlamed && runs < options.maxRuns && (await book.loops.end(enders));
    // Kept to come back to, when it was a measured run (a learning run's result is never reported).
    if (loopsEnded && !lastLearnt) beforeMend = { last, ranWith, errors: new Set((last.report?.errors ?? []).map(errorKey)), enders };
    if (stallBlamed || loopsEnded) book.changed = true;
    await book.afterRun(last.report?.traces);
    // A definition that threw while the prelude ran goes back to its provider with the error.
    if (runs < options.maxRuns && (await book.definitionsFailed(last.report?.preludeFailures ?? []))) book.changed = true;
    // A run that stopped on an injected value's fault: that value is retried with the error.
    if (!book.changed && last.status === 'stopped' && runs < options.maxRuns && (await book.blame(last.report?.errors ?? []))) book.changed = true;
    if (!book.changed || book.hostError) break;
    if (!lastLearnt && !stallBlamed && !loopsEnded && (last.status === 'timeout' || last.status === 'memory-limit' || last.status === 'internal-error')) break;
  }
  if (best && last?.report && coveredStatements(last.report, instrumented.map.statements.length) < best.covered && !book.hostError) {
    // One more run, with the definitions of the best one: more attempts never lower coverage.
    book.restore(best.defs);
    book.mayProbe = false;
    last = await runOnce(options.timeoutMs);
    ranWith = book.snapshot();
    lastLearnt = false;
  }
  // A learning run (recording proxies) is never reported; only a host bug ends the loop on one.
  if (lastLearnt) {
    last = undefined;
    ranWith = new Map();
  }
  return { last, ranWith, runs: executed, answers, callees, iterables, stalled: stalledAny };
}

/** An error as the runs of one scenario compare it. */
function errorKey(e: { readonly type: string; readonly message: string; readonly line?: number }): string {
  return `${e.type}\0${e.message}\0${e.line ?? ''}`;
}

/** The sites' callees of the learning runs so far, with a run's own (first seen wins, as in the scenario's). */
function mergedCallees(callees: Readonly<Record<string, string>>, run: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
  return run === undefined ? callees : { ...run, ...callees };
}

/** A run that stalled, or in which the code raised an error nothing caught (at its top level or in a driven call): the snippet's or an injected value's, not the sandbox's. */
function wentWrong(run: ExecutionResult): boolean {
  return run.status === 'timeout' || run.status === 'memory-limit' || (run.report?.errors ?? []).some((e) => e.attribution === 'snippet' || e.attribution === 'injected');
}

/** How many of the first `statements` counters (the statements'; the functions' follow them) ran. */
function coveredStatements(report: { statements: readonly number[] }, statements: number): number {
  let n = 0;
  for (let i = 0; i < statements; i++) if ((report.statements[i] ?? 0) > 0) n++;
  return n;
}
