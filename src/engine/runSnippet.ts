import type { RunOptions, RunOptionsInput } from '../core/options.ts';
import { withScenarioResults } from './buildResult.ts';
import type { RunResult } from '../core/runResult.ts';
import { DefinitionBook } from './definitionBook.ts';
import { renderDefinitions } from './renderDefinitions.ts';
import { type RenderedDefinitions } from '../emit/renderedDefinitions.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import { explore, type ScenarioFacts } from './explore.ts';
import type { Explored } from '../core/explored.ts';
import { isFileElementId } from '../protocol/elementIds.ts';
import { SnippetSession, type RunDependencies } from './snippetSession.ts';
import type { ScenarioRun } from './runScenario.ts';

export type { RunDependencies } from './snippetSession.ts';

/** The wall-clock budget of each run of an exploration scenario (docs/internals/how-it-works.md "Explore"); the first scenario has the snippet's `timeoutMs`. */
export const SCENARIO_TIMEOUT_MS = 1000;

/**
 * Runs a partial snippet: parse (with repair), instrument, then execute in a fresh isolate as
 * often as new elements are injected, up to `maxRuns`. Coverage comes from the last run, which
 * starts with every definition already in place, exactly as the `--emit`ted program does.
 */
export async function runSnippet(input: string | Uint8Array, optionsInput: RunOptionsInput = {}, deps: RunDependencies = {}): Promise<RunResult> {
  const session = await SnippetSession.open(input, optionsInput, deps);
  if (!(session instanceof SnippetSession)) return session;
  const book = session.newBook();
  const firstRun = await session.run(session.config, book);
  book.restore(firstRun.ranWith);
  const rendered = renderDefinitions(book.defs);
  const { explored, kept } = await exploreScenarios(session, session.config, firstRun, book, rendered, session.options.scenarios);
  const result = session.result(firstRun.last, book, rendered, firstRun.runs, explored ? { explored } : {}, true);
  return kept.length > 0 ? withScenarioResults(result, kept.map((k) => k.result)) : result;
}

/** A scenario exploration kept: its own result, as if it were the only execution, and the definitions its measured run used. */
export interface KeptScenario {
  readonly result: RunResult;
  readonly defs: ReturnType<DefinitionBook['snapshot']>;
}

/**
 * Exploration (explore.ts) after a session's first scenario: more scenarios, each answering one
 * decision on an injected value the other way, up to `scenarios` in all; the kept ones in order.
 * Nothing is explored with `scenarios` 1, in modes none and dummy, or after a host error.
 */
export async function exploreScenarios(session: SnippetSession, config: RuntimeConfig, firstRun: ScenarioRun, book: DefinitionBook, rendered: RenderedDefinitions, scenarios: number): Promise<{ explored: Explored | undefined; kept: KeptScenario[] }> {
  const { options, deadline, instrumented } = session;
  // Exploration's scenarios are extra executions: each run of one gets at most SCENARIO_TIMEOUT_MS
  // (a flipped answer that makes a loop endless should not cost the snippet's whole timeout).
  const scenarioOptions: RunOptions = { ...options, timeoutMs: Math.min(options.timeoutMs, SCENARIO_TIMEOUT_MS) };
  const kept: KeptScenario[] = [];
  const factsOf = (scenario: ScenarioRun, b: DefinitionBook): ScenarioFacts | undefined => scenario.last?.report && {
    report: scenario.last.report, answers: scenario.answers, callees: scenario.callees, iterables: scenario.iterables, traces: b.traces,
    files: [...b.defs.values()].filter((d) => d.kind === 'environment' && isFileElementId(d.id)).map((d) => d.id),
  };
  const first = factsOf(firstRun, book);
  /** Per kept scenario, the definitions its measured run used. */
  const snapshots = new Map<number, ReturnType<DefinitionBook['snapshot']>>([[1, firstRun.ranWith]]);
  const explored = scenarios > 1 && first && !book.hostError && (options.mode === 'trace' || options.mode === 'llm')
    ? await explore({ map: instrumented.map, first, driveTargets: instrumented.driveTargets, rendered, scenarios, deadline, run: async (ask, from, touches, promising) => {
      const b = session.newBook();
      // What the scenario does not touch keeps the definitions of the scenario it extends: only the touched values are learnt again.
      const seed = touches && snapshots.get(from);
      if (seed) b.restore(withoutTouched(seed, touches));
      const scenario = await session.run({ ...config, prefer: { ...config.prefer, ...ask.prefer }, cases: { ...config.cases, ...ask.cases }, ...(ask.outcomes ? { outcomes: ask.outcomes } : {}) }, b, scenarioOptions, promising);
      b.restore(scenario.ranWith);
      const rendered = renderDefinitions(b.defs);
      // A kept scenario's own result: its completed program (`--emit FILE --scenario K`), output and lines.
      const keep = (number: number) => { snapshots.set(number, scenario.ranWith); kept.push({ result: session.result(scenario.last, b, rendered, scenario.runs, ask.outcomes ? { outcomes: ask.outcomes } : {}), defs: scenario.ranWith }); };
      return { facts: b.hostError ? undefined : factsOf(scenario, b), runs: scenario.runs, stalled: scenario.stalled, rendered, keep };
    } })
    : undefined;
  return { explored, kept };
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

