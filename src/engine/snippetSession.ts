import { resolve } from 'node:path';
import type { InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import { counterCount } from '../instrument/coverageModel.ts';
import { parseRunOptions, type RunOptions, type RunOptionsInput } from '../core/options.ts';
import { buildResult } from './buildResult.ts';
import type { RunResult } from '../core/runResult.ts';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import type { ExecutionResult } from '../sandbox/runInIsolate.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import type { RuntimeReport } from '../protocol/runtime.ts';
import { valueSourceFor, type ValueSource } from '../values/providers.ts';
import type { LlmEnvironment, LlmSession } from '../llm/llmSession.ts';
import { copyUsage, NO_LLM_USAGE } from '../core/llmUsage.ts';
import { definitionChecker, type DefinitionCheck } from './checkDefinition.ts';
import { DefinitionBook } from './definitionBook.ts';
import { HostDeadline } from '../core/hostDeadline.ts';
import { LARGE_INPUT_BYTES, prepareInWorker } from './prepareInWorker.ts';
import { prepareSnippet, StackTooShallow, type PreparedSnippet } from './prepareSnippet.ts';
import pino, { type Logger } from 'pino';
import { Replays } from './replays.ts';
import { runScenario, type ScenarioRun } from './runScenario.ts';
import { type RenderedDefinitions } from '../emit/renderedDefinitions.ts';
import { loadEnvironments, type LoadedEnvironments } from '../environments/loadEnvironments.ts';
import type { GuestBundle } from '../sandbox/bundleGuest.ts';

const START_TIME = Date.UTC(2024, 0, 1);
/** The log of a snippet nobody gave one, made once: pino() per snippet was about 2 % of a batch's host time. */
const SILENT = pino({ level: 'silent' });

export interface RunDependencies {
  /** Overrides the mode's value source; how tests and later providers plug in. */
  readonly values?: ValueSource;
  /**
   * The endpoint, cache, caps and log of `--mode llm`, shared by the snippets of a batch. When
   * absent, one is made from OPENAI_BASE_URL, OPENAI_API_KEY and SNIPEXEC_MODEL.
   */
  readonly llm?: LlmEnvironment;
  /** The snippet's id (a batch row's), on every LLM log line; the file name, else `snippet`, when absent. */
  readonly snippetId?: string;
  /** Where a host bug's stack is logged; the LLM environment's log, else silent (the library prints nothing). */
  readonly logger?: Logger;
  /** The clock of the snippet's wall budget (`totalTimeoutMs`), host work included; Date.now unless a test fakes it. */
  readonly clock?: () => number;
  /** The environments to run with, instead of the ones the snippet's names select: how tests give inline environments. */
  readonly environments?: readonly GuestBundle[];
  /** How many of the leading `environments` may be evaluated into the startup snapshot, as the registry's are (0 when absent). */
  readonly environmentsInSnapshot?: number;
  /** False: every run executes, none is replayed (Replays); how tests compare a session with and without. */
  readonly replay?: boolean;
}

let envLlm: LlmEnvironment | undefined;
/**
 * The environment-configured LLM, made once; throws LlmNotConfigured when nothing is set. Only
 * `--mode llm` loads the LLM client (its transport, cache and secret rules).
 */
async function defaultLlm(): Promise<LlmEnvironment> {
  if (envLlm) return envLlm;
  const [{ LlmEnvironment }, { llmOptionsFromEnv }] = await Promise.all([import('../llm/llmSession.ts'), import('../llm/llmOptions.ts')]);
  envLlm ??= new LlmEnvironment(llmOptionsFromEnv(process.env));
  return envLlm;
}

/**
 * One snippet, prepared once (parsed, instrumented, its environments loaded, its value source
 * made), and run as often as its callers ask: runSnippet's first execution and exploration's
 * scenarios, diff's base and changed versions on the same values.
 */
export class SnippetSession {
  readonly started = Date.now();
  readonly parsed: ParsedSnippet;
  readonly instrumented: InstrumentedSnippet;
  /** The runtime config of every run, before a scenario's own answers. */
  readonly config: RuntimeConfig;
  readonly options: RunOptions;
  readonly deadline: HostDeadline;
  readonly environments: LoadedEnvironments;
  readonly log: Logger;
  private readonly values: ValueSource;
  private readonly llm: LlmSession | undefined;
  private readonly checker: DefinitionCheck | undefined;
  private readonly replays: Replays | undefined;

  private constructor(options: RunOptions, deadline: HostDeadline, prepared: PreparedSnippet, environments: LoadedEnvironments, values: ValueSource, log: Logger, llm: LlmSession | undefined, replay: boolean, customValues: boolean) {
    this.options = options;
    this.deadline = deadline;
    this.environments = environments;
    this.values = values;
    this.log = log;
    this.llm = llm;
    this.parsed = prepared.parsed;
    this.instrumented = prepared.instrumented;
    this.config = runtimeConfig(this.instrumented, options);
    // A run that asked for values is replayed only when the values come from a deterministic source
    // (not an LLM's, not a test's), and kept only when another scenario may follow: with one
    // execution nothing would replay it, and keeping it costs about 1 % of the snippet's CPU.
    // (diff's sessions explore on their own with `scenarios: 1`: they replay pure runs only.)
    this.replays = replay ? new Replays(llm === undefined && !customValues && options.scenarios > 1) : undefined;
    // An LLM's definitions are checked by execution, within their own budget, before the snippet runs with them.
    this.checker = llm && definitionChecker({
      hook: this.instrumented.hook, config: { ...this.config, drive: false }, environments, memoryLimitMb: options.memoryLimitMb,
      timeoutMs: options.checkTimeoutMs, maxChecks: options.maxChecks, log,
    });
  }

  /** Validates the options, parses (with repair), instruments and loads the environments: the session, or the result that ends the snippet here. */
  static async open(input: string | Uint8Array, optionsInput: RunOptionsInput = {}, deps: RunDependencies = {}): Promise<SnippetSession | RunResult> {
    const options = parseRunOptions(optionsInput);
    // Host work counts against the snippet's budget too: past it, the snippet ends as `host-timeout`.
    const deadline = new HostDeadline(options.totalTimeoutMs, deps.clock);
    // Parse (with repair) and instrument; a snippet nested deeper than this thread's stack lets Babel
    // go is prepared again on a thread with a deep stack.
    // A large input is prepared there from the start, under the worker's heap cap.
    let prepared: PreparedSnippet | RunResult;
    try {
      prepared = inputBytes(input) > LARGE_INPUT_BYTES ? await prepareInWorker(input, options, deadline) : prepareSnippet(input, options, deadline);
    } catch (error) {
      if (!(error instanceof StackTooShallow)) throw error;
      prepared = await prepareInWorker(input, options, deadline);
    }
    if ('status' in prepared) return prepared;
    // The environments the snippet's names select (a DOM for `document`, Node's built-ins for `require('path')`).
    const environments: LoadedEnvironments = deps.environments || !options.environments
      ? { bundles: deps.environments ?? [], fromRegistry: deps.environments ? (deps.environmentsInSnapshot ?? 0) : 0, names: (deps.environments ?? []).map((e) => e.name), failures: [] }
      : await loadEnvironments(prepared.names, undefined, {
        cwd: options.projectDir ?? process.cwd(), dirs: options.modulesDirs,
        ...(options.projectDir !== undefined && options.fileName !== undefined ? { project: { root: resolve(options.projectDir), file: options.fileName } } : {}),
      });
    let llm: LlmSession | undefined;
    let values = deps.values;
    if (!values && options.mode === 'llm') {
      llm = (deps.llm ?? (await defaultLlm())).session(deps.snippetId ?? options.fileName);
      values = (await import('../values/llm/llmProvider.ts')).llmValueSource(llm, options.maxAttempts);
    }
    values ??= valueSourceFor(options.mode);
    const log = deps.logger ?? llm?.log ?? deps.llm?.log ?? SILENT;
    return new SnippetSession(options, deadline, prepared, environments, values, log, llm, deps.replay !== false, deps.values !== undefined);
  }

  /** A fresh book of definitions; `held` elements keep the values they are given (BookContext.held). */
  newBook(held?: ReadonlySet<string>): DefinitionBook {
    return new DefinitionBook({
      snippet: this.parsed.code, map: this.instrumented.map, usage: this.instrumented.usage, values: this.values,
      maxAttempts: this.options.maxAttempts, maxInjections: this.options.maxInjections, log: this.log,
      ...(this.checker ? { check: this.checker } : {}), ...(held ? { held } : {}),
    });
  }

  /**
   * One scenario: learning runs, then the measured run (runScenario). `setAsideDeclared` false: the
   * declared types stand even when the run goes wrong (diff, whose findings are the errors the
   * declared inputs raise).
   */
  run(config: RuntimeConfig, book: DefinitionBook, options: RunOptions = this.options, promising?: (report: RuntimeReport) => boolean, setAsideDeclared = true): Promise<ScenarioRun> {
    return runScenario(this.instrumented, config, this.environments, book, options, this.deadline, this.log, promising, this.replays, setAsideDeclared);
  }

  /** The JSON result of a measured run with the definitions it used; `final` counts the LLM calls so far in it. */
  result(execution: ExecutionResult | undefined, book: DefinitionBook, rendered: RenderedDefinitions, runs: number, extra: Pick<Parameters<typeof buildResult>[0], 'explored' | 'outcomes'> = {}, final = false): RunResult {
    return buildResult({
      parsed: this.parsed, instrumented: this.instrumented,
      clock: { seed: this.config.seed, startTime: this.config.startTime, maxTimerTicks: this.options.maxTimerTicks },
      environments: { names: this.environments.names, failed: this.environments.failures, bundles: this.environments.bundles },
      ...(this.environments.modules ? { modules: this.environments.modules } : {}),
      execution, book, rendered, runs, elapsedMs: Date.now() - this.started, ...extra,
      llmCalls: final && this.llm ? copyUsage(this.llm.usage) : NO_LLM_USAGE,
    });
  }
}

const inputBytes = (input: string | Uint8Array): number => (typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength);

/** The part of the runtime config that is the same for every run of a snippet, built once. */
function runtimeConfig(instrumented: InstrumentedSnippet, options: RunOptions): RuntimeConfig {
  return {
    hook: instrumented.hook,
    shownHook: instrumented.shownHook,
    statements: counterCount(instrumented.map),
    branches: instrumented.map.branches.map((b) => b.outcomes),
    sites: instrumented.map.sites.map((s) => s.text),
    messages: Object.fromEntries(instrumented.map.sites.filter((s) => s.messages !== undefined).map((s) => [s.id, s.messages as readonly [string, string]])),
    seed: options.seed,
    startTime: START_TIME + options.seed * 1000,
    maxConsoleBytes: options.maxConsoleBytes,
    staleTimerTicks: options.staleTimerTicks,
    driveTargets: instrumented.driveTargets.map((d) => ({ name: d.name, kind: d.kind, params: d.params, topLevel: d.topLevel, ...(d.memberOf ? { memberOf: d.memberOf } : {}), ...(d.key !== undefined ? { key: d.key } : {}), ...(d.static ? { static: true } : {}), ...(d.errorFirst ? { errorFirst: true } : {}) })),
    drive: instrumented.drive,
    prefer: Object.fromEntries(instrumented.map.sites.filter((s) => s.prefer !== undefined).map((s) => [s.id, s.prefer as boolean])),
    positions: instrumented.positions,
  };
}
