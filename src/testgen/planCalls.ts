import { callKey, type CallRecord, type CallTrace, type Snapshot } from '../record/callTrace.ts';
import type { FunctionShape, MemberShape } from './moduleOutline.ts';
import type { ClassRef, ProgramIndex } from './programIndex.ts';
import { returnSnapshot } from './readTrace.ts';
import { ModuleState, StateSetUp } from './moduleState.ts';
import { instanceClassNames, toReplayValue, type ReplayValue } from './replayValue.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';

/** What a test calls: a top-level function, a member of a top-level class, or such a class with `new`. */
export type Target =
  | { readonly kind: 'function'; readonly module: string; readonly name: string }
  | { readonly kind: 'construct'; readonly class: ClassRef }
  /** A function reached as a property path from the module's reach() object (moduleOutline's `paths`). */
  | { readonly kind: 'path'; readonly module: string; readonly path: readonly string[] }
  | { readonly kind: 'member'; readonly class: ClassRef; readonly member: string; readonly static: boolean; readonly access: 'method' | 'get' | 'set' };

/** An error class as a test names it: a global built-in, or a class reached from its program module. */
export type ErrorRef = { readonly kind: 'builtin'; readonly name: string } | { readonly kind: 'program'; readonly class: ClassRef };

export type Outcome = { readonly kind: 'return'; readonly value: ReplayValue } | { readonly kind: 'throw'; readonly error: ErrorRef; readonly message: string | undefined };

/** A program function the tested call calls, replaced for the test by the outcomes it had, in order. */
export interface ChildMock {
  readonly key: string;
  readonly qualname: string;
  readonly async: boolean;
  readonly outcomes: readonly Outcome[];
}

/** One recorded call as a test: whom to call with what, what it must give, and which calls it makes are replayed. */
export interface TestPlan {
  readonly call: CallRecord;
  readonly target: Target;
  /** A method's receiver, built without its constructor. */
  readonly receiver: ReplayValue | undefined;
  readonly args: readonly ReplayValue[];
  /** The last argument is a rest parameter's array, spread into the call. */
  readonly spreadLast: boolean;
  readonly async: boolean;
  readonly outcome: Outcome;
  readonly mocks: readonly ChildMock[];
  /** A generator: the test spreads what the call gives into an array, which must be the values it yielded. */
  readonly iterate: boolean;
  /** The anonymous and nested functions the call runs for real (no mock): how often each ran, which the test asserts. */
  readonly ran: readonly RanInside[];
}

/** An anonymous or nested program function that ran inside a tested call: its calls are covered by that call's test, which asserts their count. */
export interface RanInside {
  readonly key: string;
  readonly qualname: string;
  /** The recorded calls of it inside the tested call. */
  readonly callIds: readonly number[];
}

export type CallPlan = { readonly call: CallRecord; readonly test: TestPlan } | { readonly call: CallRecord; readonly skip: SkipReason };

/**
 * Plans a test for every call of the trace, or the reason it is skipped, in the trace's order.
 * `mockable` says which callKeys the test-time hooks can replace (testHooks' mockableKeys);
 * `excluded` holds calls already known to be skipped, and why.
 */
