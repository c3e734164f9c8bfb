import type { ReportedError, RuntimeConfig } from '../../protocol/runtime.ts';
import { list, rec } from './ownData.ts';
import { ErrorCtor, ObjectCreate, ObjectFreeze } from './primordials.ts';

/** What the host told the runtime for this run (set once, by start), detached from Object.prototype. */
export let config: RuntimeConfig;

/** The state of the run the modules share; one per context, as the runtime's script is. */
export const run = rec({
  /** The snippet's top level finished. */
  done: false,
  /** Nothing more of the snippet runs: an uncaught error, exit(), a halt, an exhausted learning budget. */
  stopped: false,
  /** The host said the time is up, or a watched loop stalled (stalledLoop). */
  halted: false,
  /** The watched loop (branch id) that took STALL_TURNS turns in one entry, which ended the run; -1: none. */
  stalledLoop: -1,
  /** The hook site that ran last (-1: none yet, or a value an environment asked for). */
  lastSite: -1,
  /**
   * What every hook throws once the run is ending, past any catch of the snippet's: EXIT after an
   * environment's exit() (the run ended as completed), HALT after a watched loop stalled
   * (stalledLoop); undefined while the run goes on.
   */
  unwind: undefined as object | undefined,
  /** The hook sites of the snippet's calls exit() unwound, innermost first: each of those lines ran, as in Node. */
  exitSites: list<number>(),
  exitCode: 0,
  /** The errors that ended the run or one of its callbacks (at most 20). */
  errors: list<ReportedError>(),
});

export function setConfig(c: RuntimeConfig): void {
  config = c;
}

/** Thrown once the host says the time is up: it ends the run, and is no error of the snippet's. */
export const HALT: Error = ObjectFreeze(new ErrorCtor('snipexec: the time limit was reached'));
/** Thrown by exit(): it unwinds whatever runs, and ends the run as completed. */
export const EXIT: object = ObjectFreeze(ObjectCreate(null));
