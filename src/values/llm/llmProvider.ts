import { LlmBudgetExhausted, LlmReplyTooLarge, LlmUnavailable } from '../../core/errors.ts';
import type { LlmSession } from '../../llm/llmSession.ts';
import { heuristicClassifier } from '../classifyHeuristic.ts';
import { classifierFallback, type FallbackChoice, type ValueSource } from '../providers.ts';
import { isUsed } from '../../protocol/trace.ts';
import { traceFallbackProvider, traceProvider } from '../trace/traceProvider.ts';
import { isExhausted, type Exhausted, type FailedAttempt, type Proposal, type TypeClassifier, type ValueProvider, type ValueRequest } from '../types.ts';
import type { Category } from '../../core/categories.ts';
import { assignMessages, classifierMessages, fixMessages } from './buildPrompts.ts';
import { extractDefinition } from './extractDefinition.ts';
import { parseCategory } from './parseCategory.ts';

const PROBE: Proposal = { source: '', refs: [], category: 'Dummy', probe: true };

/**
 * `llm`: SelfPiCo's interactive loop. A missing element is first a recording proxy, so the prompt
 * can show how the snippet used it; then the LLM writes a definition. A reply without a usable
 * code block is fed back at once; a definition that throws in the isolate, or makes the snippet
 * fail at the element again, comes back through the definition book with its error. Each request
 * is an attempt, up to `maxAttempts`; then the fallback classifier picks a dummy.
 * Parts of definitions, and every element once a call or token cap is reached, come from the
 * offline trace generator. An endpoint that fails (LlmUnavailable) is not handled here: the value
 * source degrades to the trace generator for the rest of the snippet (see llmValueSource).
 */
export function llmProvider(session: LlmSession, maxAttempts: number): ValueProvider {
  const offline = async (request: ValueRequest, used: number, failures: readonly FailedAttempt[]): Promise<Proposal | Exhausted | undefined> => {
    const p = await traceProvider.propose({ ...request, mayProbe: false });
    if (!p || isExhausted(p)) return p;
    return { ...p, provider: 'trace', attempts: Math.max(used, 1), failures };
  };
  return {
    name: 'llm',
    async propose(request) {
      if (request.kind === 'part') return offline(request, 0, []);
      if (request.mayProbe && request.history.length === 0 && !isUsed(request.trace)) return PROBE;
      const failures: FailedAttempt[] = [];
      let used = 0;
      for (let attempt = request.attempt; attempt <= maxAttempts; attempt++) {
        const previous = [...request.history, ...failures];
        const shown = redactedSnippet(session, request);
        const messages = previous.length === 0 ? assignMessages(shown) : fixMessages(shown, previous);
        let reply: string;
        try {
          reply = await session.chat(messages, `${previous.length === 0 ? 'assign' : 'fix'} ${request.element} (attempt ${attempt})`, request.element);
        } catch (error) {
          if (error instanceof LlmBudgetExhausted) return offline(request, used, failures);
          if (!(error instanceof LlmReplyTooLarge)) throw error;
          // A reply over the size cap was read no further: a failed attempt, like a reply with no code.
          used++;
          failures.push({ source: '', error: `${error.message}; reply with one short code block` });
          continue;
        }
        used++;
        const extracted = extractDefinition(reply, request);
        // What the fix prompt shows is the code the model wrote, never our rewrite of it.
        const code = extracted.code === '' ? '(no code)' : extracted.code;
        if (extracted.ok) {
          const proposal: Proposal = { source: extracted.source, refs: extracted.refs, category: extracted.category, generated: true, attempts: used, failures, code };
          // Checked by execution before the snippet runs with it: one that throws, loops or
          // exhausts memory is a failed attempt, fed back at once.
          const problem = await request.check?.(proposal);
          if (problem === undefined) return proposal;
          failures.push({ source: extracted.source, code, error: problem });
          continue;
        }
        failures.push({ source: code, code, error: extracted.error });
      }
      return { exhausted: true, attempts: used, failures };
    },
  };
}

/**
 * The request with its snippet redacted before the prompt numbers its lines, so a rule anchored at
 * a line's start (a `.env` line) still sees the line as written. The session redacts every whole
 * message again before it leaves; one redactor per snippet gives a secret the same placeholder in both.
 */
function redactedSnippet(session: LlmSession, request: ValueRequest): ValueRequest {
  return { ...request, snippet: session.redactor.redact(request.snippet) };
}

/**
 * The LLM type classifier: one request with the classifier prompt, whose reply must be a category
 * name. Anything else, a second fallback for the same element, or a reached cap: the heuristic
 * classifier decides. `lastBy` says which one answered, for the report.
 */
export function llmClassifier(session: LlmSession): TypeClassifier & { fallback(request: ValueRequest): Promise<FallbackChoice> } {
  const ranked = (request: ValueRequest) => heuristicClassifier.classify(request);
  /** Elements the classifier was asked about: one request per element, whatever comes after. */
  const asked = new Set<string>();
  const ask = async (request: ValueRequest): Promise<Category | undefined> => {
    if (asked.has(request.element)) return undefined;
    asked.add(request.element);
    let reply: string;
    try {
      reply = await session.chat(classifierMessages(redactedSnippet(session, request)), `classify ${request.element}`);
    } catch (error) {
      if (error instanceof LlmBudgetExhausted || error instanceof LlmReplyTooLarge) return undefined;
      throw error;
    }
    return parseCategory(reply);
  };
  return {
    name: 'llm-classifier',
    async classify(request) {
      const picked = await ask(request);
      const rest = await ranked(request);
      return picked === undefined ? rest : [picked, ...rest.filter((c) => c !== picked)];
    },
    async fallback(request) {
      const picked = await ask(request);
      if (picked !== undefined) return { category: picked, by: 'llm-classifier' };
      return { category: (await ranked(request))[0] ?? 'Dummy', by: heuristicClassifier.name };
    },
  };
}


/**
 * What answers once the endpoint is unavailable: the values the offline trace generator learnt
 * from the same recording runs, as `trace-fallback`, and the heuristic classifier.
 */
const TRACE_FALLBACK: ValueSource = { provider: traceFallbackProvider, classifier: heuristicClassifier, fallback: classifierFallback(heuristicClassifier) };

/**
 * After the LLM used its attempts on an element: the value the trace generator learnt for it from
 * the same recording runs (`trace-fallback`). When that value fails too, it is blamed and refined
 * like a trace value, a category at a time, for up to `maxAttempts` fallbacks; then the classifier
 * (one LLM request per element, else the heuristic) picks a dummy.
 */
function traceThenClassifier(classifier: ReturnType<typeof llmClassifier>, maxAttempts: number): (request: ValueRequest) => Promise<FallbackChoice> {
  return async (request) => {
    if (request.fallbacks < maxAttempts) {
      const learnt = await traceProvider.propose({ ...request, mayProbe: false });
      if (learnt && !isExhausted(learnt) && !learnt.probe) return { category: learnt.category, by: 'trace', proposal: learnt };
    }
    return classifier.fallback(request);
  };
}

/** The value source of `--mode llm`, for one snippet's session; it degrades to TRACE_FALLBACK when the endpoint fails. */
export function llmValueSource(session: LlmSession, maxAttempts: number): ValueSource {
  const classifier = llmClassifier(session);
  return {
    provider: llmProvider(session, maxAttempts), classifier, fallback: traceThenClassifier(classifier, maxAttempts),
    degrade: { reason: 'llm-unavailable', when: (error) => error instanceof LlmUnavailable, to: TRACE_FALLBACK },
  };
}
