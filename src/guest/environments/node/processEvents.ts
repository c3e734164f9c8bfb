import type { EnvironmentHost } from '../../../protocol/environment.ts';
import type { ProcessModel } from './processModel.ts';

/** The signals a snippet may listen for, sent once each when it does (the way a user's Ctrl-C would). */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGUSR1', 'SIGUSR2', 'SIGBREAK'] as const;

/** What stdin carries when the value generator has nothing better: one line, as a user would type it. */
const DEFAULT_INPUT = 'example\n';

/**
 * A driver for the events nothing in the sandbox would ever emit on the modelled process, so the
 * handlers a snippet registers for them run, as the browser environment fires click listeners:
 * - stdin: a listener of 'data' (or 'readable') gets one chunk of learnt input, then 'end';
 * - each signal listened for is sent once, its listeners called with its name, as Node calls them;
 * - 'uncaughtException' and 'unhandledRejection' listeners get an Error (and, for the second, a
 *   rejected promise), as Node would pass them.
 * The 'exit' listeners are not driven here: the process exit driver ends the run as Node does.
 */
export function driveProcessEvents(proc: ProcessModel, host: EnvironmentHost): () => void {
  return () => {
    const stdin = proc.stdin as unknown as ProcessModel;
    if (stdin.listenerCount('data') + stdin.listenerCount('readable') > 0) {
      const learnt = host.valueOf('process.stdin#data', 'stdin gets no input in the sandbox');
      // stdin gives strings (after setEncoding) or Buffers, whose toString() is the text: a string either way.
      const chunk = host.isProbe(learnt) || typeof learnt === 'string' ? learnt : DEFAULT_INPUT;
      let unread: unknown = chunk;
      (stdin as unknown as { read?: () => unknown }).read = () => {
        const out = unread;
        unread = null;
        return out;
      };
      stdin.emit('data', chunk);
      stdin.emit('readable');
      stdin.emit('end');
    }
    for (const signal of SIGNALS) if (proc.listenerCount(signal) > 0) proc.emit(signal, signal);
    if (proc.listenerCount('uncaughtException') > 0) proc.emit('uncaughtException', bareError('example error'), 'uncaughtException');
    if (proc.listenerCount('unhandledRejection') > 0) {
      const reason = bareError('example rejection');
      const promise = Promise.reject(reason);
      promise.catch(() => {}); // the listener is told of it; nothing else may see it unhandled
      proc.emit('unhandledRejection', reason, promise);
    }
  };
}

/** An Error without stack frames: the frames would be the environment's, not the snippet's. */
function bareError(message: string): Error {
  const error = new Error(message);
  Object.defineProperty(error, 'stack', { value: `Error: ${message}`, writable: true, configurable: true, enumerable: false });
  return error;
}
