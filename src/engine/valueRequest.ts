import { mergeUsage, type Usage, type UsageTable } from '../instrument/usage.ts';
import { dummyFor } from '../values/dummyTable.ts';
import type { Proposal, ValueRequest } from '../values/types.ts';
import type { DefinitionCheck } from './checkDefinition.ts';
import type { Definition } from './definition.ts';
import type { TraceStore } from './traceStore.ts';

/** What a request for a definition's value is built from: the snippet's, and the book's as it stands. */
export interface RequestSources {
  readonly snippet: string;
  readonly usage: UsageTable;
  readonly defs: ReadonlyMap<string, Definition>;
  readonly traces: TraceStore;
  /** Checks a generator's definition by execution before it is adopted (BookContext.check). */
  readonly check?: DefinitionCheck;
}

/** The request a provider is asked for `def`'s value with: its usage (and `extra` observed), its trace, its failures so far. */
export function requestFor(from: RequestSources, def: Definition, message: string, extra: Usage, mayProbe: boolean): ValueRequest {
  const usage = mergeUsage(mergeUsage({}, from.usage[def.usageKey] ?? {}), extra);
  // Set aside, a declared type leaves only the parameter name a driven argument is known by.
  if (def.undeclared && usage.declared) usage.declared = usage.declared.name === undefined ? undefined : { name: usage.declared.name };
  const { check } = from;
  const result = from.usage[`${def.usageKey}()`];
  return {
    element: def.id, kind: def.kind, name: def.name, usage, ...(result && Object.keys(result).length > 0 ? { resultUsed: true } : {}), site: undefined, snippet: from.snippet, line: def.line,
    message, attempt: def.attempts + 1, history: def.history, rejected: def.rejected,
    trace: from.traces.get(def.id), traces: from.traces, mayProbe: mayProbe && def.kind !== 'part',
    // Only the LLM prompt reads these; every other request would pay for building them.
    definitions: () => [...from.defs.values()].filter((d) => !d.proposal.probe).map((d) => ({ element: d.id, source: d.proposal.source })),
    fallbacks: def.fallbacks,
    ...(check ? { check: (p: Proposal) => check(withCandidate(from.defs, def, p), def.id) } : {}),
  };
}

/**
 * The definitions with `candidate` standing for `def`, to check it: parts it refers to that are
 * not defined yet are universal dummies (they are learnt once it is adopted), and recording
 * proxies are left out (they exist only inside a run).
 */
function withCandidate(all: ReadonlyMap<string, Definition>, def: Definition, candidate: Proposal): Map<string, Definition> {
  const defs = new Map([...all].filter(([, d]) => !d.proposal.probe));
  defs.set(def.id, { ...def, proposal: candidate });
  for (const ref of candidate.refs) {
    if (defs.has(ref)) continue;
    defs.set(ref, { ...def, id: ref, kind: 'part', parent: def.id, name: ref, usageKey: ref, proposal: dummyFor('Dummy', ref, ref), history: [], rejected: [] });
  }
  return defs;
}
