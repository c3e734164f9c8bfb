import { forcedByPlatform } from '../apiTypes/platformTypes.ts';
import type { Proposal, ValueProvider, ValueRequest } from '../types.ts';
import { factsOf, inferCategories } from './inferCategory.ts';
import { synthesize } from './synthesizeValue.ts';
import { isUsed } from '../../protocol/trace.ts';

const PROBE: Proposal = { source: '', refs: [], category: 'Dummy', probe: true };

/**
 * `trace`: a missing element is first a recording proxy; the run learns how the code uses it.
 * Then a concrete value is synthesised from the trace: the best category not yet rejected, with
 * its parts (members, results, elements, callback arguments) as elements of their own.
 */
export const traceProvider: ValueProvider = {
  name: 'trace',
  resynthesizes: true,
  async propose(request: ValueRequest): Promise<Proposal | undefined> {
    const { trace, traces, element } = request;
    // Nothing seen yet, or the concrete value failed for the first time: record (again) first; the platform's own types need no recording.
    if (request.mayProbe && request.kind !== 'part' && (!isUsed(trace) || request.history.length === 1) && !forcedByPlatform(element)) return PROBE;
    // A driven argument is named for its parameter (`greet#arg0` is `user`), which says more than `arg0`.
    const name = request.usage.declared?.name ?? trace?.name ?? trace?.key ?? request.name;
    const facts = factsOf(element, trace, traces);
    const ranked = inferCategories(element, name, facts, request.usage, traces).filter((c) => !request.rejected.includes(c));
    const category = ranked[0];
    if (category === undefined) return undefined;
    return synthesize(category, { id: element, name, facts, traces, usage: request.usage, resultUsed: request.resultUsed === true });
  },
};

/**
 * The trace generator standing in for an LLM whose endpoint stopped answering: the same values,
 * named for what they are, so no element claims a definition the model never wrote.
 */
export const TRACE_FALLBACK = 'trace-fallback';
export const traceFallbackProvider: ValueProvider = { ...traceProvider, name: TRACE_FALLBACK };
