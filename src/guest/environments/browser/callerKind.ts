/**
 * Whose code called a member of the DOM: the snippet's own (usage that implies what a page has),
 * a library on top of the DOM (jQuery: the snippet's usage, one step removed), or the DOM library
 * itself (linkedom's own traversal and matching, which must never make a page grow). Read from
 * the stack: the first frame past the member that is neither the runtime's hook nor a builtin.
 * Frames of environments are in `snipexec:env:<name>` scripts; the runtime's are in
 * `snipexec:runtime` (or the bare `<isolated-vm>`); anything else is the snippet (in the sandbox
 * `snipexec:snippet`, in an `--emit`ted program its own file).
 */

export type CallerKind = 'snippet' | 'library' | 'browser' | 'unknown';

const ErrorCtor = Error as unknown as { stackTraceLimit: number; prepareStackTrace?: unknown; captureStackTrace(target: object, constructorOpt?: (...args: never[]) => unknown): void };
const captureStackTrace = ErrorCtor.captureStackTrace;
const OWN = 'snipexec:env:browser';
const ENVIRONMENT = 'snipexec:env:';
const RUNTIME = /snipexec:runtime|<isolated-vm>/;
const FRAME = /^\s*at (?:.*? \()?(.*?)\)?$/;

/** The kind of one stack frame's location, or undefined for frames passed over (runtime hooks, builtins). */
function frameKind(location: string): CallerKind | undefined {
  if (RUNTIME.test(location) || location === 'native' || location === '<anonymous>' || location.startsWith('node:')) return undefined;
  if (location.startsWith(OWN)) return 'browser';
  if (location.startsWith(ENVIRONMENT)) return 'library';
  return 'snippet';
}

/**
 * Who called `member` (a function of this environment, on the stack): 'unknown' when the stack
 * cannot be read (the snippet changed how stacks are written), so nothing is created on its word.
 */
export function callerOf(member: (...args: never[]) => unknown): CallerKind {
  const holder: { stack?: unknown } = {};
  const limit = ErrorCtor.stackTraceLimit;
  const prepare = ErrorCtor.prepareStackTrace;
  try {
    ErrorCtor.stackTraceLimit = 12;
    if (prepare !== undefined) ErrorCtor.prepareStackTrace = undefined;
    captureStackTrace(holder, member);
    const stack = holder.stack;
    if (typeof stack !== 'string') return 'unknown';
    for (const line of stack.split('\n').slice(1)) {
      const kind = frameKind(FRAME.exec(line)?.[1] ?? '');
      if (kind) return kind;
    }
    return 'unknown';
  } catch {
    return 'unknown';
  } finally {
    try {
      ErrorCtor.stackTraceLimit = limit;
      if (prepare !== undefined) ErrorCtor.prepareStackTrace = prepare;
    } catch {
      // a frozen Error: the snippet's own doing, and nothing here depends on it
    }
  }
}
