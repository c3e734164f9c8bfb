import { createHash } from 'node:crypto';
import type { RunOptions } from '../core/options.ts';
import type { ExecutionResult } from '../sandbox/runInIsolate.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import type { DefinitionBook } from './definitionBook.ts';

/** A run's requests to the book and the book's answers, in order: request, answer, request, answer… */
export type Transcript = string[];

/** A kept run that asked the book for values: its answers are asked again on replay, and must come back the same. */
interface LearntRun {
  readonly result: ExecutionResult;
  readonly ms: number;
  readonly transcript: Transcript;
  /** Per decision a recording proxy answered in it: the `prefer` and `cases` entries it read. */
  readonly decided: readonly (readonly [sid: number, prefer: boolean | undefined, chosen: unknown])[];
}

/** Replays over the process (bench reports them): pure runs, runs that asked the book, and replays abandoned because an answer differed. */
const stats = { pure: 0, learnt: 0, diverged: 0 };
export function replayStats(): Readonly<typeof stats> {
  return { ...stats };
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The runs of a session that can be handed back instead of executed, because the isolate would run
 * them exactly as it ran an earlier one. It is deterministic (virtual clock, seeded Math.random), so
 * a run is a function of the snippet, the config, the definitions its prelude renders, and the
 * answers the book gives to its requests. Runs are kept by the definitions (DefinitionBook.answersKey)
 * and the config without `prefer`/`cases` (the key).
 * - A run that asked no provider, retried no definition and handed out no recording proxy got only
 *   definitions as answers, and read no `prefer`/`cases` (only recording proxies do): the same key
 *   gives the same run.
 * - A run that asked the book for new values (a learning run) is kept with its transcript. It is
 *   replayed for a run with the same key and the same `prefer` and `cases` at every decision its
 *   recording proxies answered (report.answers; `prefer` and `cases` are read only there, and at
 *   instanceof/in sites, whose `prefer` is the instrumenter's in every run of a session: exploration
 *   changes only answered decisions), by asking the book the same requests in the same order. Every
 *   answer must come back as the run got it, so the isolate would have asked exactly these: the run
 *   would repeat, and the book ends as it would have left it. Otherwise the book is rolled back and
 *   the run executes. Exploration's scenarios that flip a decision earlier runs never reached so
 *   share those runs.
 * Runs that timed out, ran out of memory, were halted or met a host bug are never kept; nor handed
 * back to a run whose budget is less than twice the time the kept one took (it might not finish).
 */
export class Replays {
  private readonly pureRuns = new Map<string, { readonly result: ExecutionResult; readonly ms: number }>();
  private readonly learntRuns = new Map<string, LearntRun[]>();
  /** Each config field's digest, by identity: a scenario's config shares all but its answers with the session's. */
  private readonly fields = new WeakMap<object, string>();
  private readonly strings = new Map<string, string>();
  private readonly configs = new WeakMap<RuntimeConfig, string>();

  private readonly learnt: boolean;

  /** `learnt`: also replay runs that asked the book for values (only with a deterministic value source). */
  constructor(learnt: boolean) {
    this.learnt = learnt;
  }

  /** Whether learning runs are kept, so a run's transcript is worth recording. */
  get recordsTranscripts(): boolean {
    return this.learnt;
  }

  /** The run's key: the book's answers, the config, the limits and the loops it watches. Undefined while a recording proxy stands for a value (no run starts so). */
  keyOf(config: RuntimeConfig, book: DefinitionBook, options: RunOptions, watchLoops: readonly number[]): string | undefined {
    const answers = book.answersKey();
    if (answers === undefined) return undefined;
    // JSON escapes control characters, so NUL separates the parts unambiguously (no second JSON of the definitions).
    return createHash('sha256').update(answers).update(`\0${this.configDigest(config)}\0${options.memoryLimitMb}\0${options.maxTimerTicks}\0${watchLoops.join(',')}`).digest('hex');
  }

  /**
   * The result of an earlier run this one would repeat, or undefined (then it must execute). A
   * learning run's replay asks the book its requests again, as the run would have.
   */
  async replay(key: string, config: RuntimeConfig, book: DefinitionBook, timeoutMs: number): Promise<ExecutionResult | undefined> {
    const pure = this.pureRuns.get(key);
    if (pure && pure.ms * 2 <= timeoutMs) {
      stats.pure++;
      return structuredClone(pure.result);
    }
    for (const kept of this.learntRuns.get(key) ?? []) {
      if (kept.ms * 2 > timeoutMs || !kept.decided.every(([sid, prefer, chosen]) => config.prefer?.[sid] === prefer && config.cases?.[sid] === chosen)) continue;
      const rollback = book.checkpoint();
      if (await answersAgain(book, kept.transcript)) {
        stats.learnt++;
        return structuredClone(kept.result);
      }
      stats.diverged++;
      rollback();
    }
    return undefined;
  }

  /** Keeps a run that finished as a run should, by the key it applies to. */
  keep(key: string, config: RuntimeConfig, result: ExecutionResult, book: DefinitionBook, ms: number, transcript: Transcript | undefined): void {
    const report = result.report;
    if ((result.status !== 'completed' && result.status !== 'stopped') || !report || report.halted || book.hostError) return;
    if (book.consulted === 0 && book.probed.size === 0) {
      this.pureRuns.set(key, { result: structuredClone(result), ms });
      return;
    }
    if (!this.learnt || !transcript) return;
    const decided = Object.keys(report.answers ?? {}).map(Number).map((sid) => [sid, config.prefer?.[sid], config.cases?.[sid]] as const);
    const runs = this.learntRuns.get(key) ?? [];
    runs.push({ result: structuredClone(result), ms, transcript, decided });
    this.learntRuns.set(key, runs);
  }

  /** The config without `prefer`/`cases`, by content: each field's digest is made once per field value. */
  private configDigest(config: RuntimeConfig): string {
    let digest = this.configs.get(config);
    if (digest !== undefined) return digest;
    const parts: string[] = [];
    for (const name of Object.keys(config).sort()) {
      if (name === 'prefer' || name === 'cases') continue;
      parts.push(name, this.fieldDigest((config as unknown as Record<string, unknown>)[name]));
    }
    digest = sha(JSON.stringify(parts));
    this.configs.set(config, digest);
    return digest;
  }

  private fieldDigest(value: unknown): string {
    if (typeof value === 'string') {
      let d = this.strings.get(value);
      if (d === undefined) this.strings.set(value, (d = sha(JSON.stringify(value))));
      return d;
    }
    if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
    let d = this.fields.get(value);
    if (d === undefined) this.fields.set(value, (d = sha(JSON.stringify(value))));
    return d;
  }
}

/** Asks the book a run's requests in order; whether every answer is the one the run got. */
async function answersAgain(book: DefinitionBook, transcript: Transcript): Promise<boolean> {
  for (let i = 0; i < transcript.length; i += 2) {
    if ((await book.handle(transcript[i]!)) !== transcript[i + 1]) return false;
  }
  return true;
}
