/**
 * One request's way through a handler chain: when it is over (the chain ended, or the last handler
 * returned, or its promise settled, without passing on), and the error it ended with. A chain of
 * synchronous handlers is over synchronously, so its errors are thrown where the driver runs.
 */
import { raiseLater } from './serverHost.ts';

/** Whether v is a thenable (an async handler's result). */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

export class Flight {
  private settled = false;
  private failed = false;
  private error: unknown;
  private waiting: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  private generation = 0;

  /** Ends the flight; an error ends it as the snippet's error (thrown, or raised later). */
  finish(error?: unknown, failed = error !== undefined): void {
    if (this.settled) {
      if (failed) raiseLater(error);
      return;
    }
    this.settled = true;
    this.failed = failed;
    this.error = error;
    if (this.waiting) {
      if (failed) this.waiting.reject(error);
      else this.waiting.resolve();
    }
  }

  /**
   * Calls a handler. When it neither passes on (`onward` starts another call) nor fails, the flight
   * is over once it returned, or once its promise settled; a throw or a rejection goes to `onError`.
   */
  call(fn: () => unknown, onError: (e: unknown) => void): void {
    const mine = ++this.generation;
    let result: unknown;
    try {
      result = fn();
    } catch (e) {
      onError(e);
      return;
    }
    if (isThenable(result)) {
      result.then(
        () => { if (this.generation === mine) this.finish(); },
        (e: unknown) => onError(e),
      );
    } else if (this.generation === mine) {
      this.finish();
    }
  }

  /** After the chain was started: nothing when it is over (its error thrown), else a promise of its end. */
  outcome(): Promise<void> | undefined {
    if (this.settled) {
      if (this.failed) throw this.error;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => { this.waiting = { resolve, reject }; });
  }
}

/** A request dispatch: nothing when it ended synchronously, else a promise of its end. */
export type Dispatch = () => Promise<void> | undefined;

/**
 * Runs dispatches one after another, each after the previous one ended. `next` gives the next
 * one (it may depend on what the earlier ones reached). Synchronous errors are thrown to the
 * caller (the runtime's driver loop); errors after the first await are raised from a timer.
 */
export function runInSequence(next: () => Dispatch | undefined): void {
  const step = (sync: boolean): void => {
    for (let dispatch = next(); dispatch !== undefined; dispatch = next()) {
      let pending: Promise<void> | undefined;
      try {
        pending = dispatch();
      } catch (e) {
        if (sync) throw e;
        raiseLater(e);
        return;
      }
      if (pending) {
        pending.then(() => step(false), (e: unknown) => raiseLater(e));
        return;
      }
    }
  };
  step(true);
}
