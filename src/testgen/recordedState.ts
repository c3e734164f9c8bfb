import { UNINITIALIZED, type CallRecord, type Snapshot } from '../record/callTrace.ts';
import type { ModuleState } from './moduleState.ts';
import { toReplayValue, type ReplayValue, type ReplayValueContext } from './replayValue.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';

/** A module state variable a test sets before its call, and the value the call started with. */
export type StateValue = readonly [name: string, value: ReplayValue];

/**
 * The module state a test sets before its call (its module's reach() has a setter for each state
 * variable): the recorded values of the state variables the function reads (moduleState.ts, by
 * scope), as the call started. Undefined when the trace holds no value for one of them (a trace
 * of an older recorder): StateSetUp then decides whether earlier tests set it up.
 */
export function recordedState(call: CallRecord, state: ModuleState, context: ReplayValueContext): readonly StateValue[] | SkipReason | undefined {
  const reads = state.readsAt(call.module, call.line).map(([name]) => name);
  if (reads.length === 0) return [];
  if (call.state === undefined || reads.some((name) => !(name in (call.state as object)))) return undefined;
  const values: StateValue[] = [];
  for (const name of reads) {
    const snapshot = call.state[name] as Snapshot;
    if (snapshot.serialization === 'repr' && snapshot.value === UNINITIALIZED) return skip('module-state', `it ran before its module variable ${name} was initialized, which a test cannot undo`);
    const value = toReplayValue(snapshot, `module variable ${name}`, context);
    if (isSkip(value)) return value;
    values.push([name, value]);
  }
  return values;
}

/**
 * Why a test that sets the tested call's module state cannot replay `child`, a call below it, or
 * undefined when it can. Replayed by a mock, the child must assign none of the state variables the
 * tested function reads (a mock gives the result, not the assignment: json5's lex() reads the
 * lexState its mocked lexStates.* would set); run for real, it must read none the test does not set.
 */
export function stateConflict(tested: CallRecord, child: CallRecord, mocked: boolean, state: ModuleState): string | undefined {
  if (child.module !== tested.module) return undefined;
  const reads = new Set(state.readsAt(tested.module, tested.line).map(([name]) => name));
  const name = `${child.qualname} (call ${child.callId})`;
  if (mocked) {
    const assigned = state.writesAt(child.module, child.line).filter((v) => reads.has(v));
    return assigned.length > 0 ? `it calls ${name}, replayed by a mock, which assigns ${assigned.join(', ')}, a module variable it reads (a mock gives the result, not the assignment)` : undefined;
  }
  if (tested.state === undefined) return undefined;
  const unset = state.readsAt(child.module, child.line).map(([v]) => v).filter((v) => !reads.has(v));
  return unset.length > 0 ? `it runs ${name} for real, which reads ${unset.join(', ')}, a module variable its test does not set` : undefined;
}
