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
