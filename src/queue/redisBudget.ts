import type { Redis } from 'ioredis';
import { LlmBudgetExhausted } from '../core/errors.ts';
import type { BatchBudget } from '../llm/llmSession.ts';

/**
 * The batch caps of a queued run (--llm-batch-max-calls, --llm-batch-max-tokens), counted in Redis
 * under the run's key so that they hold across every worker. A request is counted when it is let
 * through (INCR, atomic), so two workers can never both take the last one.
 */
export class RedisBudget implements BatchBudget {
  private readonly redis: Redis;
  private readonly callsKey: string;
  private readonly tokensKey: string;
  private readonly maxCalls: number;
  private readonly maxTokens: number;

  constructor(redis: Redis, runKey: string, maxCalls = Infinity, maxTokens = Infinity) {
    this.redis = redis;
    this.callsKey = `snipexec:llm:${runKey}:calls`;
    this.tokensKey = `snipexec:llm:${runKey}:tokens`;
    this.maxCalls = maxCalls;
    this.maxTokens = maxTokens;
  }

  async check(): Promise<void> {
    const tokens = Number((await this.redis.get(this.tokensKey)) ?? 0);
    if (tokens >= this.maxTokens) throw new LlmBudgetExhausted(`the batch cap of ${this.maxTokens} LLM tokens is reached (shared by the run's workers)`);
    if (this.maxCalls === Infinity) return;
    const calls = await this.redis.incr(this.callsKey);
    if (calls > this.maxCalls) throw new LlmBudgetExhausted(`the batch cap of ${this.maxCalls} LLM calls is reached (shared by the run's workers)`);
  }

  async spend(tokens: number): Promise<void> {
    if (this.maxTokens !== Infinity) await this.redis.incrby(this.tokensKey, tokens);
  }

  /** Requests and tokens counted so far for the run. */
  async used(): Promise<{ calls: number; tokens: number }> {
    const [calls, tokens] = await this.redis.mget(this.callsKey, this.tokensKey);
    return { calls: Math.min(Number(calls ?? 0), this.maxCalls), tokens: Number(tokens ?? 0) };
  }
}
