/**
 * GitHub code scanning's `primaryLocationLineHash` of every line of a text, as its upload action
 * computes it from the checked-out file when a SARIF result has none, so that the value we write
 * is the one it would compute: index i holds line i + 1's `hash:n`.
 *
 * The hash of a line is a polynomial hash (base 37, modulo 2^64) of the 100 characters from the
 * line's start, counted with spaces and tabs left out, CR and CRLF read as LF, an end-of-file mark
 * (65535) after the text and zeros after that. It depends on the line and the ones after it, never
 * on the line's number; `n` counts the lines with the same hash so far, so equal lines differ.
 */
export function lineHashes(text: string): string[] {
  const chars: number[] = [];
  const starts: number[] = [];
  let lineStart = true;
  let afterCR = false;
  const push = (code: number) => {
    if (code === SPACE || code === TAB || (afterCR && code === LF)) {
      afterCR = false;
      return;
    }
    afterCR = code === CR;
    const c = code === CR ? LF : code;
    if (lineStart) starts.push(chars.length);
    lineStart = c === LF;
    chars.push(c);
  };
  for (let i = 0; i < text.length; i++) push(text.charCodeAt(i));
  push(END_OF_FILE);
  const seen = new Map<string, number>();
  return starts.map((start) => {
    let hash = 0n;
    for (let i = start; i < start + WINDOW; i++) hash = BigInt.asUintN(64, hash * BASE + BigInt(chars[i] ?? 0));
    const hex = hash.toString(16);
    const n = (seen.get(hex) ?? 0) + 1;
    seen.set(hex, n);
    return `${hex}:${n}`;
  });
}

const WINDOW = 100;
const BASE = 37n;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const END_OF_FILE = 0xffff;
