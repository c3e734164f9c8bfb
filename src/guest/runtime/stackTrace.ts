/**
 * Stack traces as Node prints them for the original code. V8 formats an error's `stack` through
 * Error.prepareStackTrace when it is a function; the runtime's:
 * - leaves out the runtime's own frames (its hooks, `invoke`, the bridge): they are no part of
 *   the snippet's program;
 * - prints a frame of the snippet's instrumented script at the original code's line and column
 *   (the host's position table, src/instrument/stackPositions.ts), in the snippet's file
 *   (SNIPPET_PATH), and its top level as Node names a CommonJS module's, `Object.<anonymous>`;
 *   a frame of the code wrapped around the snippet, which has no original position, is left out;
 * - leaves the frames of environments and injected definitions as V8 prints them.
 * The snippet may set Error.prepareStackTrace itself, as in Node; its function then formats.
 */
import { SNIPPET_MAIN_LINE, SNIPPET_PATH, SNIPPET_SCRIPT } from '../../protocol/snippetFile.ts';
import { RUNTIME_FILENAME } from '../../protocol/runtime.ts';
import type { Dyn } from './primordials.ts';
import { apply, defineProperty, ErrorCtor, getPrototypeOf, strIndexOf, strSlice, WM, wmGet, wmSet } from './primordials.ts';
import { rec } from './ownData.ts';

interface CallSiteMethods {
  readonly fileName: () => unknown;
  readonly line: () => unknown;
  readonly column: () => unknown;
  readonly enclosingLine: (() => unknown) | undefined;
  readonly functionName: () => unknown;
  readonly text: () => string;
}

const errorToString = ErrorCtor.prototype.toString;
/** The CallSite methods, captured from a CallSite V8 hands a prepareStackTrace before any snippet code runs. */
const callSite: CallSiteMethods | undefined = captureCallSite();
/** [generated line, generated column, original line, original column] quadruples, by generated position. */
let positions: readonly number[] = [];

function captureCallSite(): CallSiteMethods | undefined {
  const E = ErrorCtor as Dyn;
  const before = E.prepareStackTrace;
  try {
    E.prepareStackTrace = (_: unknown, sites: unknown) => sites;
    const sites = new ErrorCtor().stack as unknown as object[];
    const proto = sites.length > 0 ? (getPrototypeOf(sites[0]) as Dyn) : undefined;
    if (proto === undefined) return undefined;
    return rec({
      fileName: proto.getFileName,
      line: proto.getLineNumber,
      column: proto.getColumnNumber,
      enclosingLine: typeof proto.getEnclosingLineNumber === 'function' ? proto.getEnclosingLineNumber : undefined,
      functionName: proto.getFunctionName,
      text: proto.toString,
    });
  } catch {
    return undefined;
  } finally {
    E.prepareStackTrace = before;
  }
}

/** Installs the formatter, with the run's position table (RuntimeConfig.positions). */
export function installStackTrace(table: readonly number[]): void {
  positions = table;
  if (callSite === undefined) return;
  defineProperty(ErrorCtor, 'prepareStackTrace', rec({ value: prepareStackTrace, writable: true, configurable: true, enumerable: false }));
}

/** The original [line, column] of a generated position: the last segment at or before it on its line, else the line's first; undefined for a line with none. */
function originalPosition(line: number, column: number): readonly [number, number] | undefined {
  // binary search for the first quadruple of a later line or of this line past the column
  let lo = 0;
  let hi = positions.length / 4;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const l = positions[mid * 4];
    if (l < line || (l === line && positions[mid * 4 + 1] <= column)) lo = mid + 1;
    else hi = mid;
  }
  let at = lo - 1;
  if (at < 0 || positions[at * 4] !== line) {
    at = lo; // none at or before the column: the line's first segment
    if (at * 4 >= positions.length || positions[at * 4] !== line) return undefined;
  }
  return [positions[at * 4 + 2], positions[at * 4 + 3]];
}

function header(error: unknown): string {
  try {
    return apply(errorToString, error, []) as string;
  } catch {
    return '<error>';
  }
}

function frameText(site: unknown): string | undefined {
  const m = callSite as CallSiteMethods;
  const file = apply(m.fileName, site, []);
  const text = apply(m.text, site, []);
  if (file === RUNTIME_FILENAME || apply(strIndexOf, text, ['<isolated-vm>']) >= 0) return undefined;
  if (file !== SNIPPET_SCRIPT) return text;
  const line = apply(m.line, site, []) as number;
  const column = apply(m.column, site, []) as number;
  const original = originalPosition(line, column);
  if (original === undefined) return undefined;
  const location = `${SNIPPET_PATH}:${original[0]}:${original[1]}`;
  const topLevel = m.enclosingLine !== undefined && apply(m.enclosingLine, site, []) === SNIPPET_MAIN_LINE;
  if (topLevel) return `Object.<anonymous> (${location})`;
  const generated = `${SNIPPET_SCRIPT}:${line}:${column}`;
  const i = apply(strIndexOf, text, [generated]);
  return i < 0 ? text : apply(strSlice, text, [0, i]) + location + apply(strSlice, text, [i + generated.length]);
}

/** Error -> the script its first frame (as V8 saw it, the runtime's included) is in: where it was raised. */
const raisedIn: WeakMap<object, string> = new WM();
/** Error -> the original [line, column] of its first frame, when that frame is in the snippet's script. */
const raisedAt: WeakMap<object, readonly [number, number]> = new WM();

/**
 * Where in the original code V8 raised an error (its first frame, in the snippet's script), once
 * its stack has been formatted here; undefined when it was raised elsewhere (a hook, an environment).
 */
export function raisedAtPosition(e: object): readonly [number, number] | undefined {
  return wmGet(raisedAt, e);
}

/**
 * The script an error was raised in (its first frame as V8 saw it, before the runtime's own
 * frames were left out), once its stack has been formatted here; undefined otherwise.
 */
export function raisedInScript(e: object): string | undefined {
  return wmGet(raisedIn, e);
}

function prepareStackTrace(error: unknown, sites: readonly unknown[]): string {
  if (((typeof error === 'object' && error !== null) || typeof error === 'function') && sites.length > 0) {
    try {
      const m = callSite as CallSiteMethods;
      const file = apply(m.fileName, sites[0], []);
      wmSet(raisedIn, error, typeof file === 'string' ? file : '');
      if (file === SNIPPET_SCRIPT) {
        const original = originalPosition(apply(m.line, sites[0], []) as number, apply(m.column, sites[0], []) as number);
        if (original !== undefined) wmSet(raisedAt, error, original);
      }
    } catch {}
  }
  let out = header(error);
  for (let i = 0; i < sites.length; i++) {
    let text: string | undefined;
    try {
      text = frameText(sites[i]);
    } catch {
      text = undefined;
    }
    if (text !== undefined) out += `\n    at ${text}`;
  }
  return out;
}
