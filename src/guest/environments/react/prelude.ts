/**
 * Imported before react-dom, which reads the global `reportError` once, while it loads, to report
 * an error thrown by an event handler or by a render no error boundary caught. A browser reports
 * such an error as uncaught and goes on; here it is rethrown from a timer of its own, so the run
 * ends with it as the snippet's uncaught error, as an error of a plain listener does. The global
 * is put back (`restoreReportError`) once react-dom has loaded: the snippet never sees it. A minified
 * message of React's is put back as React words it (reactErrors.ts).
 */
import { explainReactError } from './reactErrors.ts';

const G = globalThis as unknown as Record<string, unknown>;
const saved = Object.getOwnPropertyDescriptor(G, 'reportError');
const later = G.setTimeout as ((fn: () => void, ms: number) => unknown) | undefined;

/** Rethrows `error` on the next task, where nothing of React catches it. */
export function rethrowLater(error: unknown): void {
  explainReactError(error);
  if (typeof later !== 'function') throw error;
  later(() => {
    throw error;
  }, 0);
}

Object.defineProperty(G, 'reportError', { value: rethrowLater, writable: true, configurable: true });

/** Puts back `reportError` as it was before react-dom loaded. */
export function restoreReportError(): void {
  if (saved) Object.defineProperty(G, 'reportError', saved);
  else delete G.reportError;
}
