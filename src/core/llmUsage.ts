/** LLM usage of one snippet, or of a batch: the `llmCalls` field of results and summaries. */
export interface LlmUsage {
  /** Requests answered by the endpoint. */
  calls: number;
  /** Requests answered from the response cache, at no cost. */
  cached: number;
  /** Transient failures (429, 5xx, timeouts, connection errors) retried; they spend no attempt. */
  retries: number;
  /** Requests that failed after their retries: the endpoint stayed down, or the reply was over the size cap. */
  failed: number;
  /** Every failed try, retried ones included, by HTTP status or kind: `429`, `503`, `timeout`, `connection`, `bad-response`, `too-large`. */
  errors: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
  /**
   * Prompt tokens of every request, answered or from the cache, counted with one tokenizer
   * (src/llm/countTokens.ts), so figures compare across endpoints and replays.
   */
  promptTokensCounted: number;
  /** Elements the value generator was asked to define (per snippet; summed over a batch). */
  elements: number;
  /** Whether a call or token cap stopped further requests. */
  capped: boolean;
}

export const NO_LLM_USAGE: Readonly<LlmUsage> = Object.freeze({ calls: 0, cached: 0, retries: 0, failed: 0, errors: Object.freeze({}) as Record<string, number>, promptTokens: 0, completionTokens: 0, promptTokensCounted: 0, elements: 0, capped: false });

/** A fresh usage record, to count into. */
export function emptyUsage(): LlmUsage {
  return { ...NO_LLM_USAGE, errors: {} };
}

/** Adds a usage record (a result's, read from JSON: fields may be missing) into `into`: the one home of merging usage. */
export function addUsage(into: LlmUsage, from: Partial<LlmUsage> | undefined): void {
  if (!from) return;
  into.calls += from.calls ?? 0;
  into.cached += from.cached ?? 0;
  into.retries += from.retries ?? 0;
  into.failed += from.failed ?? 0;
  for (const [status, n] of Object.entries(from.errors ?? {})) into.errors[status] = (into.errors[status] ?? 0) + n;
  into.promptTokens += from.promptTokens ?? 0;
  into.completionTokens += from.completionTokens ?? 0;
  into.promptTokensCounted += from.promptTokensCounted ?? 0;
  into.elements += from.elements ?? 0;
  into.capped ||= from.capped === true;
}

/** A copy that shares nothing with the record counted into. */
export function copyUsage(u: Readonly<LlmUsage>): LlmUsage {
  return { ...u, errors: { ...u.errors } };
}
