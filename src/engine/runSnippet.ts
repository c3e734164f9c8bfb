import type { InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import { counterCount } from '../instrument/coverageModel.ts';
import { parseRunOptions, type RunOptions, type RunOptionsInput } from '../options.ts';
import { buildResult, withScenarioResults, type RunResult } from '../report/buildResult.ts';
import { runInIsolate, type ExecutionResult } from '../sandbox/runInIsolate.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import type { RuntimeReport } from '../protocol/runtime.ts';
import { HELPERS_SOURCE } from '../values/dummyTable.ts';
import { CALLBACK_CONVENTIONS } from '../values/trace/callbackConventions.ts';
import { valueSourceFor, type ValueSource } from '../values/providers.ts';
import { llmValueSource } from '../values/llm/llmProvider.ts';
import { copyUsage, LlmEnvironment, NO_LLM_USAGE, type LlmSession } from '../llm/llmSession.ts';
import { llmOptionsFromEnv } from '../llm/llmOptions.ts';
import { definitionChecker } from './checkDefinition.ts';
import { DefinitionBook } from './definitionBook.ts';
import { HostDeadline } from './hostDeadline.ts';
import { LARGE_INPUT_BYTES, prepareInWorker } from './prepareInWorker.ts';
import { prepareSnippet, StackTooShallow, type PreparedSnippet } from './prepareSnippet.ts';
import pino, { type Logger } from 'pino';
import { renderDefinitions } from './renderDefinitions.ts';
import { explore, type ScenarioFacts } from './explore.ts';
import { isFileElementId } from '../protocol/elementIds.ts';
import { jsString } from '../emit/sourceText.ts';
import { loadEnvironments, type LoadedEnvironments } from '../environments/loadEnvironments.ts';
import type { GuestBundle } from '../sandbox/bundleGuest.ts';

const START_TIME = Date.UTC(2024, 0, 1);
/** The wall-clock budget of each run of an exploration scenario (README "Explore"); the first scenario has the snippet's `timeoutMs`. */
export const SCENARIO_TIMEOUT_MS = 1000;

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
}

let envLlm: LlmEnvironment | undefined;
/** The environment-configured LLM, made once; throws LlmNotConfigured when nothing is set. */
function defaultLlm(): LlmEnvironment {
  envLlm ??= new LlmEnvironment(llmOptionsFromEnv(process.env));
  return envLlm;
}

/**
 * Runs a partial snippet: parse (with repair), instrument, then execute in a fresh isolate as
 * often as new elements are injected, up to `maxRuns`. Coverage comes from the last run, which
 * starts with every definition already in place, exactly as the `--emit`ted program does.
 */
