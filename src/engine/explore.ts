import { coveredLines, measuredLines, type CoverageMap } from '../instrument/coverageModel.ts';
import type { RuntimeReport } from '../protocol/runtime.ts';
import type { Explored, ExploredScenario, Flip, ValueOutcome } from '../core/explored.ts';
import type { TraceStore } from './traceStore.ts';
import { callbackElementId } from '../protocol/elementIds.ts';
import type { HostDeadline } from '../core/hostDeadline.ts';
import type { RenderedDefinitions } from '../emit/renderedDefinitions.ts';

/** What one scenario's runs showed that exploration can act on: its measured run, and what its recording proxies answered, were called and iterated. */
export interface ScenarioFacts {
  /** The measured run. */
  readonly report: RuntimeReport;
  /** The answers recording proxies gave at decisions in the learning runs, by site id. */
  readonly answers: Readonly<Record<string, boolean>>;
  /** The recording proxies the learning runs called, and iterated, by site id. */
  readonly callees: Readonly<Record<string, string>>;
  readonly iterables: Readonly<Record<string, string>>;
  /** The traces: the error-first callbacks handed to injected functions, and which results were awaited. */
  readonly traces: TraceStore;
  /** The files read that the value generator filled (fileElementId): each may stay missing instead. */
  readonly files: readonly string[];
}

export interface ExploreInput {
  readonly map: CoverageMap;
  /** Scenario 1. */
  readonly first: ScenarioFacts;
  /** The snippet's drive targets, by index (drives name them): an error-first one driven with null may get an error instead. */
  readonly driveTargets: readonly { readonly name: string; readonly line: number }[];
  readonly rendered: RenderedDefinitions;
  /** At most this many scenarios, scenario 1 included. */
  readonly scenarios: number;
  readonly deadline: HostDeadline;
  /**
   * Runs one more scenario with these decisions answered so (`prefer`, `cases`) and these values
   * given their other outcome, extending kept scenario `from`; `touches`, when known, are the
   * elements the new answer concerns: the others may keep `from`'s definitions.
   */
  readonly run: (answers: ScenarioAnswers, from: number, touches: readonly string[] | undefined, promising: (report: RuntimeReport) => boolean) => Promise<{ facts: ScenarioFacts | undefined; runs: number; stalled: boolean; rendered: RenderedDefinitions; keep: (scenario: number) => void }>;
}

export interface ScenarioAnswers {
  readonly prefer?: Readonly<Record<number, boolean>>;
  readonly cases?: Readonly<Record<number, string | number | boolean>>;
  /** By element id: an iterable given empty, a callee that fails, an error-first callback called with an error. */
  readonly outcomes?: Readonly<Record<string, ValueOutcome>>;
}

/** Below this much of the snippet's budget left, no scenario is started. */
const MIN_SCENARIO_MS = 200;
/**
 * Exploration stops after this many scenarios with a run that timed out or ran out of memory: each
 * costs its whole run budget (SCENARIO_TIMEOUT_MS), 50 to 100 times an ordinary scenario, and a
 * snippet whose flips make loops endless mostly makes them endless whatever is flipped (eslint's
 * max-lines: every one of its 6 scenarios timed out, 12 s for nothing).
 */
export const MAX_STALLED_SCENARIOS = 2;

/**
 * Treefix's tree of executions, offline and guided by coverage: after scenario 1, each decision a
 * recording proxy answered (a comparison, a `typeof`, a tested value) on a line whose branch left
 * an outcome uncovered is answered the other way in a scenario of its own, and each injected value
 * that can fail or be empty is given that outcome (outcomeCandidates); the values are learnt again
 * for it, and the scenario is kept only if it covers lines no kept one did. A kept scenario's own
 * candidates follow, keeping its answers. Stops at `scenarios` kept, at twice that tried, when no
 * candidate is left, or near the snippet's time budget.
 */
