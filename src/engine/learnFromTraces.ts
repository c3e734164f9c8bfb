import type { Proposal, ValueProvider, ValueRequest } from '../values/types.ts';
import { TRACE_FALLBACK, traceProvider } from '../values/trace/traceProvider.ts';
import type { Definition } from './definition.ts';

// After a run, what its traces teach: recording proxies, and the values the trace generator made
// whose trace grew, are synthesised again from what was seen (DefinitionBook.afterRun).

/** Providers whose values are the trace generator's: learnt again when their trace grows. */
const TRACE_MADE: ReadonlySet<string> = new Set([traceProvider.name, TRACE_FALLBACK]);

/**
 * Values the trace generator synthesised, whichever provider the mode has (an LLM's parts and
 * trace-fallback values learn as trace's do): synthesised again from a grown trace.
 */
export function traceMade(provider: ValueProvider, d: Definition): boolean {
  return (provider.resynthesizes === true && d.provider === provider.name) || (provider.resynthesizes !== true && TRACE_MADE.has(d.provider));
}

/** What learning needs of the book (DefinitionBook makes it): the ways it asks for a value. */
export interface LearnSteps {
  /** The request for the definition's value as first asked, without recording proxies. */
  request(def: Definition): ValueRequest;
  /** The trace generator's value for the request. */
  synthesizeFrom(request: ValueRequest): Promise<Proposal | undefined>;
  /** Asks the provider, counting the attempt (DefinitionBook.propose). */
  propose(def: Definition, request: ValueRequest): Promise<Proposal | undefined>;
  /** The fallback's proposal (DefinitionBook.fallback). */
  fallback(def: Definition, request: ValueRequest): Promise<Proposal>;
}

/**
 * Replaces a recording proxy, or a traced definition whose trace grew, with a value synthesised
 * from what was seen; `provider` is the one answering when learning began. Returns whether it changed.
 */
export async function relearn(steps: LearnSteps, provider: ValueProvider, def: Definition): Promise<boolean> {
  const wasProbe = def.proposal.probe === true;
  const attempts = def.attempts;
  const request = steps.request(def);
  const again = !wasProbe && provider.resynthesizes !== true ? await steps.synthesizeFrom(request) : undefined;
  let proposal = again ?? await steps.propose(def, request);
  // Re-synthesis from a grown trace refines the same attempt; it spends none.
  if (!wasProbe) def.attempts = attempts;
  if (!proposal || proposal.probe) proposal = await steps.fallback(def, request);
  const changed = proposal.source !== def.proposal.source || wasProbe;
  if (wasProbe) def.attempts = Math.max(def.attempts, 1);
  def.proposal = proposal;
  return changed;
}
