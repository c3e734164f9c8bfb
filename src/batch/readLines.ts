import { createReadStream } from 'node:fs';

/** One line of a JSONL file, without its `\n` (and without a `\r` before it). */
export interface JsonlLine {
  readonly text: string;
  /** 1-based line number. */
  readonly number: number;
  /** Byte offset just past this line's `\n`; undefined for a last line that has none (cut off). */
  readonly end: number | undefined;
}

const NEWLINE = 0x0a;

/**
 * Streams the lines of a file or stream, split on `\n` only. JSON.stringify leaves U+2028 and
 * U+2029 unescaped inside strings, so a reader that also breaks lines there (as node:readline
 * does) would cut valid JSONL rows in two. Splitting bytes at 0x0A is safe in UTF-8, which never
 * uses that byte inside a character. A byte order mark at the start is skipped.
 */
export async function* readJsonlLines(source: string | NodeJS.ReadableStream): AsyncGenerator<JsonlLine> {
  const input = typeof source === 'string' ? createReadStream(source) : source;
  let pending: Buffer[] = [];
  let offset = 0;
  let number = 0;
  const decode = (parts: Buffer[]) => {
    let text = Buffer.concat(parts).toString('utf8');
    // A UTF-8 byte order mark (editors on Windows write one) is no part of the first row.
    if (number === 0 && text.startsWith('\uFEFF')) text = text.slice(1);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    let start = 0;
    for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, start)) {
      pending.push(bytes.subarray(start, i));
      offset += i + 1 - start;
      yield { text: decode(pending), number: ++number, end: offset };
      pending = [];
      start = i + 1;
    }
    if (start < bytes.length) {
      pending.push(bytes.subarray(start));
      offset += bytes.length - start;
    }
  }
  if (pending.length > 0) yield { text: decode(pending), number: ++number, end: undefined };
}
