import { lineStates, type LineState } from '../core/lineStates.ts';
import type { RunResult } from '../core/runResult.ts';

/** How the terminal and the HTML report mark a measured line in each state (core/lineStates.ts), and say it in words. */
export const LINE_MARKS: Readonly<Record<LineState, { readonly mark: string; readonly label: string }>> = {
  covered: { mark: '✓', label: 'covered' },
  explored: { mark: '+', label: 'covered by an explored scenario only' },
  threw: { mark: '!', label: 'threw' },
  uncovered: { mark: '✗', label: 'not covered' },
};

/** The states in the order a legend lists them. */
const LEGEND_ORDER: readonly LineState[] = ['covered', 'explored', 'threw', 'uncovered'];

/** Each measured line's state, read from the result's `lines`: what every view marks. */
export function resultLineStates(result: RunResult): Map<number, LineState> {
  return lineStates(result.lines);
}

/** The states a legend explains for these lines: covered and not covered always, explored and threw when a line is. */
export function legendStates(states: ReadonlyMap<number, LineState>): LineState[] {
  const present = new Set(states.values());
  return LEGEND_ORDER.filter((s) => s === 'covered' || s === 'uncovered' || present.has(s));
}
