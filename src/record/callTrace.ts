/**
 * The call trace `snipexec record` writes (`PROGRAM.trace.json`) and `snipexec gen-tests` reads,
 * and the contract between generated tests and the test-time module hooks (testHooks.ts).
 * This module is the one home of both: the recorder, the hooks and the test generator import it.
 *
 * File layout (version 2): JSON Lines, written as the program runs (traceWriter.ts), so a trace of
 * any size is never one string: a header line, then one line per call in the order calls ended
 * (`callId` gives the order they started), then an end line.
 * ```
 * {"format":"snipexec-trace","version":2,"program":"shop.js","argv":[]}
 * {"callId":2,"parentCallId":1,...}
 * {"callId":1,"parentCallId":null,...}
 * {"reach":[{"module":"lib.js","qualname":"<anonymous>@3","root":"lib.js","path":["module.exports","plural"],...}]}
 * {"end":true,"exitCode":0,"calls":2}
 * ```
 * The reach line (optional, just before the end line) lists functions a test reaches through a
 * property path from a module's reach() object, found when the program exited (ReachedFunction).
 * The end line says how the program ended, how many call lines precede it, and `truncated` when
 * a limit (`--max-calls`, `--max-trace-bytes`) dropped calls. A trace whose recorder was killed
 * (SIGKILL) gets its end line from `recordProgram`, with `interrupted: true`: calls still in the
 * recorder's buffer are lost. Version 1 (one JSON document `{"version":1,…,"calls":[…]}`) is still read.
 */

export const TRACE_FORMAT = 'snipexec-trace';
export const TRACE_VERSION = 2;

/** How a snapshot stands for a value: `json` is the value itself; the others say what JSON cannot. */
export type Serialization = 'json' | 'undefined' | 'bigint' | 'date' | 'map' | 'set' | 'regexp' | 'function' | 'instance' | 'object' | 'array' | 'symbol' | 'cycle' | 'repr';

export const SERIALIZATIONS: readonly Serialization[] = ['json', 'undefined', 'bigint', 'date', 'map', 'set', 'regexp', 'function', 'instance', 'object', 'array', 'symbol', 'cycle', 'repr'];

/** How a symbol is made again: `Symbol.for(value)`, `Symbol[value]` (a well-known one), or `Symbol(value)` (unique: a test's is another symbol, compared by description). */
export type SymbolRegistry = 'registered' | 'well-known' | 'unique';

/** A symbol-keyed own data property of an object: its key (a `symbol` snapshot), its value, and whether it is enumerable. */
export interface SymbolEntry {
  readonly key: Snapshot;
  readonly value: Snapshot;
  readonly enumerable: boolean;
}

/**
 * A JSON-safe snapshot of one value, taken when it was seen:
 * - `json`: `value` is the value (plain objects and arrays of JSON values, finite numbers, strings, booleans, null);
 * - `undefined`: no `value`;
 * - `bigint`: `value` is its decimal string;
 * - `date`: `value` is its ISO string (an invalid date is `repr`);
 * - `map`: `value` is its entries, each `[key, value]` a snapshot pair;
 * - `set`: `value` is its values, each a snapshot;
 * - `regexp`: `value` is `{ source, flags }`;
 * - `function`: `value` is its name; `function` names the program function it is (its module and qualname), when it is one,
 *   and `withState` says that function object holds more than a function (own properties, a prototype of its own);
 * - `instance`: an object of a class: `class` names it, `value` holds its own enumerable fields as snapshots,
 *   `symbols` its symbol-keyed own data properties (enumerable or not: `Symbol.for('yaml.node.type')` state);
 * - `object`: a plain or null-prototype object that is not all JSON: `value` holds its own enumerable
 *   fields as snapshots, `nullPrototype` is set for `Object.create(null)`, `symbols` as for `instance`;
 * - `array`: an array that is not all JSON: `value` holds its elements as snapshots, `fields` its
 *   own enumerable named properties, if any;
 * - `symbol`: `symbol` says how it is made again (`SymbolRegistry`), `value` is its key or description;
 * - `cycle`: the object that holds it, or one around that: `value` counts the levels up (1: the
 *   object, map, set or array holding it), as in `a.self = a`;
 * - `repr`: not replayable (too deep or too long, a symbol, a redacted secret, a host object):
 *   `value` is a short description, and `redacted` is set when a secret was removed.
 */
