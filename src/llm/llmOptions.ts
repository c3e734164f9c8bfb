import { z } from 'zod';
import { LlmNotConfigured } from '../core/errors.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Settings of the LLM value generator; each has a description and a default, unknown keys are rejected. */
export const llmOptionsSchema = z
  .object({
    baseURL: z.string().url().describe('OpenAI-compatible endpoint (OPENAI_BASE_URL), e.g. http://127.0.0.1:11434/v1 for Ollama.'),
    apiKey: z.string().min(1).describe('API key (OPENAI_API_KEY); local servers accept any value.'),
    model: z.string().min(1).describe('Model name (--model or SNIPEXEC_MODEL).'),
    temperature: z.number().min(0).max(2).default(0).describe('Sampling temperature; 0 makes runs as repeatable as the server allows.'),
    maxCompletionTokens: z.number().int().min(16).max(32_768).default(1_024).describe('Longest reply asked for per request.'),
    maxReplyBytes: z.number().int().min(1_024).max(256 * 1024 * 1024).default(1024 * 1024).describe('Largest reply body read from the endpoint, in bytes; a larger one is cut off and counts as a failed attempt.'),
    requestTimeoutMs: z.number().int().min(100).max(600_000).default(60_000).describe('Timeout of every request, in ms.'),
    retries: z.number().int().min(0).max(20).default(4).describe('Transport retries per request on 429, 5xx, timeouts and connection errors.'),
    retryMinDelayMs: z.number().int().min(1).max(60_000).default(500).describe('First backoff delay; doubled per retry, randomised by up to 2x (jitter).'),
    retryMaxDelayMs: z.number().int().min(1).max(600_000).default(20_000).describe('Longest wait between retries, Retry-After included.'),
    maxCallsPerSnippet: z.number().int().min(0).max(100_000).default(40).describe('Requests (cached ones included) per snippet; then the offline trace generator takes over.'),
    maxTokensPerSnippet: z.number().int().min(0).max(100_000_000).default(150_000).describe('Prompt plus completion tokens per snippet.'),
    maxCallsPerBatch: z.number().int().min(0).optional().describe('Requests over a whole batch; unlimited when unset.'),
    maxTokensPerBatch: z.number().int().min(0).optional().describe('Tokens over a whole batch; unlimited when unset.'),
    cacheDir: z.string().min(1).optional().describe('Directory of the response cache (--llm-cache); a re-run answers from it at no cost.'),
    logFile: z.string().min(1).optional().describe('File the pino log goes to (--log-file); every exchange is logged, redacted, at debug level.'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().describe('Log level; debug with --log-file, warn otherwise.'),
  })
  .strict();

export type LlmOptionsInput = z.input<typeof llmOptionsSchema>;
export type LlmOptions = z.output<typeof llmOptionsSchema>;

/** What the CLI passes on top of the environment. */
export type LlmFlags = Partial<Omit<LlmOptionsInput, 'baseURL' | 'apiKey'>>;

/**
 * Reads OPENAI_BASE_URL, OPENAI_API_KEY and SNIPEXEC_MODEL, lets flags override the rest, and
 * validates. No endpoint or no model is an LlmNotConfigured error that says what to set.
 */
export function llmOptionsFromEnv(env: NodeJS.ProcessEnv, flags: LlmFlags = {}): LlmOptions {
  const baseURL = nonEmpty(env.OPENAI_BASE_URL);
  const apiKey = nonEmpty(env.OPENAI_API_KEY);
  if (baseURL === undefined && apiKey === undefined) {
    throw new LlmNotConfigured(
      'the LLM (--mode llm, --ai) needs an endpoint: set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for a local server ' +
        '(Ollama: http://127.0.0.1:11434/v1, llama.cpp/vLLM: http://127.0.0.1:8080/v1)',
    );
  }
  const model = flags.model ?? nonEmpty(env.SNIPEXEC_MODEL);
  if (model === undefined) throw new LlmNotConfigured('the LLM (--mode llm, --ai) needs a model: pass --model NAME or set SNIPEXEC_MODEL');
  return parseLlmOptions({ ...flags, baseURL: baseURL ?? OPENAI_DEFAULT_BASE_URL, apiKey: apiKey ?? 'not-needed', model });
}

export function parseLlmOptions(input: unknown): LlmOptions {
  const result = llmOptionsSchema.safeParse(input ?? {});
  if (!result.success) throw new LlmNotConfigured(result.error.issues.map((i) => `${i.path.join('.') || 'llm'}: ${i.message}`).join('; '));
  return result.data;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