export function planCalls(trace: CallTrace, index: ProgramIndex, mockable: (key: string) => boolean, excluded: ReadonlyMap<number, SkipReason> = new Map()): CallPlan[] {
  const children = new Map<number, CallRecord[]>();
  for (const call of trace.calls) {
    if (call.parentCallId === null) continue;
    const list = children.get(call.parentCallId) ?? [];
    list.push(call);
    children.set(call.parentCallId, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.callId - b.callId);
  const unstable = unstableCalls(trace.calls, children);
  const constructors = instanceClassNames(trace.calls);
  const state = new ModuleState(index.programDir);
  const unset = new StateSetUp(trace.calls, state, (child, tested, parent) => runsInline(child, tested, constructors, parent));
  return trace.calls.map((call) => {
    const planned = excluded.get(call.callId) ?? unstable.get(call.callId) ?? planCall(call, { index, children, mockable, constructors, state });
    // In the trace's order: whether the calls before it that set the state it reads are tests themselves is known by then.
    const result = isSkip(planned) ? planned : (unset.check(call) ?? planned);
    return isSkip(result) ? { call, skip: result } : (unset.tested(call), { call, test: result });
  });
}

interface Planning {
  readonly index: ProgramIndex;
  readonly children: ReadonlyMap<number, readonly CallRecord[]>;
  readonly mockable: (key: string) => boolean;
  /** Class names of the trace's objects: a plain function of such a name is a function constructor, run for real as a constructor is. */
  readonly constructors: ReadonlySet<string>;
  readonly state: ModuleState;
}

function planCall(call: CallRecord, planning: Planning): TestPlan | SkipReason {
  const { index } = planning;
  const stopped = 'a generator is replayed only when it ran to its end, yielding at most 1,000 values (none through yield* of anything but a generator), and is not async';
  if (call.kind === 'generator' && call.yields === undefined) return skip('generator', stopped);
  const resolved = resolveTarget(call, index);
  if (isSkip(resolved)) return resolved;
  const { target, shape } = resolved;
  // A top-level function using `this` called without `new` (`new` is recorded as a constructor call) ran as a method or
  // on another constructor's object (`Base.call(this)`): a test would call it with another `this`.
  if (target.kind === 'function' && planning.state.usesThis(call.module, call.line)) return skip('not-json-safe', `its receiver (this) was not recorded: ${call.qualname} uses this, so it ran as a method or on another object`);
  if (shape.generator && call.yields === undefined) return skip('generator', stopped);
  const iterate = shape.generator && call.yields !== undefined;
  const recorded = Object.keys(call.args);
  const current = shape.params.map((param) => param.name);
  if (recorded.join(',') !== current.join(',')) return skip('changed-signature', `recorded with (${recorded.join(', ')}), declared now as (${current.join(', ')})`);
  const context = { index, near: call.module, isResult: false };
  let receiver: ReplayValue | undefined;
  if (target.kind === 'member' && !target.static) {
    if (call.this === undefined) return skip('not-json-safe', 'its receiver (this) was not recorded');
    const built = receiverValue(call.this, context);
    if (isSkip(built)) return built;
    receiver = built;
  }
  const args: ReplayValue[] = [];
  for (const name of current) {
    const value = toReplayValue(call.args[name] as Snapshot, `argument ${name}`, context);
    if (isSkip(value)) return value;
    args.push(value);
  }
  const rest = shape.params.at(-1)?.rest === true;
  const spreadLast = rest && args.at(-1)?.kind === 'json' && Array.isArray((args.at(-1) as { value: unknown }).value);
  // Omitted and undefined arguments behave the same for all but arguments.length: the call reads as written.
  while (!rest && args.at(-1)?.kind === 'undefined') args.pop();
  const outcome = iterate ? yieldedValues(call.yields ?? [], { ...context, isResult: true }) : outcomeOf(call, 'its result', { ...context, isResult: true });
  if (isSkip(outcome)) return outcome;
  const children = childMocks(call, planning);
  if (isSkip(children)) return children;
  return { call, target, receiver, args, spreadLast, async: shape.async || call.kind === 'async', outcome, mocks: children.mocks, iterate, ran: children.ran };
}

/** A generator's values as the array a test compares `[...generator]` with: JSON values only. */
function yieldedValues(yields: readonly Snapshot[], context: { index: ProgramIndex; near: string; isResult: boolean }): Outcome | SkipReason {
  const values: unknown[] = [];
  for (const [i, snapshot] of yields.entries()) {
    const value = toReplayValue(snapshot, `value ${i + 1} it yielded`, context);
    if (isSkip(value)) return value;
    if (value.kind !== 'json') return skip('not-json-safe', `value ${i + 1} it yielded is a ${value.kind}, which a test compares only inside JSON`);
    values.push(value.value);
  }
  return { kind: 'return', value: { kind: 'json', value: values } };
}

function receiverValue(snapshot: Snapshot, context: { index: ProgramIndex; near: string; isResult: boolean }): ReplayValue | SkipReason {
  const where = 'its receiver (this)';
  if (snapshot.serialization === 'instance' || snapshot.serialization === 'repr') return toReplayValue(snapshot, where, context);
  // A Map or Set subclass is recorded as its entries: Object.create would not give it the built-in's internal state.
  return skip('private-state', `${where} was recorded as a ${snapshot.serialization} value, not as an object of its class`);
}

/** The function a call ran, as a test reaches it, and its current declaration (or, reached through a path the recording found, its declaration then). */
export function resolveTarget(call: CallRecord, index: ProgramIndex): { readonly target: Target; readonly shape: FunctionShape } | SkipReason {
  const found = resolveDeclared(call, index);
  if (!isSkip(found) || found.kind !== 'unreachable' || call.kind === 'getter' || call.kind === 'setter' || call.kind === 'constructor') return found;
  const reached = index.reached(call.module, call.qualname);
  if (reached === undefined) return found;
  return { target: { kind: 'path', module: reached.root, path: reached.path }, shape: { params: reached.params, async: reached.async, generator: reached.generator } };
}

function resolveDeclared(call: CallRecord, index: ProgramIndex): { readonly target: Target; readonly shape: FunctionShape } | SkipReason {
  const { module, qualname } = call;
  if (/[<@]/.test(qualname)) return skip('unreachable', `${qualname} is anonymous, so no test can reach it`);
  const outline = index.outline(module);
  if (isSkip(outline)) return outline;
  const [head = '', member, ...deeper] = qualname.split('.');
  const binding = outline.bindings.get(head);
  const byPath = outline.paths.get(qualname);
  // A call with a receiver of a function constructor's binding is a prototype method's, not a static one's of the same name.
  const onPrototype = binding?.kind === 'function' && call.this !== undefined;
  if (byPath !== undefined && binding?.kind !== 'class' && !onPrototype && call.kind !== 'getter' && call.kind !== 'setter') return { target: { kind: 'path', module, path: byPath.path }, shape: byPath.shape };
  if (member === undefined) {
    // A function constructor called with `new`: the test calls it with `new` too.
    if (binding?.kind === 'function' && call.kind === 'constructor' && binding.constructs !== undefined) return { target: { kind: 'construct', class: { module, name: head, shape: binding.constructs } }, shape: binding.shape };
    if (binding?.kind === 'function' && call.kind !== 'constructor') return { target: { kind: 'function', module, name: head }, shape: binding.shape };
    return skip('unreachable', `${module} has no top-level function ${head} now`);
  }
  if (binding?.kind === 'function' && binding.constructs !== undefined && deeper.length === 0) {
    // A method set on a function constructor's prototype (`Foo.prototype.m = function …`).
    const found = pickMember(binding.constructs.members, member, call);
    if (found !== undefined) return { target: { kind: 'member', class: { module, name: head, shape: binding.constructs }, member, static: false, access: 'method' }, shape: found };
  }
  if (binding?.kind === 'function') return skip('unreachable', `${qualname} is nested in function ${head}, which does not expose it`);
  if (binding?.kind !== 'class' || deeper.length > 0) return skip('unreachable', `${qualname} is not a function or method at the top level of ${module}`);
  if (member === 'constructor' && call.kind === 'constructor') {
    const built = call.returnSerialization === 'instance' ? (call.returnValue as { class?: string } | undefined)?.class : undefined;
    // Through super() from a subclass: `new` of this class alone would build another object.
    if (built !== undefined && built !== head) return skip('unreachable', `${qualname} ran through super() for a ${built}, which new ${head}() does not build`);
    const construct = binding.shape.construct ?? { params: [], async: false, generator: false };
    return { target: { kind: 'construct', class: { module, name: head, shape: binding.shape } }, shape: construct };
  }
  const found = pickMember(binding.shape.members, member, call);
  if (found === undefined) return skip('unreachable', `class ${head} has no ${call.kind === 'getter' ? 'getter' : call.kind === 'setter' ? 'setter' : 'method'} ${member} now`);
  const ref: ClassRef = { module, name: head, shape: binding.shape };
  return { target: { kind: 'member', class: ref, member, static: found.static, access: found.access }, shape: found };
}

function pickMember(members: readonly MemberShape[], name: string, call: CallRecord): MemberShape | undefined {
  const access = call.kind === 'getter' ? 'get' : call.kind === 'setter' ? 'set' : 'method';
  const candidates = members.filter((m) => m.name === name && m.access === access);
  if (candidates.length <= 1) return candidates[0];
  const wantStatic = call.kind === 'static' || call.this?.serialization !== 'instance';
  return candidates.find((m) => m.static === wantStatic) ?? candidates[0];
}

function outcomeOf(call: CallRecord, where: string, context: { index: ProgramIndex; near: string; isResult: boolean }): Outcome | SkipReason {
  if (call.threw !== true) {
    const value = toReplayValue(returnSnapshot(call), where, context);
    return isSkip(value) ? value : { kind: 'return', value };
  }
  const exception = call.exception ?? { name: 'Error' };
  if (exception.message?.includes('<redacted') === true) return skip('redacted', `the message of the ${exception.name} it threw was redacted`);
  if (exception.module !== undefined) {
    const outline = context.index.outline(exception.module);
    const binding = isSkip(outline) ? undefined : outline.bindings.get(exception.name);
    if (binding?.kind !== 'class') return skip('unreachable-class', `it threw ${exception.name}, which is not a top-level class of ${exception.module}`);
    return { kind: 'throw', error: { kind: 'program', class: { module: exception.module, name: exception.name, shape: binding.shape } }, message: exception.message };
  }
  const builtin = (globalThis as Record<string, unknown>)[exception.name];
  if (typeof builtin === 'function' && (builtin === Error || builtin.prototype instanceof Error)) return { kind: 'throw', error: { kind: 'builtin', name: exception.name }, message: exception.message };
  return skip('unreachable-class', `it threw ${exception.name}, which is neither a built-in error nor a class of a program module`);
}

/**
 * The calls the tested call makes, replayed: its children, and for a recursive function the
 * children of its calls of itself too (those run for real: a mock would replace the tested call).
 * A child that is the tested function's own code runs for real too, and its children are replayed:
 * a nested function (`outer.inner`) or an anonymous one of the same module (the callback of
 * `items.reduce((sum, item) => sum + lineTotal(item), 0)`; a function value from outside could
 * only come through an argument, which is never replayed).
 */
function childMocks(call: CallRecord, { index, children, mockable, constructors, state }: Planning): { mocks: ChildMock[]; ran: RanInside[] } | SkipReason {
  // The test hooks count the calls of anonymous functions and of functions nested in another (instrumentCalls' `counted`).
  const counted = (child: CallRecord): boolean => child.module === call.module && (child.qualname.startsWith(`${call.qualname}.`) || child.qualname.startsWith('<anonymous>@'));
  const replayed: CallRecord[] = [];
  const ran = new Map<string, RanInside & { callIds: number[] }>();
  for (const queue = [call]; queue.length > 0; ) {
    const parent = queue.shift() as CallRecord;
    for (const child of children.get(parent.callId) ?? []) {
      if (!runsInline(child, call, constructors, parent)) {
        replayed.push(child);
        continue;
      }
      queue.push(child);
      if (!counted(child)) continue;
      const key = callKey(child.module, child.qualname);
      const entry = ran.get(key) ?? { key, qualname: child.qualname, callIds: [] };
      entry.callIds.push(child.callId);
      ran.set(key, entry);
    }
  }
  replayed.sort((a, b) => a.callId - b.callId);
  const mocks = new Map<string, { qualname: string; async: boolean; outcomes: Outcome[] }>();
  for (const child of replayed) {
    const name = `${child.qualname} (call ${child.callId})`;
    if (child.kind === 'generator') return skip('unmockable-child', `it calls ${name}, a generator, which a mock does not replay`);
    // A mock gives the child's result, not what it changes in a module object the tested function reads (fraction.js's parse() filling P).
    const changed = child.module === call.module ? state.changedFor(call.module, child.line, call.line) : [];
    if (changed.length > 0) return skip('module-state', `it calls ${name}, replayed by a mock, which changes ${changed.join(', ')}, a module object it reads (a mock gives the result, not the change)`);
    const key = callKey(child.module, child.qualname);
    // An anonymous function is mocked by its qualname too (`<anonymous>@9`) when no other function of its module has it.
    if (!mockable(key)) return skip('unmockable-child', `it calls ${name}, which the test hooks cannot replace (${/[<@]/.test(child.qualname) ? 'an anonymous function on a line with another' : 'a generator, a destructured arrow parameter, or a name its module uses twice'})`);
    const outcome = outcomeOf(child, `the result of ${name}`, { index, near: child.module, isResult: false });
    if (isSkip(outcome)) return skip('unmockable-child', `it calls ${name}, which cannot be replayed: ${outcome.detail}`);
    const resolved = resolveTarget(child, index);
    const entry = mocks.get(key) ?? { qualname: child.qualname, async: child.kind === 'async' || (!isSkip(resolved) && resolved.shape.async), outcomes: [] };
    entry.outcomes.push(outcome);
    mocks.set(key, entry);
  }
  return { mocks: [...mocks].map(([key, entry]) => ({ key, ...entry })), ran: [...ran.values()] };
}

/**
 * Whether `child`, a call below the tested call `tested` that `parent` made (itself running for real
 * in the test, or the tested call), runs for real in its test (a mock replays the others).
 */
export function runsInline(child: CallRecord, tested: CallRecord, constructors: ReadonlySet<string>, parent: CallRecord = tested): boolean {
  // A constructor is never mocked (a mock cannot stand in for `new`): it runs for real, its own children replayed;
  // so does a function constructor called without `new` on an object (`Base.call(this)`).
  if (child.kind === 'constructor' || (child.kind === 'function' && constructors.has(child.qualname))) return true;
  // A method the tested object, or an object a constructor running for real builds, calls on itself (`this.format()` in a constructor)
  // runs for real: a mock would give its result, not what it does to the object.
  if (onOwnObject(child, tested) || onOwnObject(child, parent)) return true;
  return callKey(child.module, child.qualname) === callKey(tested.module, tested.qualname) || (child.module === tested.module && (child.qualname.startsWith(`${tested.qualname}.`) || child.qualname.startsWith('<anonymous>@')));
}

/** Whether `child` is a method of the class of `caller`, a constructor or method, called with a receiver (taken to be the caller's object). */
function onOwnObject(child: CallRecord, caller: CallRecord): boolean {
  const ownClass = caller.kind === 'constructor' || caller.this !== undefined ? caller.qualname.split('.')[0] : undefined;
  return ownClass !== undefined && child.this !== undefined && child.module === caller.module && child.qualname.startsWith(`${ownClass}.`);
}

/**
 * Calls of one function that had the same receiver, arguments and child outcomes yet gave
 * different results: they depend on something else (the time, a counter), so none is replayed.
 */
function unstableCalls(calls: readonly CallRecord[], children: ReadonlyMap<number, readonly CallRecord[]>): Map<number, SkipReason> {
  const groups = new Map<string, CallRecord[]>();
  for (const call of calls) {
    const childOutcomes = (children.get(call.callId) ?? []).map((child) => [callKey(child.module, child.qualname), resultOf(child)]);
    const key = JSON.stringify([callKey(call.module, call.qualname), call.this ?? null, call.args, childOutcomes]);
    const group = groups.get(key) ?? [];
    group.push(call);
    groups.set(key, group);
  }
  const unstable = new Map<number, SkipReason>();
  for (const group of groups.values()) {
    if (new Set(group.map((call) => JSON.stringify(resultOf(call)))).size <= 1) continue;
    const ids = group.map((call) => call.callId).join(', ');
    for (const call of group) unstable.set(call.callId, skip('time-dependent', `calls ${ids} had the same arguments and different results`));
  }
  return unstable;
}

function resultOf(call: CallRecord): unknown {
  return call.threw === true ? ['threw', call.exception?.name, call.exception?.message] : [call.returnSerialization, call.returnValue ?? null, call.yields ?? null];
}
