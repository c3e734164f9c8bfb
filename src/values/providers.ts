import type { Degradation } from '../core/runResult.ts';
import type { Mode } from '../core/options.ts';
import { InvalidOptions } from '../core/errors.ts';
import { heuristicClassifier } from './classifyHeuristic.ts';
import { dummyFor } from './dummyTable.ts';
import { traceProvider } from './trace/traceProvider.ts';
import type { Proposal, TypeClassifier, ValueProvider, ValueRequest } from './types.ts';
import type { Category } from '../core/categories.ts';

/** `none`: nothing is injected, the "as is" baseline. */
export const noneProvider: ValueProvider = {
  name: 'none',
  async propose(): Promise<Proposal | undefined> {
    return undefined;
  },
};

/** `dummy`: the classifier's best category not yet rejected, as its predefined dummy (LExecutor-style). */
export function dummyProvider(classifier: TypeClassifier = heuristicClassifier): ValueProvider {
  return {
    name: 'dummy',
    async propose(request: ValueRequest): Promise<Proposal | undefined> {
      const [category] = await classifier.classify(request);
      if (category === undefined) return undefined;
      return dummyFor(category, request.element, request.name, request.usage.arrayPattern?.length);
    },
  };
}

/**
 * What a fallback picked, and who picked it (reported as `<by>-fallback`): a category, injected as
 * its predefined dummy, or a whole proposal (`--mode llm` falls back to the value the trace
 * generator learnt for the element).
 */
export interface FallbackChoice {
  readonly category: Category;
  readonly by: string;
  readonly proposal?: Proposal;
}


export interface ValueSource {
  readonly provider: ValueProvider;
  readonly classifier: TypeClassifier;
  /** The category injected once the provider has used its attempts. */
  readonly fallback: (request: ValueRequest) => Promise<FallbackChoice>;
  /**
   * The source that answers for the rest of the snippet once the provider fails with an error
   * `when` accepts (an LLM endpoint that stayed dead), and the reason the result then reports.
   */
  readonly degrade?: { readonly reason: Degradation; readonly when: (error: unknown) => boolean; readonly to: ValueSource };
}

/** The classifier's best remaining category; the universal Dummy when none is left. */
export function classifierFallback(classifier: TypeClassifier): (request: ValueRequest) => Promise<FallbackChoice> {
  return async (request) => ({ category: (await classifier.classify(request))[0] ?? 'Dummy', by: classifier.name });
}

/** The provider and fallback classifier of a mode; later modes plug in here. */
export function valueSourceFor(mode: Mode): ValueSource {
  switch (mode) {
    case 'none': return { provider: noneProvider, classifier: heuristicClassifier, fallback: classifierFallback(heuristicClassifier) };
    // The dummy provider already walks the classifier's ranking, so its fallback is the universal Dummy.
    case 'dummy': return { provider: dummyProvider(), classifier: heuristicClassifier, fallback: async () => ({ category: 'Dummy', by: 'heuristic' }) };
    case 'trace': return { provider: traceProvider, classifier: heuristicClassifier, fallback: classifierFallback(heuristicClassifier) };
    case 'llm':
      // Each snippet gets its own LLM session; runSnippet builds it with llmValueSource.
      throw new InvalidOptions('--mode llm takes its value source from an LLM session (runSnippet builds it)');
  }
}