export async function explore(input: ExploreInput): Promise<Explored> {
  const { map } = input;
  const first = input.first.report;
  const measured = measuredLines(map);
  const covered = coveredLines(map, first.statements);
  // exit() unwinds the statements of the calls it was made in: those lines ran (as buildResult counts them).
  if (first.exit !== undefined) for (const sid of first.exitSites ?? []) if (map.sites[sid]) covered.add(map.sites[sid]!.line);
  const branchHits = map.branches.map((b, i) => Array.from({ length: b.outcomes }, (_, k) => (first.branches[i]?.[k] ?? 0) > 0));
  const kept: ExploredScenario[] = [];
  let tried = 1;
  let runs = 0;
  let stalled = 0;
  // The tree: scenario 1's candidates first, then each kept scenario's, which keep its answers (breadth first).
  const queue: (Candidate & { from: number })[] = [];
  const asked = new Set<string>([askKey({})]);
  const grow = (facts: ScenarioFacts, from: number, base: ScenarioAnswers) => {
    for (const c of [...candidates(map, facts, branchHits, base), ...outcomeCandidates(input, facts, branchHits, covered, measured, base)]) {
      const ask = mergeAsks(base, c.ask);
      const key = askKey(ask);
      if (asked.has(key)) continue;
      asked.add(key);
      queue.push({ ...c, ask, from });
    }
  };
  grow(input.first, 1, {});
  while (queue.length > 0) {
    if (kept.length + 1 >= input.scenarios || tried >= input.scenarios * 2 || stalled >= MAX_STALLED_SCENARIOS || input.deadline.remainingMs() < MIN_SCENARIO_MS) break;
    const { flip, ask, from, sid, touches } = queue.shift()!;
    // A decision whose branches every kept scenario has covered by now is not worth a scenario.
    if (sid !== undefined && !decisionOpen(map, sid, branchHits)) continue;
    tried++;
    // A scenario whose first learning run covers nothing new is given up before its measured run.
    const scenario = await input.run(ask, from, touches, (r) => { const l = coveredLines(map, r.statements); return measured.some((m) => l.has(m) && !covered.has(m)); });
    runs += scenario.runs;
    if (scenario.stalled) stalled++;
    const report = scenario.facts?.report;
    if (!report) continue;
    const lines = coveredLines(map, report.statements);
    const newLines = measured.filter((l) => lines.has(l) && !covered.has(l));
    if (newLines.length === 0) continue;
    for (const l of newLines) covered.add(l);
    map.branches.forEach((b, i) => { for (let k = 0; k < b.outcomes; k++) if ((report.branches[i]?.[k] ?? 0) > 0) branchHits[i]![k] = true; });
    const definitions = [...scenario.rendered.statements].filter(([id, source]) => input.rendered.statements.get(id) !== source).map(([element, source]) => ({ element, source }));
    const number = kept.length + 2;
    scenario.keep(number);
    kept.push({ scenario: number, flipped: flip, from, newLines, definitions });
    grow(scenario.facts!, number, ask);
  }
  const branchTotal = branchHits.reduce((n, b) => n + b.length, 0);
  const branchCovered = branchHits.reduce((n, b) => n + b.filter(Boolean).length, 0);
  const coveredMeasured = measured.filter((l) => covered.has(l));
  return {
    scenarios: kept.length + 1, tried, runs, stalled,
    lineCoverage: measured.length === 0 ? 1 : coveredMeasured.length / measured.length,
    branchCoverage: branchTotal === 0 ? 1 : branchCovered / branchTotal,
    lines: { total: measured.length, covered: coveredMeasured.length, uncovered: measured.filter((l) => !covered.has(l)) },
    branches: { total: branchTotal, covered: branchCovered },
    kept,
  };
}

/** A scenario's answers with another's added (the added one wins where both answer). */
function mergeAsks(base: ScenarioAnswers, more: ScenarioAnswers): ScenarioAnswers {
  const prefer = { ...base.prefer, ...more.prefer };
  const cases = { ...base.cases, ...more.cases };
  const outcomes = { ...base.outcomes, ...more.outcomes };
  return {
    ...(Object.keys(prefer).length > 0 ? { prefer } : {}),
    ...(Object.keys(cases).length > 0 ? { cases } : {}),
    ...(Object.keys(outcomes).length > 0 ? { outcomes } : {}),
  };
}

