import type { CallbackConventions } from '../values/trace/callbackConventions.ts';
import type { TraceTable } from '../values/trace/trace.ts';

/** What the host tells the in-isolate runtime; sent as one JSON string. */
export interface RuntimeConfig {
  readonly hook: string;
  readonly statements: number;
  readonly branches: readonly number[];
  /** Each hook site's expression as V8 names it in an error message. */
  readonly sites: readonly string[];
  /** Per site id, the TypeError messages of its operation: for a null or undefined value, and for any other. */
  readonly messages: Readonly<Record<number, readonly [string, string]>>;
  readonly seed: number;
  readonly startTime: number;
  readonly maxConsoleBytes: number;
  readonly helpers: string;
  readonly callbacks: CallbackConventions;
  /** Per operator site id, the answer a recording proxy gives to run more of the code. */
  readonly prefer: Readonly<Record<number, boolean>>;
  /** The top-level functions the snippet registers (environments see them), by registration index. */
  readonly entryPoints: readonly { readonly name: string; readonly params: number }[];
  /** Call the entry points nothing called, at the end (callUncalled). */
  readonly callUncalled: boolean;
}

/** What the runtime reports after a run; parsed from one JSON string. */
export interface RuntimeReport {
  readonly statements: number[];
  readonly branches: number[][];
  readonly stdout: string;
  readonly stdoutDropped: number;
  readonly errors: { type: string; message: string; sid: number; attribution: 'injected' | 'snippet' | 'environment'; culprit?: string; explicit?: boolean }[];
  /** Errors the snippet caught itself: TypeErrors, RangeErrors and ReferenceErrors its own code raised on its own values. */
  readonly caught?: { type: string; message: string; sid: number; attribution: 'snippet'; caught: true }[];
  readonly done: boolean;
  /** The host halted the run at its deadline (a value request came too late). */
  readonly halted?: boolean;
  readonly pendingTimers: number;
  readonly lastSite: number;
  /** What the recording proxies of a learning run saw, by element id. */
  readonly traces?: TraceTable;
  /** Definitions that threw while the prelude ran, with their errors. */
  readonly preludeFailures?: { id: string; message: string }[];
  /** An environment's exit(code) ended the run (as completed), with this code. */
  readonly exit?: number;
  /** Entry points called at the end because nothing else called them (host-side, from drive()). */
  driven?: number[];
}
