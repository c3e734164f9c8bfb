import type { CoverageMap } from '../instrument/coverageModel.ts';
import { awaitedOnce } from '../protocol/elementIds.ts';
import type { BlameSteps } from './blameDefinitions.ts';
import type { TraceStore } from './traceStore.ts';

/** Iterations of one loop in a stalled run past which it counts as the loop that never ended. */
export const HOT_ITERATIONS = 10_000;
/** How many times a learnt function called in such a loop returns its learnt result before it returns null. */
export const ENDS_AFTER = 3;

/**
 * What a learnt regular expression becomes when its `exec` or `test` keeps a loop going (the
 * learnt `/(?:)/` matches at the same place forever): global, one character at a time, so `exec`
 * moves through the text and returns null at its end, as a regular expression in such a loop must.
 */
export const MOVING_REGEXP = '/[\\s\\S]/g';
const REGEXP_CURSORS = /\.(exec|test)$/;

/** What endStalledLoops needs of the book (DefinitionBook makes it): blame's steps, and the traces it marks. */
export type LoopSteps = Pick<BlameSteps, 'defs' | 'isHeld' | 'traceMade' | 'resynthesize' | 'resolveParts' | 'prune'> & { readonly traces: TraceStore };

/**
 * A run that stalled in a loop whose progress comes from a learnt function
 * (`do { token = getTokenBefore(token) } while (isComment(token))`, `while (m = re.exec(s))`,
 * `while (row = cursor.getRow())`): a learnt function returns the same value forever, where the
 * real one moves on and returns null at the end. The learnt functions called (in the learning
 * runs, `callees`: site → element) inside a loop that ran HOT_ITERATIONS times in the stalled run,
 * and not ended yet: endStalledLoops makes them end. Only a run that stalled is looked at, so a
 * snippet that finishes runs as before.
 */
export function loopEnders(steps: LoopSteps, branchCounts: readonly (readonly number[])[], map: CoverageMap, callees: Readonly<Record<string, string>>): string[] {
  const hot = map.branches.filter((b) => b.kind === 'loop' && b.end !== undefined && (branchCounts[b.id]?.[0] ?? 0) >= HOT_ITERATIONS);
  if (hot.length === 0) return [];
  const enders = new Set<string>();
  for (const [sid, element] of Object.entries(callees)) {
    const site = map.sites[Number(sid)];
    if (!site || !hot.some((b) => site.line >= b.line && site.line <= b.end!)) continue;
    const ender = enderOf(steps, element);
    if (ender !== undefined) enders.add(ender);
  }
  return [...enders];
}

/**
 * The loops a run watches (STALL_TURNS, src/protocol/runtime.ts; src/guest/runtime/coverageHooks.ts): the
 * ones loopEnders could end, were they to stall. An entry of one that takes STALL_TURNS turns ends
 * the run as stalled then, not at its deadline (seconds of spinning); a loop that ends before
 * that runs as it would unwatched.
 */
export function watchedLoops(steps: LoopSteps, map: CoverageMap, callees: Readonly<Record<string, string>>): number[] {
  const lines = Object.entries(callees).flatMap(([sid, element]) => {
    const site = map.sites[Number(sid)];
    return site !== undefined && enderOf(steps, element) !== undefined ? [site.line] : [];
  });
  if (lines.length === 0) return [];
  return map.branches.filter((b) => b.kind === 'loop' && b.end !== undefined && lines.some((line) => line >= b.line && line <= b.end!)).map((b) => b.id);
}

