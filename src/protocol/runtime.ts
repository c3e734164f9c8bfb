/**
 * The contract between the host (src/sandbox) and the guest runtime inside the isolate
 * (src/guest/runtime): what the host tells the runtime when a run starts, the lifecycle it
 * drives the run with, the messages that cross the bridge, and the report the runtime hands
 * back. Imported by both sides; holds types and constants only.
 */
import type { TraceTable } from './trace.ts';
import type { ValueOutcome } from '../core/explored.ts';

/** Exploration's outcomes travel to the guest: it reads the type from here, since the guest imports protocol only. */
export type { ValueOutcome };

/** What the host tells the in-isolate runtime; sent as one JSON string. */
export interface RuntimeConfig {
  readonly hook: string;
  /** What Function.prototype.toString shows in place of the hook's name in a function's text. */
  readonly shownHook: string;
  /** Counters: one per statement, then one per function of the snippet (counterCount). */
  readonly statements: number;
  readonly branches: readonly number[];
  /** Each hook site's expression as V8 names it in an error message. */
  readonly sites: readonly string[];
  /** Per site id, the TypeError messages of its operation: for a null or undefined value, and for any other. */
  readonly messages: Readonly<Record<number, readonly [string, string]>>;
  readonly seed: number;
  readonly startTime: number;
  readonly maxConsoleBytes: number;
  /** Firings in a row that cover nothing new after which a timer is not run again (0: never stopped; src/guest/runtime/staleTimers.ts). */
  readonly staleTimerTicks: number;
  /** Per operator site id, the answer a recording proxy gives to run more of the code. */
  readonly prefer: Readonly<Record<number, boolean>>;
  /** Per `switch` site id, the case value a recording proxy takes instead of the one that runs the most (exploration). */
  readonly cases?: Readonly<Record<number, string | number | boolean>>;
  /** Per element id, the other outcome a recording proxy gives in this scenario (exploration): see ValueOutcome. */
  readonly outcomes?: Readonly<Record<string, ValueOutcome>>;
  /** The functions the snippet defines (src/instrument/driveTargets.ts), by index; environments see the top-level ones. */
  readonly driveTargets: readonly GuestDriveTarget[];
  /** Call the targets nothing called, after the snippet and the environments' drivers (drive). */
  readonly drive: boolean;
  /** Drive only these targets (by index), when present: `snipexec diff` drives the functions around a change. */
  readonly driveOnly?: readonly number[];
  /**
   * With driveOnly: drive those targets even when the program's own load called them (`_.extend`
   * called by the library's top level is still driven with learnt values): `snipexec diff`.
   */
  readonly driveEntered?: boolean;
  /**
   * Per target index, how many arguments drive passes it (fewer than it declares: the rest are
   * absent, `arguments.length` is this): a caller's shorter call (`snipexec diff`'s arity edges).
   */
  readonly driveArity?: Readonly<Record<number, number>>;
  /**
   * Per drive target (by index), the fields of `this` its callers set on the object they call it
   * on (`res.jsonp` reads `this.app`): drive calls it on an object that inherits from its owner,
   * with each field its owner lacks learnt (`res.jsonp#this.app`): `snipexec diff` (receiverFields).
   */
  readonly driveReceivers?: Readonly<Record<number, readonly string[]>>;
  /**
   * Generated-to-original positions of the snippet's script, as [generated line, generated column,
   * original line, original column] quadruples: stack frames print the original code's (src/instrument/stackPositions.ts).
   */
  readonly positions: readonly number[];
}

/** Who an error is blamed on: the snippet's own code, an injected value, or an environment's code. */
export type Attribution = 'injected' | 'snippet' | 'environment';

/** How a drive target is called: plainly, on its owner, on an instance, as a constructor, or through an accessor. */
export type DriveKind = 'function' | 'method' | 'static' | 'getter' | 'setter' | 'constructor';

/** What the runtime needs of a drive target. */
export interface GuestDriveTarget {
  readonly name: string;
  readonly kind: DriveKind;
  readonly params: number;
  readonly memberOf?: 'class' | 'object' | 'prototype';
  readonly key?: string;
  readonly static?: boolean;
  readonly topLevel: boolean;
  /** Its first parameter is an error by Node's convention (CALLBACK_CONVENTIONS): drive passes null, or an error when exploration asks. */
  readonly errorFirst?: true;
}

