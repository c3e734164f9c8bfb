/** What a recording proxy saw of one element during a learning run; JSON, as the isolate reports it. */

export type Primitive = string | number | boolean | null;

/** A callback passed to a recorded call: an argument, or a function-valued property of one. */
export interface CallbackRecord {
  readonly index: number;
  readonly prop?: string;
  /** The callback's declared parameter count (`fn.length`). */
  readonly params: number;
  /** Its parameter names, read off its source; '' where a parameter is a pattern. */
  readonly names: readonly string[];
  /** An error-first callback (callbackConventions.ts): its first argument is null. */
  readonly errorFirst?: boolean;
  /** A listener of an error event (CALLBACK_CONVENTIONS.errorEvent): not run unless `failed`. */
  readonly onError?: boolean;
  /** It was called with an error instead (an exploration scenario's outcome `error`). */
  readonly failed?: boolean;
}

export interface CallRecord {
  readonly argc: number;
  /** Kind of each argument: typeof, or 'null', 'array', 'probe'. */
  readonly args: readonly string[];
  /** Each primitive argument's value, null otherwise. */
  readonly values: readonly Primitive[];
  readonly callbacks: readonly CallbackRecord[];
}

/** The other operand of a comparison or arithmetic operation, with the probe on the left. */
export interface OperandRecord {
  readonly op: string;
  /** The other operand's kind (kindOf), or `self` for a name compared with itself in the source (`v !== v`: NaN). */
  readonly type: string;
  readonly value?: Primitive | '__undefined__';
}

export interface Trace {
  readonly id: string;
  parent?: string;
  /** The member key or callback parameter name this element was reached by. */
  key?: string;
  name?: string;
  reads?: string[];
  writes?: string[];
  has?: string[];
  called?: number;
  calls?: CallRecord[];
  constructed?: number;
  constructs?: CallRecord[];
  iterated?: boolean;
  asyncIterated?: boolean;
  /** Longest array pattern it was destructured with. */
  pattern?: number;
  hints?: string[];
  /** Members read by a key another element converted to (`obj[key]`): `[the key it gave, that element's id]`. */
  keyedBy?: [string, string][];
  compared?: OperandRecord[];
  arith?: OperandRecord[];
  typeofs?: string[];
  instanceOf?: string[];
  awaited?: boolean;
  promiseMethods?: string[];
  keysListed?: boolean;
  /** Truthiness a guard clause was answered with (`if (done) return;` answered false). */
  tests?: boolean[];
  protoRead?: boolean;
  argProbes?: string[];
  /** The error a callback was called with in an exploration scenario (outcome `error`): an Error, with the members the snippet read. */
  failure?: boolean;
  /** Given to JSON.parse: JSON text, of the value learnt for jsonElementId(id). */
  jsonParsed?: boolean;
  /** Iterated, and gave nothing (an exploration scenario's outcome `empty`). */
  emptied?: boolean;
  /** Called, and threw or returned a rejected promise (an exploration scenario's outcome). */
  fails?: 'throw' | 'reject';
  /**
   * Handed a function again by that function's own call-back (or a call-back it led to): calling
   * back each time would never end (`function wrapper() { getHolder(wrapper); }`), so it calls each
   * function back once.
   */
  callbackLoop?: boolean;
  /**
   * Called in a loop that never ended with its learnt result (a measured run stalled in it,
   * endStalledLoops.ts): the function returns that result this many times, then null, as a
   * cursor does at its end (`exec`, `getTokenBefore`, `getRow`).
   */
  endsAfter?: number;
}

export type TraceTable = Record<string, Trace>;

/** Read access to the traces learnt so far for one snippet. */
export interface TraceView {
  get(id: string): Trace | undefined;
}

export const EMPTY_TRACES: TraceView = { get: () => undefined };

/** True when the trace records any use at all, beyond the element being reached. */
export function isUsed(trace: Trace | undefined): boolean {
  if (!trace) return false;
  return Object.keys(trace).some((k) => k !== 'id' && k !== 'parent' && k !== 'key' && k !== 'name' && k !== 'protoRead');
}

/**
 * An element that can key a learnt object in its definition (Trace.keyedBy): a name or a member
 * chain, or one of those with a string method whose result is the key (`headers[name.toLowerCase()]`),
 * which the definition computes the same way (`[String(name).toLowerCase()]`). Group 1 is the chain,
 * group 2 the method.
 */
export const KEY_ELEMENT = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\.(toLowerCase|toUpperCase|trim)\(\))?$/;

/** Child element ids, the same scheme as the isolate's. */
export function memberId(parent: string, key: string): string {
  if (parent === '') return key;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}