export async function runSnippet(input: string | Uint8Array, optionsInput: RunOptionsInput = {}, deps: RunDependencies = {}): Promise<RunResult> {
  const started = Date.now();
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
  const { parsed, instrumented } = prepared;
  // The environments the snippet's names select (a DOM for `document`, Node's built-ins for `require('path')`).
  const environments: LoadedEnvironments = deps.environments || !options.environments
    ? { bundles: deps.environments ?? [], fromRegistry: deps.environments ? (deps.environmentsInSnapshot ?? 0) : 0, names: (deps.environments ?? []).map((e) => e.name), failures: [] }
    : await loadEnvironments(prepared.names, undefined, { cwd: process.cwd(), dirs: options.modulesDirs });
  let session: LlmSession | undefined;
  let values = deps.values;
  if (!values && options.mode === 'llm') {
    session = (deps.llm ?? defaultLlm()).session(deps.snippetId ?? options.fileName);
    values = llmValueSource(session, options.maxAttempts);
  }
  values ??= valueSourceFor(options.mode);
  const log = deps.logger ?? session?.log ?? deps.llm?.log ?? pino({ level: 'silent' });
  const config = runtimeConfig(instrumented, options);
  // An LLM's definitions are checked by execution, within their own budget, before the snippet runs with them.
  const checker = session && definitionChecker({
    hook: instrumented.hook, config: { ...config, drive: false }, environments, memoryLimitMb: options.memoryLimitMb,
    timeoutMs: options.checkTimeoutMs, maxChecks: options.maxChecks, log,
  });
  const newBook = () => new DefinitionBook({
    snippet: parsed.code, map: instrumented.map, usage: instrumented.usage, values: values!,
    maxAttempts: options.maxAttempts, maxInjections: options.maxInjections, log,
    ...(checker ? { check: checker } : {}),
  });
  const resultParts = {
    parsed, instrumented, llmCalls: NO_LLM_USAGE,
    clock: { seed: config.seed, startTime: config.startTime, maxTimerTicks: options.maxTimerTicks },
    environments: { names: environments.names, failed: environments.failures, bundles: environments.bundles },
    ...(environments.modules ? { modules: environments.modules } : {}),
  };
  const run = (cfg: RuntimeConfig, book: DefinitionBook, runOptions = options, promising?: (report: RuntimeReport) => boolean) => runScenario(instrumented, cfg, environments, book, runOptions, deadline, log, promising);
  // Exploration's scenarios are extra executions: each run of one gets at most SCENARIO_TIMEOUT_MS
  // (a flipped answer that makes a loop endless should not cost the snippet's whole timeout).
  const scenarioOptions: RunOptions = { ...options, timeoutMs: Math.min(options.timeoutMs, SCENARIO_TIMEOUT_MS) };
  const book = newBook();
  const firstRun = await run(config, book);
  const { last, ranWith, runs } = firstRun;
  book.restore(ranWith);
  const rendered = renderDefinitions(book.defs);
  // Exploration: more scenarios, each answering one decision on an injected value the other way (explore.ts).
  const scenarioResults: RunResult[] = [];
  const factsOf = (scenario: ScenarioRun, b: DefinitionBook): ScenarioFacts | undefined => scenario.last?.report && {
    report: scenario.last.report, answers: scenario.answers, callees: scenario.callees, iterables: scenario.iterables, traces: b.traces,
    files: [...b.defs.values()].filter((d) => d.kind === 'environment' && isFileElementId(d.id)).map((d) => d.id),
  };
  const first = factsOf(firstRun, book);
  /** Per kept scenario, the definitions its measured run used. */
  const snapshots = new Map<number, ReturnType<DefinitionBook['snapshot']>>([[1, ranWith]]);
  const explored = options.scenarios > 1 && first && !book.hostError && (options.mode === 'trace' || options.mode === 'llm')
    ? await explore({ map: instrumented.map, first, driveTargets: instrumented.driveTargets, rendered, scenarios: options.scenarios, deadline, run: async (ask, from, touches, promising) => {
      const b = newBook();
      // What the scenario does not touch keeps the definitions of the scenario it extends: only the touched values are learnt again.
      const seed = touches && snapshots.get(from);
      if (seed) b.restore(withoutTouched(seed, touches));
      const scenario = await run({ ...config, prefer: { ...config.prefer, ...ask.prefer }, cases: { ...config.cases, ...ask.cases }, ...(ask.outcomes ? { outcomes: ask.outcomes } : {}) }, b, scenarioOptions, promising);
      b.restore(scenario.ranWith);
      const rendered = renderDefinitions(b.defs);
      // A kept scenario's own result: its completed program (`--emit FILE --scenario K`), output and lines.
      const keep = (number: number) => { snapshots.set(number, scenario.ranWith); scenarioResults.push(buildResult({ ...resultParts, execution: scenario.last, book: b, rendered, runs: scenario.runs, elapsedMs: Date.now() - started, ...(ask.outcomes ? { outcomes: ask.outcomes } : {}) })); };
      return { facts: b.hostError ? undefined : factsOf(scenario, b), runs: scenario.runs, stalled: scenario.stalled, rendered, keep };
    } })
    : undefined;
  const result = buildResult({
    ...resultParts, execution: last, book, rendered, runs, elapsedMs: Date.now() - started, ...(explored ? { explored } : {}),
    llmCalls: session ? copyUsage(session.usage) : NO_LLM_USAGE,
  });
  return scenarioResults.length > 0 ? withScenarioResults(result, scenarioResults) : result;
}

const inputBytes = (input: string | Uint8Array): number => (typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength);

