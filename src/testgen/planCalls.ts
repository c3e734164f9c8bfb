import { callKey, type CallRecord, type CallTrace, type Snapshot } from '../record/callTrace.ts';
import { ClosureSequences, type ClosureSequence, type PlanStep, type StepPlan } from './closureSequences.ts';
import { childMocks, runsInline, type ChildMock, type ChildPlanning, type RanInside } from './childMocks.ts';
import { FunctionValues, type StandIn } from './functionValues.ts';
import { ModuleState, StateSetUp } from './moduleState.ts';
import { outcomeOf, yieldedValues, type Outcome } from './outcomes.ts';
import type { ProgramIndex } from './programIndex.ts';
import { recordedState, type StateValue } from './recordedState.ts';
import { toReplayValue, type ReplayValue, type ReplayValueContext } from './replayValue.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';
import type { FunctionShape } from './moduleOutline.ts';
import { resolveTarget, type Target } from './targets.ts';

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
  /** The module state variables the test sets before the call, as it started; undefined when the trace holds none (earlier tests set it up: StateSetUp). */
  readonly state: readonly StateValue[] | undefined;
  /** Stand-ins for the program function values among its inputs that no test reaches, with the outcomes of their calls. */
  readonly standIns: readonly StandIn[];
  /** A closure's call: the calls its test makes first, the one that made the closure and the earlier calls of its closures. */
  readonly sequence?: ClosureSequence;
}

/** Which callKeys the test-time hooks can replace (mockable), and which name one function of their module (unique). */
export interface FunctionKeys {
  readonly mockable: (key: string) => boolean;
  readonly unique: (key: string) => boolean;
}

/** No key is mockable or known unique: plans without mocks, function values or closure sequences (gen-tests --ai's probes). */
export const NO_KEYS: FunctionKeys = { mockable: () => false, unique: () => false };

export type CallPlan = { readonly call: CallRecord; readonly test: TestPlan } | { readonly call: CallRecord; readonly skip: SkipReason };

/**
 * Plans a test for every call of the trace, or the reason it is skipped, in the trace's order.
 * `keys` says which callKeys the test-time hooks can replace, and which name one function of their
 * module (testHooks' functionKeys);
 * `excluded` holds calls already known to be skipped, and why.
 */
