import type { CallRecord } from '../record/callTrace.ts';
import type { FunctionValues } from './functionValues.ts';
import type { Outcome } from './outcomes.ts';
import type { TestPlan } from './planCalls.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';

/** A call a closure's test makes before the tested one: its outcome is asserted when a test can give it (undefined: only made). */
export type StepPlan = Omit<TestPlan, 'outcome' | 'sequence'> & { readonly outcome: Outcome | undefined };

/** What a closure's test does before its call: the call that made the closure, then the earlier calls of the closures it made, in the recorded order. */
export interface ClosureSequence {
  readonly maker: StepPlan;
  readonly before: readonly StepPlan[];
}

/** Plans one call of a sequence with the sequence's function values: the maker (called as a test reaches it), an earlier call of its closures or the tested one (each at its path in the maker's result); any outcome but the tested one's. */
export type PlanStep = (call: CallRecord, functions: FunctionValues, role: 'maker' | 'before' | 'tested') => StepPlan | SkipReason;

/** The calls of one maker's closures a test replays before the tested one, at most. */
const MAX_BEFORE = 30;
/** How far up the parent chain a call is looked at to tell whether it ran inside the sequence. */
const MAX_DEPTH = 1000;

/**
 * Tests of closures returned by a call (the recorder names a closure's maker call and its path in
 * that call's result: record/closureOrigins.ts). The calls of the closures of one maker call, made
 * from outside it and outside each other (mitt's `on` then `emit`), form a sequence: the test of
 * the nth calls the maker, then the n-1 before it, each at its path with its recorded arguments and
 * its children replayed, asserting what each gave where a test can, and then asserts the nth.
 * A stateful sequence (handlers registered, then called) replays as one.
 */
export class ClosureSequences {
  readonly #byId = new Map<number, CallRecord>();
  readonly #steps = new Map<number, CallRecord[]>();

  constructor(calls: readonly CallRecord[]) {
    for (const call of calls) this.#byId.set(call.callId, call);
    for (const call of calls) {
      const maker = call.made?.callId;
      if (maker === undefined || this.#inside(call, maker)) continue;
      const list = this.#steps.get(maker) ?? [];
      list.push(call);
      this.#steps.set(maker, list);
    }
    for (const list of this.#steps.values()) list.sort((a, b) => a.callId - b.callId);
  }

  /** The test of a closure's call, or why there is none. */
  plan(call: CallRecord, planStep: PlanStep, newFunctions: () => FunctionValues): TestPlan | SkipReason {
    const makerId = call.made?.callId ?? 0;
    const maker = this.#byId.get(makerId);
    if (maker === undefined) return skip('unreachable', `${call.qualname} is a closure made by call ${makerId}, which is not in the trace`);
    const steps = this.#steps.get(makerId) ?? [];
    const at = steps.indexOf(call);
    if (at < 0) return skip('unreachable', `${call.qualname} is a closure made by ${maker.qualname} (call ${makerId}), called inside another call of it or of its closures`);
    if (at > MAX_BEFORE) return skip('unreachable', `${call.qualname} is a closure made by ${maker.qualname} (call ${makerId}), whose closures were called ${at} times before: a test replays at most ${MAX_BEFORE}`);
    const functions = newFunctions();
    const made = planStep(maker, functions, 'maker');
    if (isSkip(made)) return skip(made.kind, `${call.qualname} is a closure made by ${maker.qualname} (call ${makerId}), a call a test cannot make: ${made.detail}`);
    if (made.outcome?.kind === 'throw' || maker.threw === true) return skip('unreachable', `${call.qualname} is a closure made by ${maker.qualname} (call ${makerId}), which threw`);
    const before: StepPlan[] = [];
    for (const earlier of steps.slice(0, at)) {
      const planned = planStep(earlier, functions, 'before');
      if (isSkip(planned)) return skip(planned.kind, `it follows call ${earlier.callId} of a closure ${maker.qualname} (call ${makerId}) made, which a test cannot make: ${planned.detail}`);
      if (planned.outcome === undefined && earlier.threw === true) return skip('unreachable-class', `it follows call ${earlier.callId} of a closure ${maker.qualname} (call ${makerId}) made, which threw an error a test cannot name`);
      before.push(planned);
    }
    const tested = planStep(call, functions, 'tested');
    if (isSkip(tested)) return tested;
    const ambiguous = functions.ambiguity();
    if (ambiguous !== undefined) return ambiguous;
    if (tested.outcome === undefined) return skip('not-json-safe', 'its result cannot be asserted');
    // One set of stand-ins for the whole sequence: a handler given to one call is called in a later one.
    return { ...tested, outcome: tested.outcome, standIns: [...functions.standIns.values()], sequence: { maker: { ...made, standIns: [] }, before: before.map((b) => ({ ...b, standIns: [] })) } };
  }

  /** Whether the call ran inside its maker or inside another call of the maker's closures (it is then replayed, or run, by that call's test). */
  #inside(call: CallRecord, maker: number): boolean {
    let parent = call.parentCallId;
    for (let depth = 0; parent !== null && depth < MAX_DEPTH; depth++) {
      if (parent === maker) return true;
      const up = this.#byId.get(parent);
      if (up === undefined) return false;
      if (up.made?.callId === maker) return true;
      parent = up.parentCallId;
    }
    return false;
  }
}