/** A call the runtime made to a target nothing called (drive). */
export interface DriveRecord {
  /** The target's index. */
  readonly k: number;
  /** `pending` until it settles: a run that timed out leaves it so; `exited`: it called exit(), which ended that call only. */
  outcome: 'returned' | 'threw' | 'exited' | 'pending';
  /** Its error, when it threw (also in the run's errors, with `drive: k`). */
  error?: { type: string; message: string };
  /**
   * The receiver of a method of a class or prototype: made with `new` and learnt arguments, or by
   * Object.create when that threw; `inherit`: an object inheriting from the method's owner, with
   * the learnt fields of `this` its callers set (driveReceivers).
   */
  receiver?: 'new' | 'create' | 'inherit';
  /** With `inherit`: the fields learnt on the receiver (`app` for `res.jsonp#this.app`). */
  fields?: string[];
  /** With `inherit`: the receiver was made by the constructor of the outside class its owner extends, with this many learnt arguments. */
  constructed?: number;
  /** A member assigned to its owner that the owner no longer held when it was called (its name was bound again). */
  detached?: true;
  /** An error-first target's first argument: null (nothing failed), or an error (exploration's outcome `error`). */
  errorArg?: 'null' | 'error';
  /** How many arguments it was called with, when fewer than its parameters (driveArity). */
  arity?: number;
}

/**
 * Where in the captured stdout the output of snipexec's own calls begins (a UTF-16 offset, as the
 * string's index): an environment's driver (`by: 'environment'`, `name` the environment), or drive
 * (`by: 'drive'`, `k` the target whose call was running; absent for what its calls left queued).
 * A part lasts until the next one; what comes before the first is the snippet's own.
 */
export interface StdoutPart {
  readonly at: number;
  readonly by: 'environment' | 'drive';
  readonly name?: string;
  readonly k?: number;
}

/** An error that ended the run (or a timer, driver or entry point of it). */
export interface ReportedError {
  type: string;
  message: string;
  /** The hook site where it was raised (-1: none). */
  sid: number;
  /**
   * The original [line, column] of its first stack frame, when no hook raised it and V8 did in the
   * snippet's code (an operation the instrumentation leaves as written: `o.x = v` on null).
   */
  at?: [number, number];
  attribution: Attribution;
  /** The injected element whose value caused it. */
  culprit?: string;
  /** The snippet made it itself (`new TypeError(…)`, `throw`): its own decision, not a bug. */
  explicit?: boolean;
  /** Raised by the call drive made to this target (the run went on to the next one). */
  drive?: number;
}

/** An error the snippet caught itself: a TypeError, RangeError or ReferenceError its own code raised on its own values. */
export interface CaughtError {
  type: string;
  message: string;
  sid: number;
  /** As ReportedError's. */
  at?: [number, number];
  attribution: 'snippet';
  caught: true;
}

/** What the runtime reports after a run; parsed from one JSON string, with the counters read from shared memory. */
export interface RuntimeReport {
  /** Per counter: each statement's, then each function's calls (CoverageMap.functions, by their `counter`). */
  readonly statements: number[];
  readonly branches: number[][];
  readonly stdout: string;
  readonly stdoutDropped: number;
  /** The parts of stdout snipexec's own calls printed (drivers, drive), in order; absent when the snippet printed it all. */
  readonly stdoutParts?: readonly StdoutPart[];
  readonly errors: ReportedError[];
  /** Errors the snippet caught itself: TypeErrors, RangeErrors and ReferenceErrors its own code raised on its own values. */
  readonly caught?: CaughtError[];
  readonly done: boolean;
  /** The host halted the run at its deadline (a value request came too late), or a watched loop took STALL_TURNS turns (stalledLoop). */
  readonly halted?: boolean;
  /** The watched loop (branch id) whose entry took STALL_TURNS turns, which halted the run. */
  readonly stalledLoop?: number;
  readonly pendingTimers: number;
  /** Timers not run again because their callbacks stopped covering anything new (RuntimeConfig.staleTimerTicks). */
  readonly staleTimers?: number;
  readonly lastSite: number;
  /** What the recording proxies of a learning run saw, by element id. */
  readonly traces?: TraceTable;
  /** Definitions that threw while the prelude ran, with their errors. */
  readonly preludeFailures?: { id: string; message: string }[];
  /** Modules whose loader (defineModuleLoader: a project's file) threw at their first require, with the error: the value generator stood in. */
  readonly moduleFailures?: { specifier: string; message: string }[];
  /** An environment's exit(code) ended the run (as completed), with this code. */
  readonly exit?: number;
  /** The hook sites of the snippet's calls exit() unwound, innermost (the `process.exit(…)` itself) first. */
  readonly exitSites?: readonly number[];
  /** The calls drive made, in order. */
  readonly drives?: DriveRecord[];
  /** Per operator site id, the answer a recording proxy gave there first (boolean decisions): what exploration flips. */
  readonly answers?: Readonly<Record<string, boolean>>;
  /** Per call or `new` site id, the element id of the recording proxy first called there: a callee exploration may make throw. */
  readonly callees?: Readonly<Record<string, string>>;
  /** Per `for…of` (or spread) site id, the element id of the recording proxy first iterated there: an iterable exploration may empty. */
  readonly iterables?: Readonly<Record<string, string>>;
  /**
   * What the run used whose effects can outlive its context in the isolate (FinalizationRegistry's
   * register, WeakRef's deref, SharedArrayBuffer, Atomics.wait or waitAsync, WebAssembly): noted by the runtime's own
   * proxies, installed before any other code runs (src/guest/runtime/lastingEffects.ts). The host
   * then runs no other snippet in that isolate (src/sandbox/isolatePool.ts).
   */
  readonly tainted?: readonly string[];
}


