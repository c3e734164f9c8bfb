import { InvalidOptions } from '../core/errors.ts';
import { scanJson } from '../core/jsonPositions.ts';

/** Parses a JSON file's text; one that does not parse is an InvalidOptions naming the file, the line and the column of the fault. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const offset = jsonFaultOffset(text);
    const { line, column } = lineColumn(text, offset);
    // V8's message without its own position or its quote of the text: the position is given once, as file:line:column.
    const reason = (error as Error).message.replace(/,? ?(\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '').replace(/ at position \d+( \(line \d+ column \d+\))?/, '');
    throw new InvalidOptions(`${file}:${line}:${column}: not valid JSON: ${reason}`);
  }
}

/** 1-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** Where JSON.parse gives up: the offset of the first character that cannot continue a JSON text (the end when it stops short). */
export function jsonFaultOffset(text: string): number {
  return scanJson(text, -1).error?.offset ?? text.length;
}