/** What endStalledLoops would change for a call of `element` in a loop: the learnt function itself, or the learnt regular expression whose `exec`/`test` it is; undefined when nothing. */
function enderOf(steps: LoopSteps, called: string): string | undefined {
  const element = awaitedOnce(called);
  const def = steps.defs.get(element);
  if (def !== undefined && !def.proposal.probe && def.proposal.category === 'function' && !steps.isHeld(element) && steps.traceMade(def) && steps.traces.get(element)?.endsAfter === undefined) return element;
  // `re.exec(text)` of a learnt regular expression: the expression itself moves on (MOVING_REGEXP).
  const regexp = def === undefined && REGEXP_CURSORS.test(element) ? element.replace(REGEXP_CURSORS, '') : undefined;
  const owner = regexp === undefined ? undefined : steps.defs.get(regexp);
  if (owner !== undefined && owner.proposal.category === 'RegExp' && owner.proposal.source !== MOVING_REGEXP && !steps.isHeld(owner.id)) return owner.id;
  return undefined;
}

/**
 * Whether endStalledLoops would change any definition of `ids`: a regular expression always
 * changes; a function changes only when it returns a result (one that returns nothing stays as
 * it is). Nothing is changed.
 */
export async function wouldEndLoops(steps: LoopSteps, ids: readonly string[]): Promise<boolean> {
  for (const id of ids) {
    const def = steps.defs.get(id);
    if (def?.proposal.category === 'RegExp') return true;
    if (!def || !steps.traces.endAfter(id, ENDS_AFTER)) continue;
    try {
      const ended = await steps.resynthesize(def);
      if (ended && ended.source !== def.proposal.source) return true;
    } finally {
      steps.traces.keepGoing(id);
    }
  }
  return false;
}

/** Each function of `ids` (loopEnders) returns its learnt result ENDS_AFTER times, then null (Trace.endsAfter); each regular expression becomes MOVING_REGEXP. Returns whether any definition changed. */
export async function endStalledLoops(steps: LoopSteps, ids: readonly string[]): Promise<boolean> {
  let any = false;
  for (const id of ids) {
    const def = steps.defs.get(id);
    if (def?.proposal.category === 'RegExp') {
      def.proposal = { ...def.proposal, source: MOVING_REGEXP };
      any = true;
      continue;
    }
    if (!def || !steps.traces.endAfter(id, ENDS_AFTER)) continue;
    const ended = await steps.resynthesize(def);
    if (!ended || ended.source === def.proposal.source) continue;
    def.proposal = ended;
    await steps.resolveParts(def);
    any = true;
  }
  if (any) steps.prune();
  return any;
}

/** How the book runs a step between runs: a host bug in it is kept, and `otherwise` returned. */
export type GuardedStep = <T>(step: () => Promise<T>, otherwise: T) => Promise<T>;

/** This module's steps, bound to a book's definitions and traces (DefinitionBook.loops). */
export class LoopMender {
  private readonly steps: LoopSteps;
  private readonly guarded: GuardedStep;

  constructor(steps: LoopSteps, guarded: GuardedStep) {
    this.steps = steps;
    this.guarded = guarded;
  }

  /** A run that stalled in a loop: the learnt functions called in it that keep it going (loopEnders). */
  enders(branchCounts: readonly (readonly number[])[], map: CoverageMap, callees: Readonly<Record<string, string>>): string[] {
    return loopEnders(this.steps, branchCounts, map, callees);
  }

  /** The loops a run watches (watchedLoops). */
  watched(map: CoverageMap, callees: Readonly<Record<string, string>>): number[] {
    return watchedLoops(this.steps, map, callees);
  }

  /** Those functions end, as cursors do (endStalledLoops). Returns whether any definition changed. */
  async end(ids: readonly string[]): Promise<boolean> {
    return ids.length > 0 && this.guarded(() => endStalledLoops(this.steps, ids), false);
  }

  /** Whether `end` would change any of those definitions (wouldEndLoops); changes nothing. */
  async wouldEnd(ids: readonly string[]): Promise<boolean> {
    return ids.length > 0 && this.guarded(() => wouldEndLoops(this.steps, ids), false);
  }

  /** Undoes `end` for later syntheses (the definitions go back with the book's `restore`). */
  keepGoing(ids: readonly string[]): void {
    for (const id of ids) this.steps.traces.keepGoing(id);
  }
}
