import { constants } from 'node:os';
import type { TraceWriter } from './traceWriter.ts';

/** The signals that end a Node program by default and can be caught: the trace is written before the program dies of one. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Ends the trace however the program ends: `exit` (a normal end, `process.exit()` and an uncaught
 * error alike; only synchronous work is possible there), an uncaught error (its buffer written at
 * once, in case the process is aborted), and SIGINT, SIGTERM and SIGHUP. `settle` first records
 * the calls still waiting for their outcome.
 *
 * A signal listener of our own must not change what the signal does. It removes itself while the
 * signal is handled (Node calls the listeners it had when the signal came), so a program's
 * listener sees only its own (signal-exit counts them); alone, it ends the trace and raises the
 * signal again, which now kills the process as it would have; beside the program's listeners, it
 * only writes its buffer, and listens again after them.
 */
export function endTraceOnExit(writer: TraceWriter, settle: () => void): void {
  process.on('exit', (code) => {
    settle();
    writer.end(code);
  });
  process.on('uncaughtExceptionMonitor', () => writer.flush());
  const onSignal = (signal: NodeJS.Signals): void => {
    process.removeListener(signal, onSignal);
    settle();
    if (process.listenerCount(signal) > 0) {
      writer.flush();
      process.nextTick(() => process.prependListener(signal, onSignal));
      return;
    }
    writer.end(128 + (constants.signals[signal] ?? 0), signal);
    process.kill(process.pid, signal);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
