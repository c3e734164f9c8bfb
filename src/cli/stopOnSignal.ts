/** What a batch sees of SIGINT and SIGTERM. */
export interface SignalStop {
  /** Aborted by the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The signal received, if one was. */
  received(): NodeJS.Signals | undefined;
  /** Stops listening; the signals' default action (ending the process) is back. */
  dispose(): void;
}

/**
 * SIGINT and SIGTERM stop a batch gracefully: the first one aborts the returned signal, so the
 * batch starts no more snippets, finishes and writes the ones running, and prints its summary.
 * A second one ends the process at once, by the signal's default action; a line being appended is
 * written whole before a signal handler can run, and --resume drops a cut last line anyway.
 */
export function stopOnSignals(onFirst?: (signal: NodeJS.Signals) => void): SignalStop {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const dispose = () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  function handler(signal: NodeJS.Signals): void {
    if (received !== undefined) {
      dispose();
      process.kill(process.pid, signal);
      return;
    }
    received = signal;
    onFirst?.(signal);
    controller.abort();
  }
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return { signal: controller.signal, received: () => received, dispose };
}

/** The shell's exit status for a process ended by `signal`: 128 plus the signal number. */
export function exitCodeFor(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}
