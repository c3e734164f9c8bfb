/**
 * Timers that stopped teaching anything: a timer whose callback ran `config.staleTimerTicks` times
 * in a row without covering a new statement or branch outcome is not run again (an endless
 * `setInterval`, a poll that sets its own timeout again). Firings are grouped by where the timer
 * was set (the hook site that ran last when setTimeout/setInterval was called): each new timeout
 * of a poll comes from the same place. What a firing covered is judged when the next tick starts,
 * so the promise jobs the callback queued count for it.
 */
import { firstHits } from './coverage.ts';
import type { Timer } from './clock.ts';
import { ObjectCreate } from './primordials.ts';
import { config } from './run.ts';

/** Per place a timer was set, the firings in a row that covered nothing new. */
const streaks: Record<number, number> = ObjectCreate(null);
/** The place of the timer that ran last (undefined: none since the last judgement). */
let lastPlace: number | undefined;
let coveredBefore = 0;
/** Timers not run again for it: the report says how many. */
export const stale = { stopped: 0 };

/** Judges the firing before this tick: it covered something new or it lengthened its place's streak. */
export function judgeLastFiring(): void {
  if (config.staleTimerTicks === 0) return;
  const covered = firstHits.n;
  if (lastPlace !== undefined) streaks[lastPlace] = covered > coveredBefore ? 0 : (streaks[lastPlace] ?? 0) + 1;
  coveredBefore = covered;
  lastPlace = undefined;
}

/** Whether this timer, taken off the queue to run, is not run (its place's streak reached the limit); else notes it as the one that runs. */
export function staleTimer(timer: Timer): boolean {
  if (config.staleTimerTicks === 0) return false;
  if ((streaks[timer.place] ?? 0) >= config.staleTimerTicks) {
    stale.stopped++;
    return true;
  }
  lastPlace = timer.place;
  return false;
}
