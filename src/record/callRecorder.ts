import { types } from 'node:util';
import { returnFields, UNINITIALIZED, type CallRecord, type MadeBy, type ReachedFunction, type Snapshot } from './callTrace.ts';
import { ClosureOrigins } from './closureOrigins.ts';
import { delegating } from './delegatingIterator.ts';
import { exceptionOf } from './exceptionOf.ts';
import { programFunction } from './functionIds.ts';
import { reachPaths } from './reachPaths.ts';
import type { FunctionInfo } from './functionNames.ts';
import { snapshotValue, type SnapshotContext } from './snapshotValue.ts';
import type { CallSink } from './traceWriter.ts';

/** One call on its way: started, not yet returned, thrown or settled. */
export interface ActiveCall {
  readonly callId: number;
  readonly parentCallId: number | null;
  readonly fn: number;
  /** The call that was running when this one last came onto the stack; it runs again when this one leaves. */
  saved: ActiveCall | null;
  readonly args: Record<string, Snapshot> | undefined;
  readonly self: Snapshot | undefined;
  /** The module state variables the function names, as the call started. */
  readonly state: Record<string, Snapshot> | undefined;
  /** A closure: the call that made it and its path in that call's result (closureOrigins.ts). */
  readonly made: MadeBy | undefined;
  outcome: 'none' | 'returned' | 'threw';
  value: unknown;
  /** A plain function called with `new`: the object it builds (what `new` gives unless it returns another object). */
  readonly constructed: object | undefined;
  /** A generator's values so far (null: some not seen, through `yield*` of something else than a generator, or too many), and whether it ran to its end. */
  yields?: Snapshot[] | null;
  done?: boolean;
}

/** A generator keeps at most this many values; one that yields more is recorded without them. */
const MAX_YIELDS = 1000;
/** Generators started and not ended that the recorder keeps; past this, the oldest is recorded without its values. */
const MAX_OPEN_GENERATORS = 10_000;

type Outcome = Pick<CallRecord, 'returnValue' | 'returnSerialization' | 'threw' | 'exception'>;

/** The exception name of a call whose exception was stopped by code outside the program, so never seen. */
export const UNKNOWN_EXCEPTION = '<unknown>';

const PromiseThen = Promise.prototype.then;
const GENERATOR: Outcome = { returnValue: 'generator object', returnSerialization: 'repr' };
const queue = queueMicrotask;
const { apply } = Reflect;
const { getOwnPropertyDescriptor } = Object;

/**
 * The in-process side of `snipexec record`: the instrumented program reports each call here
 * (instrumentCalls.ts inserts the calls), and the recorder keeps one CallRecord per call. It tracks
 * which call is running, across awaits too, so each call names its parent. It never throws into the
 * program and never runs the program's code.
 */
export class CallRecorder {
  private readonly functions: FunctionInfo[] = [];
  private readonly classModules = new WeakMap<object, string>();
  /** By prototype, the program function `new` built objects of it with (`new.target`, as first seen). */
  private readonly builtBy = new WeakMap<object, object>();
  private readonly reachRoots = new Map<string, object>();
  private readonly openGenerators = new Set<ActiveCall>();
  private readonly origins = new ClosureOrigins();
  private readonly sink: CallSink;
  private readonly ctx: SnapshotContext;
  private nextCallId = 1;
  private current: ActiveCall | null = null;
  /** Sync calls that threw, by the call they threw into (null: the top level), until a catch clause there says what. */
  private readonly unwound = new Map<ActiveCall | null, ActiveCall[]>();
  private sweepQueued = false;

  /** Each call goes to `sink` when it ends; the sink's limits say which calls are recorded at all. */
  constructor(isSecret: (s: string) => boolean, sink: CallSink) {
    this.sink = sink;
    this.ctx = {
      isSecret,
      isProgramClass: (ctor) => typeof ctor === 'function' && this.classModules.has(ctor),
      builtBy: (proto) => this.builtBy.get(proto),
      programFunction: (fn) => programFunction(fn, this.functions, this.classModules),
    };
  }