export function planCalls(trace: CallTrace, index: ProgramIndex, keys: FunctionKeys, excluded: ReadonlyMap<number, SkipReason> = new Map()): CallPlan[] {
  const children = new Map<number, CallRecord[]>();
  for (const call of trace.calls) {
    if (call.parentCallId === null) continue;
    const list = children.get(call.parentCallId) ?? [];
    list.push(call);
    children.set(call.parentCallId, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.callId - b.callId);
  const unstable = unstableCalls(trace.calls, children);
  const state = new ModuleState(index.programDir);
  const unset = new StateSetUp(trace.calls, state, (child, tested, parent) => runsInline(child, tested, index, parent));
  const planning = { index, children, mockable: keys.mockable, state };
  const sequences = new ClosureSequences(trace.calls);
  const step: PlanStep = (call, functions, role) => planCall(call, planning, keys, { functions, made: role !== 'maker', anyOutcome: role !== 'tested' });
  return trace.calls.map((call) => {
    const own = excluded.get(call.callId) ?? unstable.get(call.callId) ?? planCall(call, planning, keys);
    // A closure whose own test cannot be written (no path reaches it, or its calls carry state: same arguments, other results): its test makes
    // the call that made it, then replays the calls of its closures up to it, in order (a stateful sequence). An unreachable one says why not.
    const sequence = keys !== NO_KEYS && call.made !== undefined && !excluded.has(call.callId) && isSkip(own) ? sequences.plan(call, step, () => new FunctionValues(index, keys.unique)) : own;
    const planned = isSkip(sequence) && isSkip(own) && own.kind !== 'unreachable' ? own : sequence;
    // In the trace's order: whether the calls before it that set the state it reads are tests themselves is known by then.
    const result = isSkip(planned) || planned.state !== undefined ? planned : (unset.check(call) ?? planned);
    return isSkip(result) ? { call, skip: result } : (unset.tested(call), { call, test: result });
  });
}

type Planning = ChildPlanning;

/**
 * `functions`: shared by the calls of one closure sequence (a stand-in replays its calls across them);
 * `made`: a closure's call, reached at its path in its maker's result; `anyOutcome`: an outcome a test
 * cannot assert leaves it undefined (a step a sequence makes before the tested call) instead of skipping.
 */
interface PlanOptions {
  readonly functions?: FunctionValues;
  readonly made?: boolean;
  readonly anyOutcome?: boolean;
}

function planCall(call: CallRecord, planning: Planning, keys: FunctionKeys): TestPlan | SkipReason;
function planCall(call: CallRecord, planning: Planning, keys: FunctionKeys, options: PlanOptions): StepPlan | SkipReason;
function planCall(call: CallRecord, planning: Planning, keys: FunctionKeys, options: PlanOptions = {}): StepPlan | SkipReason {
  const { index } = planning;
  const stopped = 'a generator is replayed only when it ran to its end, yielding at most 1,000 values (none through yield* of anything but a generator), and is not async';
  if (call.kind === 'generator' && call.yields === undefined) return skip('generator', stopped);
  const made = options.made === true ? call.made : undefined;
  const resolved = made !== undefined ? closureTarget(call, made) : resolveTarget(call, index);
  if (isSkip(resolved)) return resolved;
  const { target, shape } = resolved;
  // A top-level function using `this` called without `new` (`new` is recorded as a constructor call) ran as a method or
  // on another constructor's object (`Base.call(this)`): a test would call it with another `this`.
  if (target.kind === 'function' && index.usesThis(call.module, call.line)) return skip('not-json-safe', `its receiver (this) was not recorded: ${call.qualname} uses this, so it ran as a method or on another object`);
  if (shape.generator && call.yields === undefined) return skip('generator', stopped);
  const iterate = shape.generator && call.yields !== undefined;
  const recorded = Object.keys(call.args);
  const current = shape.params.map((param) => param.name);
  if (recorded.join(',') !== current.join(',')) return skip('changed-signature', `recorded with (${recorded.join(', ')}), declared now as (${current.join(', ')})`);
  const functions = options.functions ?? new FunctionValues(index, keys.unique);
  const context = { index, near: call.module, isResult: false, functions };
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
  const keyed = planning.state.identityKeyed(call.module, call.line);
  if (keyed.length > 0 && [receiver, ...args].some((value) => value !== undefined && rebuiltObject(value))) {
    return skip('module-state', `it uses ${keyed.join(', ')}, module state keyed by the identity of objects, and the objects its test builds again are not its keys`);
  }
  const rest = shape.params.at(-1)?.rest === true;
  const spreadLast = rest && args.at(-1)?.kind === 'json' && Array.isArray((args.at(-1) as { value: unknown }).value);
  // Omitted and undefined arguments behave the same for all but arguments.length: the call reads as written.
  while (!rest && args.at(-1)?.kind === 'undefined') args.pop();
  const state = recordedState(call, planning.state, context);
  if (state !== undefined && isSkip(state)) return state;
  // A closure giving back its maker's result (a builder's chained call) is compared with it by identity.
  const returnsMade: Outcome | undefined = made?.returnsMade === true && call.threw !== true ? { kind: 'return', value: { kind: 'made' } } : undefined;
  const found = returnsMade ?? (iterate ? yieldedValues(call.yields ?? [], { ...context, isResult: true }) : outcomeOf(call, 'its result', { ...context, isResult: true }));
  if (isSkip(found) && options.anyOutcome !== true) return found;
  const outcome = isSkip(found) ? undefined : found;
  const children = childMocks(call, planning, functions);
  if (isSkip(children)) return children;
  const ambiguous = options.functions === undefined ? functions.ambiguity() : undefined;
  if (ambiguous !== undefined) return ambiguous;
  return { call, target, receiver, args, spreadLast, async: shape.async || call.kind === 'async', outcome, mocks: children.mocks, iterate, ran: children.ran, state, standIns: [...functions.standIns.values()] };
}

/** Whether a test builds the value as a new object (not a primitive, nor a program function reached as itself). */
function rebuiltObject(value: ReplayValue): boolean {
  return value.kind === 'json' ? typeof value.value === 'object' && value.value !== null : !['undefined', 'bigint', 'symbol', 'function'].includes(value.kind);
}

/** A closure's call as its test makes it: at its path in its maker's result, with the parameters it was recorded with. */
function closureTarget(call: CallRecord, made: NonNullable<CallRecord['made']>): { readonly target: Target; readonly shape: FunctionShape } {
  const names = Object.keys(call.args);
  const params = names.map((name, i) => ({ name, rest: made.rest === true && i === names.length - 1 }));
  return { target: { kind: 'made', path: made.path }, shape: { params, async: call.kind === 'async', generator: call.kind === 'generator' } };
}

function receiverValue(snapshot: Snapshot, context: ReplayValueContext): ReplayValue | SkipReason {
  const where = 'its receiver (this)';
  if (snapshot.serialization === 'instance' || snapshot.serialization === 'repr') return toReplayValue(snapshot, where, context);
  // A Map or Set subclass is recorded as its entries: Object.create would not give it the built-in's internal state.
  return skip('private-state', `${where} was recorded as a ${snapshot.serialization} value, not as an object of its class`);
}

/**
 * Calls of one function that had the same receiver, arguments, module state and child outcomes yet gave
 * different results: they depend on something else (the time, a counter), so none is replayed.
 */
function unstableCalls(calls: readonly CallRecord[], children: ReadonlyMap<number, readonly CallRecord[]>): Map<number, SkipReason> {
  const groups = new Map<string, CallRecord[]>();
  for (const call of calls) {
    const childOutcomes = (children.get(call.callId) ?? []).map((child) => [callKey(child.module, child.qualname), resultOf(child)]);
    const key = JSON.stringify([callKey(call.module, call.qualname), call.this ?? null, call.args, call.state ?? null, childOutcomes]);
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