export interface Snapshot {
  readonly serialization: Serialization;
  readonly value?: unknown;
  /** `instance`: the class's name; `this` snapshots also carry it. */
  readonly class?: string;
  /** `repr` only: the value held a secret (docs/guide/record.md, redaction). */
  readonly redacted?: true;
  /** `object` only: made by `Object.create(null)`. */
  readonly nullPrototype?: true;
  /** `array` only: its named own enumerable properties (not indices), by name. */
  readonly fields?: Readonly<Record<string, Snapshot>>;
  /** `object` and `instance`: symbol-keyed own data properties. */
  readonly symbols?: readonly SymbolEntry[];
  /** `symbol` only. */
  readonly symbol?: SymbolRegistry;
  /** `function` only: the program function it is (by its text: which closure of that text is not known). */
  readonly function?: { readonly module: string; readonly qualname: string };
  /** `function` only, with `function`: the function object holds own properties or has a prototype of its own, beyond a plain function's. */
  readonly withState?: true;
}

/**
 * A call's result as the two fields CallRecord keeps: `returnValue` is the snapshot's `value`, or,
 * for the serializations that carry more (`instance`, `object`, `symbol`, an `array` with `fields`), the snapshot without its
 * `serialization` (readTrace's returnSnapshot reads either back).
 */
export function returnFields(s: Snapshot): { readonly returnValue?: unknown; readonly returnSerialization: Serialization } {
  if (s.serialization === 'instance' || s.serialization === 'object' || s.serialization === 'symbol' || (s.serialization === 'array' && s.fields !== undefined)) {
    const { serialization, ...rest } = s;
    return { returnValue: rest, returnSerialization: serialization };
  }
  return { returnValue: s.value, returnSerialization: s.serialization };
}

/** The `repr` value of a state variable read before its `let` ran (CallRecord `state`). */
export const UNINITIALIZED = 'uninitialized';

/** `constructor`: a class's constructor run by `new` (qualname `Class.constructor`); its result is the object it built. */
export type CallKind = 'function' | 'method' | 'static' | 'getter' | 'setter' | 'async' | 'generator' | 'arrow' | 'constructor';

export const CALL_KINDS: readonly CallKind[] = ['function', 'method', 'static', 'getter', 'setter', 'async', 'generator', 'arrow', 'constructor'];

/** One call of one of the program's own functions, recorded when it returned, threw or (async) settled. */
export interface CallRecord {
  /** 1, 2, … in the order calls started. */
  readonly callId: number;
  /** The recorded call that made this one; null at the top level (or from an event, timer or library callback). */
  readonly parentCallId: number | null;
  /** The file, relative to the program's directory, with `/` separators (`lib/cart.js`). */
  readonly module: string;
  /** `fn`, `Class.method`, `Class.staticMethod`, `outer.inner`, or `<anonymous>@line` (`<anonymous>@line:column` when its line has another). */
  readonly qualname: string;
  readonly kind: CallKind;
  /** The line of the function's start in its module (1-based). */
  readonly line: number;
  /** By parameter name, in declaration order; a destructured parameter is `arg0`, `arg1`… by position; a rest parameter's snapshot is an array. */
  readonly args: Readonly<Record<string, Snapshot>>;
  /** Methods, getters and setters: the receiver's own state and its class (`class`). */
  readonly this?: Snapshot;
  /**
   * The module's state variables the function names (top-level `let`/`var` some function assigns:
   * record/stateVariables.ts), by name, as the call started; one whose `let` had not run yet is the
   * `repr` `uninitialized`. A test sets them again before the call.
   */
  readonly state?: Readonly<Record<string, Snapshot>>;
  /** Present when the call returned (async: fulfilled); a constructor's is the object it built, snapshotted as its body ended. */
  readonly returnValue?: unknown;
  readonly returnSerialization?: Serialization;
  /** Present (true) when the call threw (async: rejected). */
  readonly threw?: true;
  /** What was thrown: the error's class name, the program module that defines that class (absent for a built-in), and its message. */
  readonly exception?: { readonly name: string; readonly module?: string; readonly message?: string };
  /** A sync generator that ran to its end: the values it yielded, in order (absent when it stopped early, threw, delegated with `yield*` to anything but a generator, or yielded over 1,000). */
  readonly yields?: readonly Snapshot[];
  /** A closure: the recorded call that made it and returned it, and where it is in that call's result (record/closureOrigins.ts). */
  readonly made?: MadeBy;
}

/** The call of its enclosing function that made a closure, and its path in that call's result (`['on']`; `[]`: the result itself). */
export interface MadeBy {
  readonly callId: number;
  readonly path: readonly string[];
  /** The closure's last parameter is a rest parameter (its snapshot an array, spread into a call). */
  readonly rest?: true;
  /** The call returned the very object its maker call returned (a builder's chained `replace()`). */
  readonly returnsMade?: true;
}

/** The first line of a version-2 trace. */
export interface TraceHeader {
  readonly format: typeof TRACE_FORMAT;
  readonly version: typeof TRACE_VERSION;
  /** The program's path relative to the trace file's directory. */
  readonly program: string;
  /** The arguments the program was given (its `process.argv.slice(2)`), secrets redacted. */
  readonly argv: readonly string[];
}