  /** A module's reach() object (its top-level bindings and `module.exports`, as getters), published as the module starts. */
  reach(module: string, getters: object): void {
    this.reachRoots.set(module, getters);
  }

  /** The functions a test reaches through a property path from a module's reach(), as the program leaves them (at exit). */
  reached(): readonly ReachedFunction[] {
    try {
      return reachPaths(this.reachRoots, this.functions, (fn) => this.origins.makerOf(fn));
    } catch {
      return [];
    }
  }

  /** Gives a function its id, once, when its module is instrumented. */
  define(info: FunctionInfo): number {
    return this.functions.push(info) - 1;
  }

  /** A class of the program, as it is defined (from a static block): its objects are instances, its errors name its module. */
  cls(klass: object, module: string): void {
    this.classModules.set(klass, module);
  }

  /**
   * A call starts: its arguments (and receiver) are snapshotted now. `newTarget`: a plain function's
   * `new.target` (it may be a constructor); `state`: its module's state reader (stateVariables.ts),
   * when the function names state variables, which are snapshotted now too; `maker`: a nested
   * function's enclosing call (its id), which made this closure.
   */
  enter(fn: number, self: unknown, args: readonly unknown[], newTarget?: unknown, state?: (name: string) => unknown, maker?: number): ActiveCall {
    const parent = this.current;
    const callId = this.nextCallId++;
    const recorded = this.sink.accepts(callId);
    const info = this.functions[fn];
    // A function constructor of the program: its objects are instances, as a class's are.
    if (typeof newTarget === 'function' && info !== undefined && !this.classModules.has(newTarget)) {
      this.classModules.set(newTarget, info.module);
      const proto = types.isProxy(newTarget) ? undefined : getOwnPropertyDescriptor(newTarget, 'prototype');
      if (proto !== undefined && 'value' in proto && typeof proto.value === 'object' && proto.value !== null && !this.builtBy.has(proto.value)) this.builtBy.set(proto.value, newTarget);
    }
    const call: ActiveCall = {
      constructed: newTarget !== undefined && typeof self === 'object' && self !== null ? self : undefined,
      callId,
      parentCallId: parent?.callId ?? null,
      fn,
      saved: parent,
      args: recorded ? this.args(fn, args) : undefined,
      self: recorded && info?.hasThis === true ? snapshotValue(self, this.ctx) : undefined,
      state: recorded && info?.state !== undefined && typeof state === 'function' ? this.state(info.state, state) : undefined,
      made: recorded && typeof maker === 'number' ? this.origins.madeBy(maker, fn, info?.params.at(-1)?.form === 'rest') : undefined,
      outcome: 'none',
      value: undefined,
    };
    this.current = call;
    return call;
  }

  /**
   * A generator's body starts (its first next()). A sync one's call ends with genEnd (recorded
   * then, with its values when it ran to its end); an async one's is recorded at once.
   */
  gen(fn: number, self: unknown, args: readonly unknown[]): ActiveCall {
    const call = this.enter(fn, self, args);
    const isAsync = this.functions[fn]?.isAsync === true;
    // A sync generator's body is the current call until it yields (its yields are wrapped; an async one's are not).
    if (isAsync) this.current = call.saved;
    if (isAsync || call.args === undefined) {
      this.finish(call, GENERATOR);
      return call;
    }
    call.yields = [];
    call.done = false;
    this.openGenerators.add(call);
    if (this.openGenerators.size > MAX_OPEN_GENERATORS) {
      const [oldest] = this.openGenerators;
      if (oldest !== undefined) this.closeGenerator(oldest);
    }
    return call;
  }

  /** A sync generator yields `value`: its consumer runs next. */
  yielded<T>(call: ActiveCall, value: T): T {
    if (call.yields) {
      if (call.yields.length >= MAX_YIELDS) call.yields = null;
      else call.yields.push(snapshotValue(value, this.ctx));
    }
    return this.suspend(call, value);
  }

