import pino, { type Logger } from 'pino';
import { LlmBudgetExhausted } from '../core/errors.ts';
import { ChatTransport, type ChatMessage } from './chatTransport.ts';
import { countMessages, countTokens } from './countTokens.ts';
import type { LlmOptions } from './llmOptions.ts';
import { SecretRedactor } from './redactSecrets.ts';
import { ResponseCache } from './responseCache.ts';
import { emptyUsage, type LlmUsage } from '../core/llmUsage.ts';

/**
 * The caps of a batch: counted in this process (LlmBudget), or in Redis so that every worker of a
 * queued run shares them (src/queue/redisBudget.ts).
 */
export interface BatchBudget {
  /** Throws LlmBudgetExhausted when a cap is reached. */
  check(): void | Promise<void>;
  /** Counts one request of `tokens` tokens. */
  spend(tokens: number): void | Promise<void>;
}

/** A cap on requests and tokens; cached replies count too, so a re-run from the cache takes the same path. */
export class LlmBudget implements BatchBudget {
  calls = 0;
  tokens = 0;
  private readonly maxCalls: number;
  private readonly maxTokens: number;
  private readonly scope: string;

  constructor(scope: string, maxCalls = Infinity, maxTokens = Infinity) {
    this.scope = scope;
    this.maxCalls = maxCalls;
    this.maxTokens = maxTokens;
  }

  check(): void {
    if (this.calls >= this.maxCalls) throw new LlmBudgetExhausted(`the ${this.scope} cap of ${this.maxCalls} LLM calls is reached`);
    if (this.tokens >= this.maxTokens) throw new LlmBudgetExhausted(`the ${this.scope} cap of ${this.maxTokens} LLM tokens is reached`);
  }

  spend(tokens: number): void {
    this.calls++;
    this.tokens += tokens;
  }
}

export interface LlmEnvironmentInit {
  /** Where secret-named variables are read from, to be redacted; the host's environment by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** Defaults to a silent logger: the library prints nothing. */
  readonly logger?: Logger;
  /** The batch caps, when they are kept elsewhere (a queued run's, in Redis); else counted here. */
  readonly batchBudget?: BatchBudget;
}

/**
 * What the snippets of one run or batch share: the endpoint, the response cache, the batch caps
 * and the log. Each snippet gets its own session with its own redactor and caps.
 */
export class LlmEnvironment {
  readonly options: LlmOptions;
  readonly log: Logger;
  readonly batch: BatchBudget;
  readonly usage: LlmUsage = emptyUsage();
  private readonly transport: ChatTransport;
  private readonly cache: ResponseCache | undefined;
  private readonly env: NodeJS.ProcessEnv;

  constructor(options: LlmOptions, init: LlmEnvironmentInit = {}) {
    this.options = options;
    this.log = (init.logger ?? pino({ level: 'silent' })).child({ module: 'llm' });
    this.batch = init.batchBudget ?? new LlmBudget('batch', options.maxCallsPerBatch, options.maxTokensPerBatch);
    this.transport = new ChatTransport(options);
    this.cache = options.cacheDir === undefined ? undefined : new ResponseCache(options.cacheDir);
    this.env = init.env ?? process.env;
  }

  /** A snippet's session; `snippet` (its id or file name) is on every log line it writes. */
  session(snippet = 'snippet'): LlmSession {
    return new LlmSession(this, new SecretRedactor(this.env), this.transport, this.cache, this.log.child({ snippet }));
  }
}

/** The LLM as one snippet sees it: every message is redacted here, the one way out. */
export class LlmSession {
  readonly usage: LlmUsage = emptyUsage();
  readonly redactor: SecretRedactor;
  /** The snippet's log: the environment's, with the snippet's id on every line. */
  readonly log: Logger;
  private readonly env: LlmEnvironment;
  private readonly transport: ChatTransport;
  private readonly cache: ResponseCache | undefined;
  private readonly budget: LlmBudget;
  /** Elements asked about so far, counted once each. */
  private readonly asked = new Set<string>();

  constructor(env: LlmEnvironment, redactor: SecretRedactor, transport: ChatTransport, cache: ResponseCache | undefined, log: Logger = env.log) {
    this.env = env;
    this.redactor = redactor;
    this.transport = transport;
    this.cache = cache;
    this.log = log;
    this.budget = new LlmBudget('per-snippet', env.options.maxCallsPerSnippet, env.options.maxTokensPerSnippet);
  }

  /**
   * Sends redacted messages and returns the reply with the snippet's own secrets put back.
   * Throws LlmBudgetExhausted when a cap is reached, LlmUnavailable when the endpoint fails.
   */
  async chat(messages: readonly ChatMessage[], purpose: string, element?: string): Promise<string> {
    try {
      this.budget.check();
      await this.env.batch.check();
    } catch (error) {
      this.usage.capped = true;
      this.env.usage.capped = true;
      throw error;
    }
    const sent = messages.map((m) => ({ role: m.role, content: this.redactor.redact(m.content) }));
    const counted = countMessages(sent);
    this.add('promptTokensCounted', counted);
    if (element !== undefined && !this.asked.has(element)) {
      this.asked.add(element);
      this.add('elements', 1);
    }
    const { options } = this.env;
    const parts = { baseURL: options.baseURL, model: options.model, temperature: options.temperature, maxCompletionTokens: options.maxCompletionTokens, messages: sent };
    const key = ResponseCache.key(parts);
    let reply = this.cache?.get(key);
    const cached = reply !== undefined;
    if (!reply) {
      const tally = { error: (status: string) => this.countError(status) };
      let fresh;
      try {
        fresh = await this.transport.complete(sent, { log: this.log, tally });
      } catch (error) {
        this.add('failed', 1);
        throw error;
      }
      this.add('retries', fresh.retries);
      reply = { text: fresh.text, promptTokens: fresh.promptTokens || counted, completionTokens: fresh.completionTokens || countTokens(fresh.text) };
      this.cache?.set(key, parts, reply);
      this.add('calls', 1);
      this.add('promptTokens', reply.promptTokens);
      this.add('completionTokens', reply.completionTokens);
    } else this.add('cached', 1);
    const tokens = reply.promptTokens + reply.completionTokens;
    this.budget.spend(tokens);
    await this.env.batch.spend(tokens);
    this.log.debug({ purpose, cached, key, messages: sent, reply: reply.text, promptTokens: reply.promptTokens, completionTokens: reply.completionTokens }, 'LLM exchange');
    return this.redactor.restore(reply.text);
  }

  private add(field: 'calls' | 'cached' | 'retries' | 'failed' | 'promptTokens' | 'completionTokens' | 'promptTokensCounted' | 'elements', n: number): void {
    this.usage[field] += n;
    this.env.usage[field] += n;
  }

  private countError(status: string): void {
    for (const u of [this.usage, this.env.usage]) u.errors[status] = (u.errors[status] ?? 0) + 1;
  }
}


