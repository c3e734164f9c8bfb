import { LlmBadResponse, LlmBudgetExhausted, LlmReplyTooLarge, LlmUnavailable, ProviderFailed, type SnipexecError } from '../core/errors.ts';
import { heuristicClassifier } from '../values/classifyHeuristic.ts';
import { classifierFallback, type FallbackChoice, type ValueSource } from '../values/providers.ts';
import type { Degradation } from '../core/runResult.ts';
import { TRACE_FALLBACK } from '../values/trace/traceProvider.ts';
import { isExhausted, type Exhausted, type Proposal, type ValueProvider, type ValueRequest } from '../values/types.ts';

/** A value provider's own failure, as opposed to a bug of the host: only these are provider errors. */
export function isProviderFailure(error: unknown): error is SnipexecError {
  return error instanceof ProviderFailed || error instanceof LlmUnavailable || error instanceof LlmBadResponse || error instanceof LlmBudgetExhausted || error instanceof LlmReplyTooLarge;
}

/** A provider failure as the result reports it: the error's code and message. */
export interface ProviderError {
  readonly type: string;
  readonly message: string;
}

/**
 * Stands between the definition book and the value source, for one snippet. It times every call
 * (that wait is not the snippet's), keeps a provider's own failures, and lets every other
 * exception through: that is a host bug. When the value source says how to degrade (an LLM
 * endpoint that stopped answering), it switches to the degraded source for the rest of the
 * snippet and asks it instead; `degraded` then says why.
 */
export class ProviderBroker {
  /** Time spent waiting for providers. */
  ms = 0;
  readonly errors: ProviderError[] = [];
  degraded: Degradation | undefined;
  private source: ValueSource;
  private readonly original: ValueSource;

  constructor(source: ValueSource) {
    this.source = source;
    this.original = source;
  }

  /** A way back to the broker as it stands (the failures kept, the source answering); the time waited stays spent. */
  checkpoint(): () => void {
    const { source, degraded } = this;
    const errors = this.errors.length;
    return () => {
      this.source = source;
      this.degraded = degraded;
      this.errors.length = errors;
    };
  }

  /** The provider now answering: the mode's, or its degraded stand-in. */
  get provider(): ValueProvider {
    return this.source.provider;
  }

  /** Whether a definition made by `provider` is the current provider's to retry when it fails. */
  owns(provider: string): boolean {
    return provider === this.source.provider.name || provider === TRACE_FALLBACK || (this.degraded !== undefined && provider === this.original.provider.name);
  }

  /**
   * The provider's proposal. A provider that failed (kept in `errors`) and has no degraded source
   * is exhausted for this element, so the fallback classifier decides. A host bug is thrown.
   */
  async propose(request: ValueRequest): Promise<Proposal | Exhausted | undefined> {
    return this.timed(async () => {
      for (;;) {
        try {
          return await this.source.provider.propose(request);
        } catch (error) {
          if (this.degrade(error)) continue;
          return { exhausted: true, attempts: 0, failures: [] };
        }
      }
    });
  }

  /** A value synthesised again by `provider` (the trace generator), timed like every provider call; undefined when it has none. */
  async synthesize(request: ValueRequest, provider: ValueProvider): Promise<Proposal | undefined> {
    return this.timed(async () => {
      const p = await provider.propose({ ...request, mayProbe: false });
      return p && !isExhausted(p) && !p.probe ? p : undefined;
    });
  }

  /** The fallback classifier's category; the heuristic classifier's when that classifier failed. */
  async fallback(request: ValueRequest): Promise<FallbackChoice> {
    return this.timed(async () => {
      for (;;) {
        try {
          return await this.source.fallback(request);
        } catch (error) {
          if (this.degrade(error)) continue;
          return classifierFallback(heuristicClassifier)(request);
        }
      }
    });
  }

  /**
   * Keeps a provider failure, and switches to the degraded source when the failure is the one it
   * stands in for (then the caller asks again). Anything else is a host bug, and is rethrown.
   */
  private degrade(error: unknown): boolean {
    if (!isProviderFailure(error)) throw error;
    if (!this.errors.some((e) => e.message === error.message)) this.errors.push({ type: error.code, message: error.message });
    const plan = this.source.degrade;
    if (!plan || !plan.when(error)) return false;
    this.degraded = plan.reason;
    this.source = plan.to;
    return true;
  }

  private async timed<T>(call: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await call();
    } finally {
      this.ms += Date.now() - started;
    }
  }
}