  /**
   * A sync generator delegates (`yield*`). To a generator object, yield* is given one that passes
   * each step on and keeps the values (the steps are the generator's own objects, read as data);
   * anything else is passed as it is, and the call keeps no values. Either way the generator is
   * off the stack while its consumer runs (between steps), and on it while an inner generator's step runs.
   */
  genDelegates<T>(call: ActiveCall, iterable: T): T {
    if (!types.isGeneratorObject(iterable)) {
      call.yields = null;
      // Its consumer runs between the steps, which are no code of this generator: it is off the stack until yield* ends.
      return this.suspend(call, iterable);
    }
    // Each step of the inner generator runs inside this one (its parent), and the consumer after it.
    return delegating(iterable as Iterator<unknown> & object, () => this.at(call), (step) => {
      this.suspend(call, undefined);
      if (!call.yields || typeof step !== 'object' || step === null) return;
      const done = getOwnPropertyDescriptor(step, 'done');
      const value = getOwnPropertyDescriptor(step, 'value');
      if (done === undefined || !('value' in done) || value === undefined || !('value' in value)) call.yields = null;
      else if (done.value !== true && call.yields.length >= MAX_YIELDS) call.yields = null;
      else if (done.value !== true) call.yields.push(snapshotValue(value.value, this.ctx));
    }) as T;
  }

  /** A sync generator ran to its end (a return, or the end of its body). */
  genDone(call: ActiveCall): void {
    call.done = true;
  }

  /** A sync generator's body is left for good (its finally): its consumer runs again, and it is recorded. */
  genEnd(call: ActiveCall): void {
    if (this.current === call) this.current = call.saved;
    this.closeGenerator(call);
  }

  private closeGenerator(call: ActiveCall): void {
    if (!this.openGenerators.delete(call)) return;
    this.finish(call, GENERATOR);
  }

  ret<T>(call: ActiveCall, value: T): T {
    call.outcome = 'returned';
    call.value = value;
    return value;
  }

  /** The end of the body was reached: the call returns undefined. */
  done(call: ActiveCall): void {
    call.outcome = 'returned';
    call.value = undefined;
  }

  /** A constructor reached the end of its body: `new` gives the object it built. */
  built(call: ActiveCall, self: object): void {
    call.outcome = 'returned';
    call.value = self;
  }

  /** An async call rejects with `error` (its own catch, which also names what its sync children threw). */
  threw(call: ActiveCall, error: unknown): void {
    call.outcome = 'threw';
    call.value = error;
    this.settleUnwound(call, error);
  }

  /** A catch clause of the program caught `error`: the sync calls it unwound threw it. */
  caught(error: unknown): void {
    this.settleUnwound(this.current, error);
  }

  /** An uncaught exception (the 'uncaughtExceptionMonitor' event): every call still unwinding threw it. */
  uncaught(error: unknown): void {
    for (const owner of [...this.unwound.keys()]) this.settleUnwound(owner, error);
  }

  /** The call leaves the stack for good: the caller runs again, and the call is recorded (an async one has settled). */
  exit(call: ActiveCall): void {
    this.current = call.saved;
    if (call.outcome === 'none') return this.unwinding(call);
    // It returned: an exception its children threw was stopped by code outside the program.
    this.settleUnwound(call, undefined, true);
    if (call.args === undefined) return;
    if (call.outcome === 'threw') return this.finish(call, this.thrown(call.value));
    const info = this.functions[call.fn];
    if (info?.encloses === true) this.origins.returned(call.callId, call.value);
    // A function constructor: `new` gives the object it built unless the function returned another object.
    if (call.constructed !== undefined && (call.value === null || (typeof call.value !== 'object' && typeof call.value !== 'function'))) call.value = call.constructed;
    // `return;` (or a primitive) in a constructor: `new` gives `this`, which was not seen there (before super() it is not bound).
    if (info?.kind === 'constructor' && (call.value === null || (typeof call.value !== 'object' && typeof call.value !== 'function'))) {
      return this.finish(call, { returnValue: 'the object of a constructor that returned early', returnSerialization: 'repr' });
    }
    // An async function returning a promise settles with it; the function's own promise adopts it, so watching it changes nothing.
    if (info?.isAsync && types.isPromise(call.value)) {
      apply(PromiseThen, call.value, [(v: unknown) => this.finish(call, this.returned(v)), (e: unknown) => this.finish(call, this.thrown(e))]);
      return;
    }
    this.finish(call, this.returned(call.value));
  }