interface ScenarioRun {
  /** The measured run (undefined when the last run allowed was a learning one). */
  readonly last: ExecutionResult | undefined;
  /** The definitions it ran with. */
  readonly ranWith: ReturnType<DefinitionBook['snapshot']>;
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
async function runScenario(instrumented: InstrumentedSnippet, config: RuntimeConfig, environments: LoadedEnvironments, book: DefinitionBook, options: RunOptions, deadline: HostDeadline, log: Logger, promising?: (report: RuntimeReport) => boolean): Promise<ScenarioRun> {
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
  while (runs < options.maxRuns) {
    // Waiting for a provider (an LLM) is not the snippet's time.
    const left = deadline.remainingMs() + book.providerMs;
    if (runs > 0 && left < 50 && !lastLearnt) break;
    runs++;
    book.changed = false;
    // Recording proxies may stand in for missing values in any run but the last one allowed.
    book.mayProbe = runs < options.maxRuns && left >= 50;
    const defsBefore = book.snapshot();
    last = await execute(instrumented, config, environments, book, options, Math.min(options.timeoutMs, Math.max(50, left)), log);
    ranWith = book.snapshot();
    lastLearnt = book.probed.size > 0;
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
    if (stallBlamed) book.changed = true;
    await book.afterRun(last.report?.traces);
    // A definition that threw while the prelude ran goes back to its provider with the error.
    if (runs < options.maxRuns && (await book.definitionsFailed(last.report?.preludeFailures ?? []))) book.changed = true;
    // A run that stopped on an injected value's fault: that value is retried with the error.
    if (!book.changed && last.status === 'stopped' && runs < options.maxRuns && (await book.blame(last.report?.errors ?? []))) book.changed = true;
    if (!book.changed || book.hostError) break;
    if (!lastLearnt && !stallBlamed && (last.status === 'timeout' || last.status === 'memory-limit' || last.status === 'internal-error')) break;
  }
  if (best && last?.report && coveredStatements(last.report, instrumented.map.statements.length) < best.covered && !book.hostError) {
    // One more run, with the definitions of the best one: more attempts never lower coverage.
    book.restore(best.defs);
    book.mayProbe = false;
    last = await execute(instrumented, config, environments, book, options, options.timeoutMs, log);
    ranWith = book.snapshot();
    lastLearnt = false;
    runs++;
  }
  // A learning run (recording proxies) is never reported; only a host bug ends the loop on one.
  if (lastLearnt) {
    last = undefined;
    ranWith = new Map();
  }
  return { last, ranWith, runs, answers, callees, iterables, stalled: stalledAny };
}

/**
 * Definitions without those a scenario touches: each touched element, the definitions that refer
 * to a removed one (its owners: an object literal naming it), and the parts of a removed one.
 */
function withoutTouched(snapshot: ReturnType<DefinitionBook['snapshot']>, touches: readonly string[]): ReturnType<DefinitionBook['snapshot']> {
  const removed = new Set(touches);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, def] of snapshot) {
      if (removed.has(id)) continue;
      if (def.proposal.refs.some((ref) => removed.has(ref)) || (def.parent !== undefined && removed.has(def.parent))) {
        removed.add(id);
        grew = true;
      }
    }
  }
  return new Map([...snapshot].filter(([id]) => !removed.has(id)));
}

/** How many of the first `statements` counters (the statements'; the functions' follow them) ran. */
function coveredStatements(report: { statements: readonly number[] }, statements: number): number {
  let n = 0;
  for (let i = 0; i < statements; i++) if ((report.statements[i] ?? 0) > 0) n++;
  return n;
}

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
    helpers: HELPERS_SOURCE,
    callbacks: CALLBACK_CONVENTIONS,
    driveTargets: instrumented.driveTargets.map((d) => ({ name: d.name, kind: d.kind, params: d.params, topLevel: d.topLevel, ...(d.memberOf ? { memberOf: d.memberOf } : {}), ...(d.key !== undefined ? { key: d.key } : {}), ...(d.static ? { static: true } : {}), ...(d.errorFirst ? { errorFirst: true } : {}) })),
    drive: instrumented.drive,
    prefer: Object.fromEntries(instrumented.map.sites.filter((s) => s.prefer !== undefined).map((s) => [s.id, s.prefer as boolean])),
    positions: instrumented.positions,
  };
}

async function execute(instrumented: InstrumentedSnippet, config: RuntimeConfig, environments: LoadedEnvironments, book: DefinitionBook, options: RunOptions, timeoutMs: number, log: Logger): Promise<ExecutionResult> {
  const rendered = renderDefinitions(book.defs);
  // A script that evaluates to the `[id, value]` pairs the runtime adopts.
  const adopt = rendered.accessors.length === 0 ? '' : `[${rendered.accessors.map(([id, expr]) => `[${jsString(id)}, ${expr}]`).join(', ')}];`;
  return runInIsolate({
    prelude: rendered.guarded(instrumented.hook),
    adopt,
    script: instrumented.code,
    environments: environments.bundles,
    snapshotEnvironments: environments.fromRegistry,
    log,
    config,
    timeoutMs,
    memoryLimitMb: options.memoryLimitMb,
    maxTimerTicks: options.maxTimerTicks,
    onRequest: (json) => book.handle(json),
    waitedMs: () => book.providerMs,
  });
}
