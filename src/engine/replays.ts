import { createHash } from 'node:crypto';
import type { RunOptions } from '../core/options.ts';
import type { ExecutionResult } from '../sandbox/runInIsolate.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import type { DefinitionBook } from './definitionBook.ts';

/** A run's requests to the book and the book's answers, in order: request, answer, request, answer… */
export type Transcript = string[];

/** What a run about to start is keyed by (Replays.keyOf). */
export interface RunKey {
  /** The definitions and the config without `prefer`/`cases`: a run that asks no provider depends on these alone. */
  readonly pure: string | undefined;
  /** The whole book (traces, attempts, whether proxies may stand in…) and the same config digest: what a run that asks the book for new values depends on too. */
  readonly state: string | undefined;
}

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
 * them exactly as it ran an earlier one: it is deterministic (virtual clock, seeded Math.random), so
 * a run is a function of the snippet, the config, the definitions in its prelude, and the answers
 * the book gives to its requests.
 * - A run that asked no provider, retried no definition and handed out no recording proxy depends
 *   on the definitions and the config without `prefer`/`cases` alone (only recording proxies read
 *   those, and it had none): kept by that key (`pure`).
 * - A run that asked the book for new values (a learning run) is kept by the whole state of the
 *   book (`state`: the answers the book gives depend on it, the value source being deterministic)
 *   with its transcript. It is replayed for a run that starts from the same state, with the same
 *   `prefer` and `cases` at every decision its recording proxies answered (report.answers: `prefer`
 *   and `cases` are read only there, or at instanceof/in sites, whose `prefer` is the
 *   instrumenter's in every run of a session; exploration changes only answered decisions), by
 *   asking the book the same requests in the same order: every answer must come back as it did, or
 *   the book is rolled back and the run executed. The book so ends as the run would have left it.
 *   Exploration's scenarios that flip a decision the earlier runs never reached share these runs.
 * Runs that timed out, ran out of memory, were halted or met a host bug are never kept; nor is one
 * whose run took more than half the new run's budget (it might not finish there).
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

  /** Whether runs are recorded for `state` replays (a transcript is then worth keeping). */
  get recordsTranscripts(): boolean {
    return this.learnt;
  }

  keyOf(config: RuntimeConfig, book: DefinitionBook, options: RunOptions): RunKey {
    const digest = this.configDigest(config);
    const limits = [options.memoryLimitMb, options.maxTimerTicks];
    const answers = book.answersKey();
    return {
      pure: answers === undefined ? undefined : sha(JSON.stringify([answers, digest, limits])),
      state: this.learnt ? sha(JSON.stringify([book.stateKey(), digest, limits])) : undefined,
    };
  }

  /**
   * The result of an earlier run this one would repeat, or undefined (then it must execute). A
   * learning run's replay asks the book its requests again, as the run would have.
   */
  async replay(key: RunKey, config: RuntimeConfig, book: DefinitionBook, timeoutMs: number): Promise<ExecutionResult | undefined> {
    const pure = key.pure === undefined ? undefined : this.pureRuns.get(key.pure);
    if (pure && pure.ms * 2 <= timeoutMs) {
      stats.pure++;
      return structuredClone(pure.result);
    }
    for (const kept of (key.state === undefined ? undefined : this.learntRuns.get(key.state)) ?? []) {
      if (kept.ms * 2 > timeoutMs || !kept.decided.every(([sid, prefer, chosen]) => config.prefer?.[sid] === prefer && config.cases?.[sid] === chosen)) continue;
      const rollback = book.checkpoint();
      book.consulted = 0;
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
  keep(key: RunKey, config: RuntimeConfig, result: ExecutionResult, book: DefinitionBook, ms: number, transcript: Transcript | undefined): void {
    const report = result.report;
    if ((result.status !== 'completed' && result.status !== 'stopped') || !report || report.halted || book.hostError) return;
    if (book.consulted === 0 && book.probed.size === 0) {
      if (key.pure !== undefined) this.pureRuns.set(key.pure, { result: structuredClone(result), ms });
      return;
    }
    if (key.state === undefined || !transcript) return;
    const decided = Object.keys(report.answers ?? {}).map(Number).map((sid) => [sid, config.prefer?.[sid], config.cases?.[sid]] as const);
    const runs = this.learntRuns.get(key.state) ?? [];
    runs.push({ result: structuredClone(result), ms, transcript, decided });
    this.learntRuns.set(key.state, runs);
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
