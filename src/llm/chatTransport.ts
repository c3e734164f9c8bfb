import type OpenAI from 'openai';
import type { APIError } from 'openai';
import pRetry, { AbortError } from 'p-retry';
import type { Logger } from 'pino';
import { LlmBadResponse, LlmReplyTooLarge, LlmUnavailable } from '../core/errors.ts';
import { cappedFetch } from './cappedFetch.ts';
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

/** How one request went, for the caller's accounting (`llmCalls`). */
export interface RequestTally {
  /** Every failed try, retried or not: its HTTP status, or `timeout`, `connection`, `bad-response`, `too-large`. */
  error(status: string): void;
}

/** The logger and tally of one request: the caller's (a snippet's, whose log lines carry its id). */
export interface RequestContext {
  readonly log: Logger;
  readonly tally: RequestTally;
}

/**
 * The OpenAI SDK, loaded with the first request: a run that asks no LLM (the default trace mode)
 * does not load it or the fetch stack under it (about 90 ms of a CLI start).
 */
type Sdk = typeof import('openai');
let sdk: Sdk | undefined;

/** After an endpoint is given up on, requests fail at once for this long instead of waiting again. */
const DEAD_FOR_MS = 30_000;

/**
 * One Chat Completions request, made to survive a bad endpoint: a timeout on every request, and
 * p-retry with exponential backoff and jitter on 429, 408, 5xx, timeouts, connection errors and
 * malformed replies, waiting at least as long as a Retry-After header asks. Other HTTP errors
 * (401, 404…) are not retried. What still fails is an LlmUnavailable.
 */
export class ChatTransport {
  private client: OpenAI | undefined;
  private readonly options: LlmOptions;
  private deadUntil = 0;
  private deadReason = '';

  constructor(options: LlmOptions) {
    this.options = options;
  }

  /** The client, made with the first request (the SDK loads then). */
  private async openClient(): Promise<OpenAI> {
    if (this.client) return this.client;
    sdk ??= await import('openai');
    const options = this.options;
    // The SDK's own retries are off: p-retry owns them, so they are counted and logged in one place.
    // Reply bodies are read through a cap, so a huge reply cannot fill the host's memory.
    this.client = new sdk.OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey, timeout: options.requestTimeoutMs, maxRetries: 0, logLevel: 'off', fetch: cappedFetch(options.maxReplyBytes) });
    return this.client;
  }

  /**
   * One request with its retries. Throws LlmReplyTooLarge for a reply over the cap (not retried:
   * the caller counts it as a failed attempt), LlmUnavailable for everything else that failed.
   */
  async complete(messages: readonly ChatMessage[], { log, tally }: RequestContext): Promise<TransportReply> {
    if (Date.now() < this.deadUntil) throw new LlmUnavailable(`LLM endpoint ${this.options.baseURL} is unavailable: ${this.deadReason}`);
    let retries = 0;
    try {
      const reply = await pRetry(() => this.request(messages, tally), {
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
          log.info({ error: describe(error), retryDelay: retryDelay + Math.max(0, extra), retriesLeft }, 'LLM request failed; retrying');
          if (extra > 0) await new Promise((r) => setTimeout(r, extra));
        },
      });
      return { ...reply, retries };
    } catch (error) {
      if (error instanceof LlmReplyTooLarge) {
        log.warn({ error: error.message }, 'LLM reply too large; read no further');
        throw error;
      }
      const reason = describe(error);
      if (isTransient(error)) {
        this.deadUntil = Date.now() + DEAD_FOR_MS;
        this.deadReason = `${reason} (after ${retries} retries)`;
      }
      log.warn({ error: reason, retries }, 'LLM request failed');
      throw new LlmUnavailable(`LLM endpoint ${this.options.baseURL} failed: ${reason}${retries > 0 ? ` (after ${retries} retries)` : ''}`, { cause: error });
    }
  }

  private async request(messages: readonly ChatMessage[], tally: RequestTally): Promise<CachedReply> {
    let response: unknown;
    try {
      // OpenAI's newer models only take max_completion_tokens; every other server knows max_tokens.
      const limit = this.options.baseURL.startsWith('https://api.openai.com') ? { max_completion_tokens: this.options.maxCompletionTokens } : { max_tokens: this.options.maxCompletionTokens };
      const client = await this.openClient();
      response = await client.chat.completions.create({
        model: this.options.model,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        temperature: this.options.temperature,
        ...limit,
      });
    } catch (error) {
      const tooLarge = error instanceof LlmReplyTooLarge ? error : error instanceof Error && error.cause instanceof LlmReplyTooLarge ? error.cause : undefined;
      tally.error(tooLarge ? 'too-large' : statusOf(error));
      if (tooLarge) throw new AbortError(tooLarge);
      if (isTransient(error)) throw error;
      throw new AbortError(error instanceof Error ? error : new Error(String(error)));
    }
    try {
      return parseReply(response);
    } catch (error) {
      tally.error('bad-response');
      throw error;
    }
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

/** The SDK's error classes; an error can only be one of them once a request loaded the SDK. */
function isApiError(error: unknown): error is APIError {
  return sdk !== undefined && error instanceof sdk.APIError;
}
function isConnectionError(error: unknown): boolean {
  return sdk !== undefined && error instanceof sdk.APIConnectionError;
}
function isConnectionTimeout(error: unknown): boolean {
  return sdk !== undefined && error instanceof sdk.APIConnectionTimeoutError;
}

/** A failed try as `llmCalls.errors` counts it: the HTTP status, else what kind of failure it was. */
function statusOf(error: unknown): string {
  if (isApiError(error) && error.status !== undefined) return String(error.status);
  if (isConnectionTimeout(error)) return 'timeout';
  if (isConnectionError(error)) return 'connection';
  return 'bad-response';
}

function isTransient(error: unknown): boolean {
  if (error instanceof LlmBadResponse || isConnectionError(error)) return true;
  if (isApiError(error)) {
    const s = error.status;
    return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
  }
  // fetch failures below the SDK, and JSON the SDK could not parse
  return error instanceof TypeError || error instanceof SyntaxError;
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms, in ms. */
function retryAfterMs(error: unknown): number | undefined {
  if (!isApiError(error) || !error.headers) return undefined;
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
  if (isApiError(error) && error.status !== undefined) return `HTTP ${error.status}: ${error.message}`.slice(0, 300);
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 300);
}
