import { InvalidOptions } from '../core/errors.ts';

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
  let i = 0;
  const fault = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) (i--, fault());
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const ch = text.charCodeAt(i);
      if (ch < 0x20) fault();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) (i += k, fault());
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x') || i >= text.length) fault();
      }
      i++;
    }
    if (i >= text.length) fault();
    i++;
  };
  const digits = () => {
    if (!/[0-9]/.test(text[i] ?? '')) fault();
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') (i++, digits());
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fault();
        string();
        space();
        if (text[i] !== ':') fault();
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fault();
      }
    }
    if (ch === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fault();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || /[0-9]/.test(ch ?? '')) return number();
    fault();
  };
  try {
    value();
    space();
    return i < text.length ? i : text.length;
  } catch (offset) {
    return Math.min(offset as number, text.length);
  }
}