/** The same answers give the same key, whatever order they were added in. */
function askKey(ask: ScenarioAnswers): string {
  const sorted = (o: object | undefined) => Object.entries(o ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([sorted(ask.prefer), sorted(ask.cases), sorted(ask.outcomes)]);
}

/** Whether a decision's line still has a branch outcome no kept scenario took (any switch, for a switch's discriminant). */
function decisionOpen(map: CoverageMap, sid: number, branchHits: readonly boolean[][]): boolean {
  const site = map.sites[sid];
  if (!site) return false;
  return map.branches.some((b, i) => branchHits[i]!.some((hit) => !hit) && (b.line === site.line || (site.cases !== undefined && b.kind === 'switch')));
}

/**
 * The decisions worth answering the other way, on a line where a branch left an outcome uncovered,
 * in source order: a boolean one flipped, a `switch` taken at each of its cases in turn.
 */
function candidates(map: CoverageMap, facts: ScenarioFacts, branchHits: readonly boolean[][], base: ScenarioAnswers): Candidate[] {
  const { answers } = facts;
  const openBranches = map.branches.filter((_, i) => branchHits[i]!.some((hit) => !hit));
  const open = new Set(openBranches.map((b) => b.line));
  // A switch's branches are its cases, on their own lines: any switch with a case not taken keeps its discriminant a candidate.
  const openSwitch = openBranches.some((b) => b.kind === 'switch');
  const out: Candidate[] = [];
  const sids = Object.keys(answers).map(Number).filter((sid) => {
    const site = map.sites[sid];
    // A decision the scenario was asked to answer so stays answered so.
    if (base.prefer?.[sid] !== undefined || base.cases?.[sid] !== undefined) return false;
    return site !== undefined && (open.has(site.line) || (site.cases !== undefined && openSwitch));
  }).sort((a, b) => a - b);
  for (const sid of sids) {
    const { text, line, cases } = map.sites[sid]!;
    // A decision's new answer is learnt with every value fresh (no touches): values learnt together
    // agree with it. Keeping the other values' definitions halved the runs of a scenario but lost
    // 1.9 points of explored coverage on 300 function bodies.
    if (cases) for (const value of cases) out.push({ flip: { text, line, answer: value }, ask: { cases: { [sid]: value } }, sid });
    else out.push({ flip: { text, line, answer: !answers[sid] }, ask: { prefer: { [sid]: !answers[sid] } }, sid });
  }
  return out;
}

interface Candidate {
  readonly flip: Flip;
  readonly ask: ScenarioAnswers;
  /** The decision's site, for a decision answered the other way. */
  readonly sid?: number;
  /** The elements the new answer concerns (the rest may keep the definitions of the scenario it extends); unknown when absent. */
  readonly touches?: readonly string[];
}

/**
 * The injected values worth giving their other outcome, after the decisions: a function called in
 * a `try` block whose `catch` left lines uncovered fails (a promise it returns rejects, when the
 * snippet awaited or chained it); an error-first callback handed to an injected function is called
 * with an error while a branch is open; an iterable a `for…of` took is empty while lines after the
 * loop are uncovered.
 */
function outcomeCandidates(input: ExploreInput, facts: ScenarioFacts, branchHits: readonly boolean[][], covered: ReadonlySet<number>, measured: readonly number[], base: ScenarioAnswers): Candidate[] {
  const { map } = input;
  const { callees, iterables, traces } = facts;
  const uncovered = measured.filter((l) => !covered.has(l));
  if (uncovered.length === 0) return [];
  const out: Candidate[] = [];
  const seen = new Set<string>();
  // A callback is called from its callee's definition (`fs.readFile#cb2`: fs.readFile is learnt again).
  const add = (element: string, line: number, outcome: ValueOutcome, touched = element): void => {
    if (seen.has(element) || base.outcomes?.[element] !== undefined) return;
    seen.add(element);
    out.push({ flip: { text: element, line, outcome }, ask: { outcomes: { [element]: outcome } }, touches: [touched] });
  };
  const siteOf = (sid: string) => map.sites[Number(sid)];
  for (const { block, handler } of map.tries ?? []) {
    if (!uncovered.some((l) => l >= handler[0] && l <= handler[1])) continue;
    for (const [sid, element] of Object.entries(callees)) {
      const site = siteOf(sid);
      if (!site || site.line < block[0] || site.line > block[1]) continue;
      const result = traces.get(`${element}()`);
      add(element, site.line, result?.awaited || (result?.promiseMethods?.length ?? 0) > 0 ? 'reject' : 'throw');
    }
  }
  const branchOpen = branchHits.some((b) => b.some((hit) => !hit));
  const catchOpen = (map.tries ?? []).some(({ handler }) => uncovered.some((l) => l >= handler[0] && l <= handler[1]));
  if (branchOpen || catchOpen) for (const file of facts.files) add(file, 0, 'error');
  // Where each injected function was first called (sites in source order).
  const lineOf = new Map<string, number>();
  for (const [sid, element] of Object.entries(callees)) if (!lineOf.has(element)) lineOf.set(element, siteOf(sid)?.line ?? 0);
  for (const trace of traces.all()) {
    for (const call of [...(trace.calls ?? []), ...(trace.constructs ?? [])]) {
      for (const cb of call.callbacks) {
        // An error-first callback's error is tested (a branch is open); a listener of an error event runs only with one.
        if ((cb.errorFirst && branchOpen) || cb.onError) add(callbackElementId(trace.id, cb.index, cb.prop), lineOf.get(trace.id) ?? 0, 'error', trace.id);
      }
    }
  }
  for (const d of facts.report.drives ?? []) {
    const target = input.driveTargets[d.k];
    if (d.errorArg === 'null' && target && branchOpen) add(`${target.name}#arg0`, target.line, 'error');
  }
  for (const [sid, element] of Object.entries(iterables)) {
    const site = siteOf(sid);
    if (site && uncovered.some((l) => l > site.line)) add(element, site.line, 'empty');
  }
  return out;
}