  /** An async call is about to await: the code that called it (or the event loop) runs next. */
  suspend<T>(call: ActiveCall, value: T): T {
    if (this.current === call) this.current = call.saved;
    return value;
  }

  /** An async call resumes after an await, with the awaited value. */
  resume<T>(call: ActiveCall, value: T): T {
    this.at(call);
    return value;
  }

  /** An async call runs again (after an await that threw, or a `for await` step). */
  at(call: ActiveCall): void {
    if (this.current === call) return;
    call.saved = this.current;
    this.current = call;
  }

  /** The program ends: calls still unwinding are recorded, with an unknown exception. */
  settle(): void {
    for (const o of [...this.unwound.keys()]) this.settleUnwound(o, undefined, true);
    for (const call of [...this.openGenerators]) this.closeGenerator(call);
  }

  /** A sync call threw: it waits, with the calls it unwound, for the catch clause of the call it threw into. */
  private unwinding(call: ActiveCall): void {
    const owner = call.saved;
    const list = this.unwound.get(owner) ?? [];
    const inner = this.unwound.get(call);
    if (inner) this.unwound.delete(call);
    list.push(call, ...(inner ?? []));
    this.unwound.set(owner, list);
    if (!this.sweepQueued) {
      this.sweepQueued = true;
      // An exception is caught or uncaught before the next microtask: what is still waiting then was stopped outside the program.
      queue(() => {
        this.sweepQueued = false;
        for (const o of [...this.unwound.keys()]) this.settleUnwound(o, undefined, true);
      });
    }
  }

  private settleUnwound(owner: ActiveCall | null, error: unknown, unknown = false): void {
    const list = this.unwound.get(owner);
    if (!list) return;
    this.unwound.delete(owner);
    for (const call of list) this.finish(call, unknown ? { threw: true, exception: { name: UNKNOWN_EXCEPTION } } : this.thrown(error));
  }

  private args(fn: number, values: readonly unknown[]): Record<string, Snapshot> {
    const out: Record<string, Snapshot> = {};
    const info = this.functions[fn];
    info?.params.forEach((p, i) => {
      out[p.name] = p.form === 'pattern' && !info.ownArguments
        ? { serialization: 'repr', value: 'destructured parameter of an arrow function' }
        : snapshotValue(values[i], this.ctx);
    });
    return out;
  }

  /** The state variables' values; one not initialized yet (its `let` not reached) is the `repr` UNINITIALIZED. */
  private state(names: readonly string[], read: (name: string) => unknown): Record<string, Snapshot> {
    const out: Record<string, Snapshot> = {};
    for (const name of names) {
      let value: unknown;
      try {
        value = read(name);
      } catch {
        out[name] = { serialization: 'repr', value: UNINITIALIZED };
        continue;
      }
      out[name] = snapshotValue(value, this.ctx);
    }
    return out;
  }

  private returned(value: unknown): Outcome {
    return returnFields(snapshotValue(value, this.ctx));
  }

  private thrown(error: unknown): Outcome {
    return { threw: true, exception: exceptionOf(error, this.classModules, this.ctx.isSecret) };
  }

  private finish(call: ActiveCall, outcome: Outcome): void {
    const info = this.functions[call.fn];
    if (!info || call.args === undefined) return;
    this.sink.write({
      callId: call.callId,
      parentCallId: call.parentCallId,
      module: info.module,
      qualname: info.qualname,
      kind: call.constructed !== undefined ? 'constructor' : info.kind,
      line: info.line,
      args: call.args,
      ...(call.self !== undefined ? { this: call.self } : {}),
      ...(call.state !== undefined ? { state: call.state } : {}),
      ...(call.made !== undefined ? { made: call.outcome === 'returned' ? this.origins.withResult(call.made, call.value) : call.made } : {}),
      ...outcome,
      ...(call.done === true && call.yields ? { yields: call.yields } : {}),
    });
  }
}
