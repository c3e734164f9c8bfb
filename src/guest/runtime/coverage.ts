import { list, push, rec } from './ownData.ts';

/**
 * The coverage counters: views on the buffer the host shares with the isolate (statements first,
 * then each branch's outcomes, as float64), so the host reads them even after the isolate is gone.
 * Only this closure holds them; no global names them.
 */
export let statements: Float64Array;
export const branches = list<Float64Array>();
/** How many counters went from 0 to 1 in this run (the coverage hooks count it): new coverage, in O(1). */
export const firstHits = rec({ n: 0 });

/** One frame per loop entry: whether its body ran, how many iterations recording proxies took part in, and how many turns it took (counted in watched loops only). */
export interface LoopFrame {
  entered: boolean;
  probed: number;
  ops: number;
  turns: number;
}
/** Per loop (branch id), the frames of the entries still running (recursion nests them). */
export const loopStacks = list<LoopFrame[] | undefined>();
/** The loops the host watches (lifecycle watchLoops), by branch id: an entry past STALL_TURNS turns ends the run. */
export const watchedLoops = list<true | undefined>();

export function initCoverage(buffer: SharedArrayBuffer, statementCount: number, outcomes: readonly number[]): void {
  statements = new Float64Array(buffer, 0, statementCount);
  for (let i = 0, at = statementCount; i < outcomes.length; at += outcomes[i], i++) push(branches, new Float64Array(buffer, at * 8, outcomes[i]));
}