/** The limits of one recording (`record --max-calls`, `--max-trace-bytes`; core/options.ts validates them). */
export interface TraceLimits {
  /** Calls past this many (by start order) are not recorded; the program still runs them. */
  readonly maxCalls: number;
  /** The trace file stays at most this many bytes, its end line included. */
  readonly maxTraceBytes: number;
}

/** What a limit cut from a trace. */
export interface Truncation {
  /** The limit that was reached first. */
  readonly limit: 'maxCalls' | 'maxTraceBytes';
  /** Its value. */
  readonly max: number;
  /** The calls that ended or started past it and are not in the trace. */
  readonly droppedCalls: number;
}

/** The last line of a version-2 trace. */
export interface TraceEnd {
  readonly end: true;
  /** How the program ended (128 + the signal's number when a signal ended it). */
  readonly exitCode: number;
  /** How many call lines the trace holds. */
  readonly calls: number;
  readonly truncated?: Truncation;
  /** The signal that ended the program, when the recorder saw it. */
  readonly signal?: string;
  /** The recorder was killed before it could end the trace (recordProgram wrote this line): calls it had not yet written are lost. */
  readonly interrupted?: true;
}

/**
 * A function of the program a test reaches through a property path from what reach(`root`) gives
 * (`['module.exports', 'plural']`), as the program left it at exit (reachPaths.ts): its own
 * declaration may be anonymous or nested. With its parameters and form as the recorder saw them.
 */
export interface ReachedFunction {
  readonly module: string;
  readonly qualname: string;
  readonly root: string;
  readonly path: readonly string[];
  readonly params: readonly { readonly name: string; readonly rest: boolean }[];
  readonly async: boolean;
  readonly generator: boolean;
  /** One of several closures of one text: the recorded call that made and returned it, whose calls (CallRecord `made`) it is the one of. */
  readonly maker?: number;
}

/** The line before the end line that lists the reached functions (version 2; absent when none are). */
export interface TraceReach {
  readonly reach: readonly ReachedFunction[];
}

/** The trace as read (readTrace.ts): the calls sorted by callId, whatever the file's version. */
export interface CallTrace {
  /** The file format's version it was read from. */
  readonly version: 1 | typeof TRACE_VERSION;
  /** The program's path relative to the trace file's directory. */
  readonly program: string;
  /** The arguments the program was given (its `process.argv.slice(2)`). */
  readonly argv: readonly string[];
  /** How the program ended. */
  readonly exitCode: number;
  readonly calls: readonly CallRecord[];
  /** Set when a limit dropped calls from the trace. */
  readonly truncated?: Truncation;
  /** Functions reached through a property path at the program's exit (the reach line). */
  readonly reach?: readonly ReachedFunction[];
}

/** Whether a parsed trace line is the end line (a call line has a `callId`, never `end`). */
export function isTraceEnd(line: object): line is TraceEnd {
  return 'end' in line && (line as { end: unknown }).end === true;
}

/** `truncated at --max-calls 1000: 5 calls dropped`: what cut a trace, for a summary line. */
export function describeTruncation(t: Truncation): string {
  const flag = t.limit === 'maxCalls' ? '--max-calls' : '--max-trace-bytes';
  return `truncated at ${flag} ${t.max}: ${t.droppedCalls} call${t.droppedCalls === 1 ? '' : 's'} dropped`;
}

/**
 * The trace file's name for a program: `shop.js` → `shop.js.trace.json`, next to it.
 */
export function traceFileFor(programPath: string): string {
  return `${programPath}.trace.json`;
}

/** The key under which a recorded function is mocked and reached in generated tests: `lib/cart.js#Cart.total`. */
export function callKey(module: string, qualname: string): string {
  return `${module}#${qualname}`;
}

/**
 * Test-time contract (testHooks.ts installs it; generated tests use it through that module):
 * - `MOCKS_SYMBOL`: on globalThis, a Map from callKey to a function. While a key is set, every call
 *   of that program function (from anywhere in the program) returns what the mapped function
 *   returns, called with the same `this` and arguments, instead of running the function's body.
 * - `REACH_SYMBOL`: on globalThis, a Map from module (relative path) to an object holding the
 *   module's top-level function and class declarations and top-level `const/let/var` bindings of
 *   functions and object literals, by name (and a CommonJS module's `module.exports` as
 *   `module.exports`), filled when the module has evaluated: a test reaches functions the module
 *   does not export.
 */
export const MOCKS_SYMBOL = 'snipexec.test.mocks';
/**
 * On globalThis, a Map from callKey to how many times that function ran, for the program's
 * anonymous and nested functions (no test calls them by name): the test of the call that runs
 * them asserts how often they ran.
 */
export const CALLS_SYMBOL = 'snipexec.test.calls';
export const REACH_SYMBOL = 'snipexec.test.reach';
