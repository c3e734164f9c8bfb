import OpenAI, { APIConnectionError, APIError } from 'openai';
import pRetry, { AbortError } from 'p-retry';
import type { Logger } from 'pino';
import { LlmBadResponse, LlmUnavailable } from '../errors.ts';
import type { LlmOptions } from './llmOptions.ts';
import type { CachedReply } from './responseCache.ts';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface TransportReply extends CachedReply {
  /** Transient failures retried before this reply. */
  readonly retries: number;
}

/** After an endpoint is given up on, requests fail at once for this long instead of waiting again. */
const DEAD_FOR_MS = 30_000;

/**
 * One Chat Completions request, made to survive a bad endpoint: a timeout on every request, and
 * p-retry with exponential backoff and jitter on 429, 408, 5xx, timeouts, connection errors and
 * malformed replies, waiting at least as long as a Retry-After header asks. Other HTTP errors
 * (401, 404…) are not retried. What still fails is an LlmUnavailable.
 */
export class ChatTransport {
  private readonly client: OpenAI;
  private readonly options: LlmOptions;
  private readonly log: Logger;
  private deadUntil = 0;
  private deadReason = '';

  constructor(options: LlmOptions, log: Logger) {
    this.options = options;
    this.log = log;
    // The SDK's own retries are off: p-retry owns them, so they are counted and logged in one place.
    this.client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey, timeout: options.requestTimeoutMs, maxRetries: 0, logLevel: 'off' });
  }

  async complete(messages: readonly ChatMessage[]): Promise<TransportReply> {
    if (Date.now() < this.deadUntil) throw new LlmUnavailable(`LLM endpoint ${this.options.baseURL} is unavailable: ${this.deadReason}`);
    let retries = 0;
    try {
      const reply = await pRetry(() => this.request(messages), {
        retries: this.options.retries,
        factor: 2,
        minTimeout: this.options.retryMinDelayMs,
        maxTimeout: this.options.retryMaxDelayMs,
        randomize: true,
        onFailedAttempt: async ({ error, retriesLeft, retryDelay }) => {
          if (retriesLeft <= 0) return;
          retries++;
          const asked = retryAfterMs(error);
          const extra = asked === undefined ? 0 : Math.min(asked, this.options.retryMaxDelayMs) - retryDelay;
          this.log.info({ error: describe(error), retryDelay: retryDelay + Math.max(0, extra), retriesLeft }, 'LLM request failed; retrying');
          if (extra > 0) await new Promise((r) => setTimeout(r, extra));
        },
      });
      return { ...reply, retries };
    } catch (error) {
      const reason = describe(error);
      if (isTransient(error)) {
        this.deadUntil = Date.now() + DEAD_FOR_MS;
        this.deadReason = `${reason} (after ${retries} retries)`;
      }
      this.log.warn({ error: reason, retries }, 'LLM request failed');
      throw new LlmUnavailable(`LLM endpoint ${this.options.baseURL} failed: ${reason}${retries > 0 ? ` (after ${retries} retries)` : ''}`, { cause: error });
    }
  }

  private async request(messages: readonly ChatMessage[]): Promise<CachedReply> {
    let response: unknown;
    try {
      // OpenAI's newer models only take max_completion_tokens; every other server knows max_tokens.
      const limit = this.options.baseURL.startsWith('https://api.openai.com') ? { max_completion_tokens: this.options.maxCompletionTokens } : { max_tokens: this.options.maxCompletionTokens };
      response = await this.client.chat.completions.create({
        model: this.options.model,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        temperature: this.options.temperature,
        ...limit,
      });
    } catch (error) {
      if (isTransient(error)) throw error;
      throw new AbortError(error instanceof Error ? error : new Error(String(error)));
    }
    return parseReply(response);
  }
}

/** A Chat Completions response, checked field by field: a lying endpoint is a transient failure. */
function parseReply(response: unknown): CachedReply {
  const r = response as { choices?: { message?: { content?: unknown } }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null;
  const content = typeof r === 'object' && r !== null && Array.isArray(r.choices) ? r.choices[0]?.message?.content : undefined;
  if (typeof content !== 'string') throw new LlmBadResponse(`not a Chat Completions response: ${JSON.stringify(response)?.slice(0, 200) ?? String(response)}`);
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);
  return { text: content, promptTokens: count(r?.usage?.prompt_tokens), completionTokens: count(r?.usage?.completion_tokens) };
}

function isTransient(error: unknown): boolean {
  if (error instanceof LlmBadResponse || error instanceof APIConnectionError) return true;
  if (error instanceof APIError) {
    const s = error.status;
    return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
  }
  // fetch failures below the SDK, and JSON the SDK could not parse
  return error instanceof TypeError || error instanceof SyntaxError;
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms, in ms. */
function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof APIError) || !error.headers) return undefined;
  const ms = Number(error.headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const header = error.headers.get('retry-after');
  if (header === null || header === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function describe(error: unknown): string {
  if (error instanceof APIError && error.status !== undefined) return `HTTP ${error.status}: ${error.message}`.slice(0, 300);
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 300);
}
