import { HostTimeout } from './errors.ts';

/** What host passes see of the deadline: a check to call between phases and every so often inside one. */
export interface DeadlineCheck {
  /** Throws HostTimeout, naming `phase`, once the budget is spent. */
  check(phase: string): void;
}

/**
 * The wall budget of one snippet (`totalTimeoutMs`), host work included. Parsing and instrumenting
 * are synchronous, so they cannot be interrupted from outside: they call `check` between phases and
 * every few thousand nodes inside a pass, and stop with HostTimeout once the budget is spent.
 */
export class HostDeadline implements DeadlineCheck {
  readonly budgetMs: number;
  private readonly now: () => number;
  private readonly startedAt: number;

  constructor(budgetMs: number, now: () => number = Date.now) {
    this.budgetMs = budgetMs;
    this.now = now;
    this.startedAt = now();
  }

  elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  remainingMs(): number {
    return this.budgetMs - this.elapsedMs();
  }

  check(phase: string): void {
    if (this.remainingMs() <= 0) throw new HostTimeout(phase, this.budgetMs);
  }
}
