import { callKey, type CallRecord, type Snapshot } from '../record/callTrace.ts';
import type { ModuleState } from './moduleState.ts';
import type { FunctionValues, StandIn } from './functionValues.ts';
import { outcomeOf, type Outcome } from './outcomes.ts';
import type { ProgramIndex } from './programIndex.ts';
import { stateConflict } from './recordedState.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';
import { resolveTarget } from './targets.ts';

/** A program function the tested call calls, replaced for the test by the outcomes it had, in order. */
export interface ChildMock {
  readonly key: string;
  readonly qualname: string;
  readonly async: boolean;
  readonly outcomes: readonly Outcome[];
}

/** An anonymous or nested program function that ran inside a tested call: its calls are covered by that call's test, which asserts their count. */
export interface RanInside {
  readonly key: string;
  readonly qualname: string;
  /** The recorded calls of it inside the tested call. */
  readonly callIds: readonly number[];
}

/** What childMocks needs of the planning of a trace. */
export interface ChildPlanning {
  readonly index: ProgramIndex;
  readonly children: ReadonlyMap<number, readonly CallRecord[]>;
  readonly mockable: (key: string) => boolean;
  readonly state: ModuleState;
}

/**
 * The calls the tested call makes, replayed: its children, and for a recursive function the
 * children of its calls of itself too (those run for real: a mock would replace the tested call).
 * A child that is the tested function's own code runs for real too, and its children are replayed:
 * a nested function (`outer.inner`) or an anonymous one of the same module (the callback of
 * `items.reduce((sum, item) => sum + lineTotal(item), 0)`). A call of a function value the test
 * gives a stand-in for (`functions`' stand-ins, by callKey) is the stand-in's: it gets the recorded outcome.
 */
export function childMocks(call: CallRecord, { index, children, mockable, state }: ChildPlanning, functions?: FunctionValues): { mocks: ChildMock[]; ran: RanInside[] } | SkipReason {
  const standIns: ReadonlyMap<string, StandIn> = functions?.standIns ?? new Map();
  // What a mock or a stand-in gives: a function in it is the program's own, reached as itself.
  const given = { index, near: call.module, isResult: false, ...(functions !== undefined ? { functions: functions.references() } : {}) };
  // The test hooks count the calls of anonymous functions and of functions nested in another (instrumentCalls' `counted`).
  const counted = (child: CallRecord): boolean => child.module === call.module && (child.qualname.startsWith(`${call.qualname}.`) || child.qualname.startsWith('<anonymous>@'));
  const replayed: CallRecord[] = [];
  const stoodIn: CallRecord[] = [];
  const ran = new Map<string, RanInside & { callIds: number[] }>();
  for (const queue = [call]; queue.length > 0; ) {
    const parent = queue.shift() as CallRecord;
    for (const child of children.get(parent.callId) ?? []) {
      if (standIns.has(callKey(child.module, child.qualname))) {
        stoodIn.push(child);
        continue;
      }
      const inline = runsInline(child, call, index, parent);
      const conflict = stateConflict(call, child, !inline, state);
      if (conflict !== undefined) return skip('module-state', conflict);
      if (!inline) {
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
  for (const child of stoodIn.sort((a, b) => a.callId - b.callId)) {
    const standIn = standIns.get(callKey(child.module, child.qualname)) as StandIn;
    const outcome = outcomeOf(child, `the result of ${child.qualname} (call ${child.callId})`, { ...given, near: child.module });
    if (isSkip(outcome)) return skip('function-value', `${standIn.places[0] ?? 'a function value'} is ${child.qualname}, called (call ${child.callId}) with a result a stand-in cannot give: ${outcome.detail}`);
    if (child.kind === 'generator') return skip('function-value', `${standIn.places[0] ?? 'a function value'} is ${child.qualname}, a generator, which a stand-in does not replay`);
    standIn.calls.push(child.callId);
    standIn.outcomes.push(outcome);
    standIn.async ||= child.kind === 'async';
  }
  replayed.sort((a, b) => a.callId - b.callId);
  const mocks = new Map<string, { qualname: string; async: boolean; outcomes: Outcome[] }>();
  for (const child of replayed) {
    const name = `${child.qualname} (call ${child.callId})`;
    // A mock gives the child's result, not what it changes in a module object the tested function reads (fraction.js's parse() filling P).
    const changed = child.module === call.module ? state.changedFor(call.module, child.line, call.line) : [];
    if (changed.length > 0) return skip('module-state', `it calls ${name}, replayed by a mock, which changes ${changed.join(', ')}, a module object it reads (a mock gives the result, not the change)`);
    // A mock gives a method's result, not what it does to its object (yaml's Directives.atDocument() resetting its state):
    // an object the test gives the call (recorded as it was then) would not be changed.
    if (child.this !== undefined && index.changesThis(child.module, child.line) && givenTo(call, child.this)) return skip('unmockable-child', `it calls ${name}, replayed by a mock, which changes its object (this), an object the call was given, which a mock would not`);
    const key = callKey(child.module, child.qualname);
    // An anonymous function is mocked by its qualname too (`<anonymous>@9`) when no other function of its module has it.
    if (!mockable(key)) return skip('unmockable-child', `it calls ${name}, which the test hooks cannot replace (${/[<@]/.test(child.qualname) ? 'an anonymous function on a line with another' : 'a generator, a destructured arrow parameter, or a name its module uses twice'})`);
    const outcome = outcomeOf(child, `the result of ${name}`, { ...given, near: child.module });
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
export function runsInline(child: CallRecord, tested: CallRecord, index: Pick<ProgramIndex, 'usesThis'>, parent: CallRecord = tested): boolean {
  // A constructor or a generator is never mocked (a mock cannot stand in for `new`, nor give the values a
  // generator yields as it is iterated): it runs for real, its own children replayed; so does a plain function
  // using `this` (a mock gives its result, not what it does to the object): a function constructor called without
  // `new` on an object (`Base.call(this)`), or a method set as a plain function.
  if (child.kind === 'constructor' || child.kind === 'generator' || (child.kind === 'function' && index.usesThis(child.module, child.line))) return true;
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

/** Whether `object`, a snapshot, equals the call's receiver, an argument, a module state value, or a part of one of them. */
function givenTo(call: CallRecord, object: Snapshot): boolean {
  const wanted = JSON.stringify(object);
  const visit = (s: Snapshot | undefined): boolean => s !== undefined && (JSON.stringify(s) === wanted || snapshotParts(s).some(visit));
  return [call.this, ...Object.values(call.args), ...Object.values(call.state ?? {})].some(visit);
}

function snapshotParts(s: Snapshot): Snapshot[] {
  switch (s.serialization) {
    case 'instance':
    case 'object': return [...Object.values(s.value as Record<string, Snapshot>), ...(s.symbols ?? []).map((e) => e.value)];
    case 'array': return [...(s.value as Snapshot[]), ...Object.values(s.fields ?? {})];
    case 'set': return s.value as Snapshot[];
    case 'map': return (s.value as [Snapshot, Snapshot][]).flat();
    default: return [];
  }
}