/** The report as the runtime serialises it: the counters are not in it (the host reads them from shared memory). */
export type GuestReport = Omit<RuntimeReport, 'statements' | 'branches'>;

/** The kind of element a value request is for (the host's ElementKind, src/values/types.ts). */
export type RequestKind = 'global' | 'receiver' | 'member' | 'return' | 'module' | 'part' | 'callee' | 'constructor' | 'iterable' | 'destructure' | 'argument' | 'environment';

/** A request across the bridge: a value for an element. */
export interface ValueRequest {
  readonly op: 'value';
  readonly id: string;
  readonly kind: RequestKind;
  /** The hook site that needs it (-1: none, e.g. an environment's or a driven function's). */
  readonly sid: number;
  readonly parent?: string;
  readonly key?: string;
  /** Why the value is needed, in the words of the error that would happen without it. */
  readonly message: string;
  /** The element has a value already, which the snippet used in a way it does not support: propose a better one. */
  readonly refine?: boolean;
}

/** A request across the bridge: the last proposal for the element failed to evaluate. */
export interface RejectRequest {
  readonly op: 'reject';
  readonly id: string;
  readonly error: string;
}

export type BridgeRequest = ValueRequest | RejectRequest;

/**
 * The host's answer to a bridge request: a proposal (JavaScript source whose `$i` are the values
 * of the element ids `refs[i]`), a recording proxy (a learning run), none (`{}`), or a halt (the
 * deadline passed: the run ends).
 */
export type BridgeReply =
  | { readonly source: string; readonly refs: readonly string[] }
  | { readonly probe: true }
  | { readonly halt: true }
  | Readonly<Record<string, never>>;

/**
 * The bridge as the guest sees it: isolated-vm's Reference to the host's handler, which takes and
 * returns JSON strings (a BridgeRequest, a BridgeReply).
 */
export interface BridgeReference {
  applySyncPromise(receiver: undefined, args: [json: string]): string;
}

/**
 * Turns one entry of a watched loop may take before the runtime ends the run as stalled (halted,
 * as at the deadline). The host watches the loops a learnt function is called in, whose result
 * could keep them going forever (src/engine/endStalledLoops.ts); at or above its HOT_ITERATIONS,
 * so such a run still counts as stalled in that loop. A loop that takes this many turns in one
 * entry while calling learnt functions has, in practice, no end: the run would otherwise spin
 * until its timeout before the learnt functions are made to end.
 */
export const STALL_TURNS = 100_000;

/**
 * Reads of the virtual clock (`Date.now()`, `new Date()`, and what the environments build on them)
 * in one stretch with no timer firing, past which each read moves it 1 ms: in Node time passes
 * while code runs, so a busy wait (`while (Date.now() < end) {}`) ends; the sandbox's clock moves
 * only when a timer fires. Code that reads the clock fewer times sees it stand still, as before.
 * The runtime (src/guest/runtime/clock.ts) and the emitted program (src/emit/clockPreamble.ts) count alike.
 */
export const CLOCK_READS_BEFORE_MOVING = 1_000;

/** What a `tick` did: ran a timer; found none and nothing waits; found none while the top level waits on background work. */
export const TICK_IDLE = 0;
export const TICK_RAN = 1;
export const TICK_BACKGROUND = 2;
export type TickOutcome = typeof TICK_IDLE | typeof TICK_RAN | typeof TICK_BACKGROUND;

