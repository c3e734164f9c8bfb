import { failureMessage } from '../protocol/elementIds.ts';
/**
 * A JavaScript string literal for any string: JSON's escapes (quotes, backslashes, control
 * characters, lone surrogates), plus U+2028 and U+2029, which `JSON.stringify` leaves raw and
 * which end a `//` comment or a line of generated source.
 */
export function jsString(s: string): string {
  return JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/** Text for a `//` comment of generated source: every line terminator escaped, so the comment ends where it should. */
export function commentText(s: string): string {
  return s.replace(/[\n\r\u2028\u2029]/g, (c) => jsString(c).slice(1, -1));
}

/**
 * The source of the error an injected value fails with in an exploration scenario (the runtime's
 * injectedFailure). Its stack names no frame, as an injected error's: it was raised nowhere, and
 * frames would name the sandbox or the program's file, so Node and the sandbox print it alike.
 */
export function failureSource(id: string): string {
  const message = failureMessage(id);
  return `Object.assign(new Error(${jsString(message)}), { stack: ${jsString(`Error: ${message}`)} })`;
}
