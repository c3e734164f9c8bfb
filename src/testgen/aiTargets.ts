import type { FunctionForInputs } from './proposeInputs.ts';
import { callKey, type CallRecord, type CallTrace, type Snapshot } from '../record/callTrace.ts';
import type { AiSkipKind } from './aiSkips.ts';
import { NO_KEYS, planCalls } from './planCalls.ts';
import type { ProgramIndex } from './programIndex.ts';
import { SKIP_KINDS } from './skipReasons.ts';

/** A recorded function the model is asked about, and how its proposed calls are made. */
export interface AiTarget {
  /** What the model is shown: names and recorded calls, never source text. */
  readonly fn: FunctionForInputs;
  /** The recorded call whose module, qualname, kind, line and receiver (`this`) each proposed call takes. */
  readonly template: CallRecord;
}

export type AiCandidate =
  | { readonly target: AiTarget }
  | { readonly skip: { readonly callId: number; readonly module: string; readonly qualname: string; readonly kind: AiSkipKind; readonly reason: string } };

/**
 * Every function of the trace with recorded calls, in the order of its first call: a target when a
 * generated test can call it on new arguments (gen-tests' planning of a call with those arguments
 * succeeds: reachable from its module, not a generator, the same parameters now, a receiver that
 * can be rebuilt for a method), else why not.
 */
export function aiTargets(trace: CallTrace, index: ProgramIndex): AiCandidate[] {
  const groups = new Map<string, CallRecord[]>();
  for (const call of trace.calls) {
    const key = callKey(call.module, call.qualname);
    groups.set(key, [...(groups.get(key) ?? []), call]);
  }
  const candidates: AiCandidate[] = [];
  for (const calls of groups.values()) {
    const first = calls[0] as CallRecord;
    const params = Object.keys(first.args);
    const skip = (kind: AiSkipKind, reason: string): AiCandidate => ({ skip: { callId: first.callId, module: first.module, qualname: first.qualname, kind, reason } });
    if (first.kind === 'getter' || first.kind === 'setter') {
      candidates.push(skip('no-parameters', `a ${first.kind}: its test would assert ${first.kind === 'getter' ? 'no new input' : 'nothing'}`));
      continue;
    }
    if (params.length === 0) {
      candidates.push(skip('no-parameters', 'it takes no parameters, so every call has the same input'));
      continue;
    }
    // The same call with placeholder arguments, once per recorded receiver: the first one a test can make is the template.
    const probes = calls.map((call) => callLike(call, call.callId, params.map(() => ({ serialization: 'json', value: null }))));
    const plans = planCalls({ ...trace, calls: probes }, index, NO_KEYS);
    const planned = plans.find((plan) => 'test' in plan);
    if (planned !== undefined) {
      const template = calls.find((call) => call.callId === planned.call.callId) as CallRecord;
      candidates.push({ target: { template, fn: { qualname: first.qualname, kind: first.kind, params, calls } } });
      continue;
    }
    const reason = plans[0] !== undefined && 'skip' in plans[0] ? plans[0].skip : undefined;
    candidates.push(reason === undefined ? skip('unreachable', 'no call of it can be planned') : skip(reason.kind, `${SKIP_KINDS[reason.kind]}: ${reason.detail}`));
  }
  return candidates;
}

/** A proposed call of the target: its arguments (snapshots of the proposed values), the template's receiver, and no outcome yet. */
export function proposedCall(target: AiTarget, callId: number, args: readonly Snapshot[]): CallRecord {
  return callLike(target.template, callId, args);
}

/** A call of the same function as `template`, on its receiver, with these arguments (by position) and no outcome of its own. */
function callLike(template: CallRecord, callId: number, values: readonly Snapshot[]): CallRecord {
  const { module, qualname, kind, line } = template;
  const args = Object.fromEntries(Object.keys(template.args).map((param, i) => [param, values[i] ?? { serialization: 'undefined' }]));
  return { callId, parentCallId: null, module, qualname, kind, line, args, ...(template.this !== undefined ? { this: template.this } : {}), returnSerialization: 'undefined' };
}