/**
 * The lifecycle object the runtime hands the host. The host calls, in this order: loadEnvironment
 * (setupEnvironment, when the startup snapshot holds its module) for each environment;
 * preludeFailures, adopt and enter with what the prelude, adopt and snippet
 * scripts evaluate to; tick while due answers a timer is due (waiting a little while it answers TICK_BACKGROUND);
 * afterSnippet (tick again when it returns true);
 * drive (tick again when it drove any); report.
 */
export interface RuntimeLifecycle {
  /** Runs an environment's module factory `(module, exports)` and its setup(host); '' when it loaded, else why not. */
  loadEnvironment(name: string, factory: unknown): string;
  /**
   * Runs setup(host) of an environment whose module the isolate's startup snapshot evaluated
   * (ENVIRONMENT_MODULES_GLOBAL); '' when it loaded, else why not. In the load order, as loadEnvironment.
   */
  setupEnvironment(name: string): string;
  /** Calls the snippet's script (an arrow taking the hooks), which runs it through the main hook. */
  enter(script: unknown): void;
  /** The `[id, value]` pairs of the adopt script: the prelude's values, by element id. */
  adopt(pairs: unknown): void;
  /** The `[id, error]` pairs of the prelude's definitions that threw. */
  preludeFailures(pairs: unknown): void;
  /**
   * Runs one due timer: TICK_RAN when one ran (there may be more); when none is left, whether the
   * top level still waits on background work (TICK_BACKGROUND, see due) or not (TICK_IDLE).
   */
  tick(): TickOutcome;
  /**
   * What tick would do now, running nothing: TICK_RAN when a timer is due; else what tick answers
   * when none is left (TICK_BACKGROUND while the top level waits on work V8 finishes off the
   * isolate's thread, an asynchronous WebAssembly compile or Atomics.waitAsync, which the host waits
   * for a little; TICK_IDLE). It runs only the runtime's code, so the host calls it synchronously,
   * which costs less than a hop into the isolate, and hops for a tick only when a timer is due.
   */
  due(): TickOutcome;
  /** Runs the environments' drivers; whether any ran. */
  afterSnippet(): boolean;
  /** The loops (branch ids) whose entries end the run as stalled past STALL_TURNS turns; given before enter, and only when there are any. */
  watchLoops(ids: unknown): void;
  /** Calls the drive targets nothing called and that exist now (one pass, source order); how many it called. */
  drive(): number;
  /** JSON of the GuestReport. */
  report(): string;
}

export type LifecycleMethod = keyof RuntimeLifecycle;

/**
 * How the host calls the lifecycle: one function taking the method's name first, so each call is
 * one hop into the isolate, with no property read per method per run.
 */
export type LifecycleDispatch = <M extends LifecycleMethod>(method: M, ...args: Parameters<RuntimeLifecycle[M]>) => ReturnType<RuntimeLifecycle[M]>;

/**
 * The runtime bundle's entry: the script evaluates to this function, which the host calls once
 * per context with the bridge, the RuntimeConfig as JSON, the shared buffer of the coverage
 * counters (statements, then each branch's outcomes, as float64) and the memory limit in MiB
 * (what isolated-vm does not count, WebAssembly memories and resizable buffers, is held to it).
 */
export type StartRuntime = (bridge: BridgeReference, config: string, counters: SharedArrayBuffer, memoryLimitMb: number) => LifecycleDispatch;

/**
 * The global the isolate's startup snapshot leaves Node's util.inspect (node-inspect-extracted)
 * on; the runtime takes it off before any other code runs.
 */
export const NODE_UTIL_GLOBAL = '__snipexec_nodeUtil';

/**
 * The global the isolate's startup snapshot leaves the module.exports of the environments it
 * evaluated on (a record without a prototype, by environment name); the runtime takes it off
 * right after NODE_UTIL_GLOBAL, before any other code runs.
 */
export const ENVIRONMENT_MODULES_GLOBAL = '__snipexec_environmentModules';

/**
 * The globals the runtime defines or replaces when it starts (Math.random too): a startup snapshot
 * has none of them, so an environment module that reads one while it is evaluated stays out of it.
 */
export const RUNTIME_GLOBALS = ['console', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask', 'Date'] as const;
export type RuntimeGlobal = (typeof RUNTIME_GLOBALS)[number];

/** The file name of the runtime's script in the isolate: stack frames in it (or in code it evaluated) are the runtime's. */
export const RUNTIME_FILENAME = 'snipexec:runtime';

/** The file name of the script that defines the helpers injected definitions call (src/values/dummyTable.ts), run in each context between the runtime's script and its start. */
export const HELPERS_FILENAME = 'snipexec:helpers';
