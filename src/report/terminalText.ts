/**
 * Text from a snippet, a model or a dataset, made safe for a terminal. A terminal obeys the control
 * codes in what it prints: ESC sequences clear the screen, set the window title, write the clipboard
 * (OSC 52) or move the cursor; C1 controls (U+0080–U+009F) do the same on many; a lone CR rewrites
 * the line; bidirectional overrides reorder what is shown (Trojan Source). Each such character is
 * shown as an escape instead (`\x1b`, `\u202e`), so the only control codes snipexec prints are its
 * own colours (paint.ts), added after this.
 */

// C0 controls but TAB and LF, DEL, C1 controls, and the bidi embeddings, overrides, isolates and marks.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_ONE_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character a terminal would obey shown as an escape; line feeds and tabs kept. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** `text` on one line: a line feed is shown as `\x0a` too (an id, a file name, a message on one line). */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_ONE_LINE, escapeOne);
}

// Characters JSON.stringify leaves raw that a terminal obeys or a JavaScript parser reads as a line end.
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with no character a terminal obeys: JSON.stringify escapes C0 (ESC is `\u001b`), and
 * this escapes DEL, C1, U+2028/U+2029 and the bidi controls as `\uXXXX`, which JSON.parse reads back
 * as the same string. They can occur only inside strings, so the replacement is always valid JSON.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(JSON_RAW, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
