import { createHash } from 'node:crypto';
import type { RunOptions } from '../core/options.ts';
import type { LlmOptions } from '../llm/llmOptions.ts';

/**
 * The run's key: a hash of everything that changes a snippet's result (the parsed run options with
 * their defaults, the LLM settings of `--mode llm`, and snipexec's version). The same dataset with
 * the same options has the same key, so enqueueing it again adds nothing; a changed option makes a new run.
 */
export function runKey(options: RunOptions, version: string, llm?: LlmResultOptions): string {
  const parts = { version, options: sortKeys(options), ...(llm ? { llm: sortKeys(llm) } : {}) };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/** The LLM settings a result depends on (the endpoint's URL, key, log and cache are not among them). */
export type LlmResultOptions = Pick<LlmOptions, 'model' | 'temperature' | 'maxCallsPerSnippet' | 'maxTokensPerSnippet' | 'maxCompletionTokens'>;

/**
 * A job's id: the run key and the snippet id. BullMQ refuses ids with ':' and integer ids, so the
 * snippet id is percent-encoded (':' becomes %3A) after a prefix that is never a number.
 */
export function jobId(key: string, snippetId: string): string {
  return `${key}-${encodeURIComponent(snippetId)}`;
}

function sortKeys<T extends object>(value: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
}
