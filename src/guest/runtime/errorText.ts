/**
 * Error texts as the original code would have them: the message V8 gives a hook site's operation,
 * a message or stack that names a hook call put back to the original expression, and where an
 * error was raised (its first stack frame's script).
 */
import { RUNTIME_FILENAME } from '../../protocol/runtime.ts';
import { SNIPPET_SCRIPT } from '../../protocol/snippetFile.ts';
import { raisedInScript } from './stackTrace.ts';
import { exec, replaceFirst, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, strIndexOf, strSlice } from './primordials.ts';
import { config } from './run.ts';

/** The first stack frame of an error ('' when it has none): where it was raised. */
function firstFrame(e: Dyn): string {
  try {
    const stack = str(e.stack);
    const at = apply(strIndexOf, stack, ['\n    at ']);
    if (at < 0) return '';
    const end = apply(strIndexOf, stack, ['\n', at + 1]);
    return apply(strSlice, stack, [at, end < 0 ? stack.length : end]);
  } catch {
    return '';
  }
}
/**
 * The script an error was raised in: its first stack frame's, as V8 saw it (stackTrace.ts, which
 * prints the stack without the runtime's frames, remembers it), else as its stack text shows it.
 */
function raisedWhere(e: unknown): string {
  const frame = firstFrame(e); // reading the stack formats it
  const file = typeof e === 'object' && e !== null ? raisedInScript(e) : undefined;
  return file !== undefined ? file : frame;
}
/** Whether V8 raised the error in the snippet's own code (its first stack frame), not in a function it called. */
export function raisedBySnippet(e: unknown): boolean {
  return apply(strIndexOf, raisedWhere(e), [SNIPPET_SCRIPT]) >= 0;
}
/** Whether the error was raised in an environment's code (its first stack frame is in a `snipexec:env:` script). */
export function raisedByEnvironment(e: unknown): boolean {
  return typeof e === 'object' && e !== null && apply(strIndexOf, raisedWhere(e), ['snipexec:env:']) >= 0;
}
/** The message V8 gives the operation of a site for the value v; %d is how V8 names a value it cannot point at. */
export function siteMessage(sid: number, v: unknown): string {
  const pair = config.messages[sid];
  if (pair === undefined) return `${config.sites[sid]} is not valid`;
  const m = v === null || v === undefined ? pair[0] : pair[1];
  return replaceFirst(replaceFirst(m, '%d', defaultCallSite(v)), '%v', str(v));
}
function defaultCallSite(v: unknown): string {
  if (typeof v === 'string') return `string "${v}"`;
  if (v === null) return 'object null';
  if (v === true || v === false || typeof v === 'number') return `${typeof v} ${str(v)}`;
  return typeof v;
}
const HOOK_METHOD = /^\.[A-Za-z_$][\w$]*(\(\.\.\.\))?/;
/**
 * Last line of defence: a message V8 wrote while running the instrumented code names a hook call
 * (`__snx_….ds(...)`); it is put back as V8 names the original expression of the site.
 */
function originalMessage(message: unknown, sid: number): unknown {
  if (typeof message !== 'string' || apply(strIndexOf, message, [config.hook]) < 0) return message;
  const text = sid >= 0 && sid < config.sites.length ? config.sites[sid] : '(intermediate value)';
  let out = '';
  let rest = message;
  for (let i = apply(strIndexOf, rest, [config.hook]); i >= 0; i = apply(strIndexOf, rest, [config.hook])) {
    let end = i + config.hook.length;
    const m = exec(HOOK_METHOD, apply(strSlice, rest, [end]));
    if (m) end += m[0].length;
    out += apply(strSlice, rest, [0, i]) + text;
    rest = apply(strSlice, rest, [end]);
  }
  return out + rest;
}
/** Puts an error's message (and the first line of its stack) back to the original code's. */
export function restoreMessage(e: Dyn, sid: number): void {
  try {
    const before = e.message;
    const after = originalMessage(before, sid);
    const stack = e.stack;
    if (typeof stack !== 'string') {
      if (after !== before) e.message = after;
      return;
    }
    let clean = withoutRuntimeFrames(stack);
    if (after !== before) {
      e.message = after;
      clean = replaceFirst(clean, before, after as string);
    }
    if (clean !== stack) e.stack = clean;
  } catch {}
}
/** Whether a stack line is a frame of the runtime's script (or of code it evaluated). */
function isRuntimeFrame(line: string): boolean {
  return apply(strIndexOf, line, ['\n    at ']) === 0 && (apply(strIndexOf, line, [RUNTIME_FILENAME]) >= 0 || apply(strIndexOf, line, ['<isolated-vm>']) >= 0);
}
/** A stack without the runtime's own frames (hooks, invoke): they are no part of the snippet's. */
function withoutRuntimeFrames(stack: string): string {
  let out = '';
  let from = 0;
  while (from < stack.length) {
    let end = apply(strIndexOf, stack, ['\n', from + 1]);
    if (end < 0) end = stack.length;
    const line = apply(strSlice, stack, [from, end]);
    if (!isRuntimeFrame(line)) out += line;
    from = end;
  }
  return out;
}
