/** Where a JSON text goes wrong, and where its values start: what JSON.parse does not say. */
export interface JsonScan {
  /** The first syntax error: its offset and what was expected there. */
  readonly error?: { readonly offset: number; readonly message: string };
  /** The offset of each value down to `maxDepth`, by its path joined with `/` (`calls/3`; the root is ``). */
  readonly offsets: ReadonlyMap<string, number>;
}

const SPACE = /[ \t\n\r]*/y;
const HEX = /[0-9a-fA-F]/;
const DIGIT = /[0-9]/;

class SyntaxAt {
  readonly offset: number;
  readonly message: string;
  constructor(offset: number, message: string) {
    this.offset = offset;
    this.message = message;
  }
}

/**
 * Scans `text` as strict JSON (RFC 8259, as JSON.parse reads it), recording the offsets of the
 * values down to `maxDepth`. V8's JSON.parse names no position for most errors (`Unexpected token
 * ','`), and the project has no JSON parser that keeps positions, so this small scanner does.
 */
export function scanJson(text: string, maxDepth: number): JsonScan {
  const offsets = new Map<string, number>();
  let pos = 0;
  const space = (): void => {
    SPACE.lastIndex = pos;
    SPACE.exec(text);
    pos = SPACE.lastIndex;
  };
  const fail = (expected: string): never => {
    const at = text[pos];
    throw new SyntaxAt(pos, `expected ${expected}, found ${at === undefined ? 'the end of the file' : JSON.stringify(at)}`);
  };
  // Token readers go a character at a time, so a fault is placed where JSON.parse places it.
  const string = (): string => {
    const start = pos++;
    for (;;) {
      const ch = text[pos];
      if (ch === undefined) fail('a closing double quote');
      if (ch === '"') break;
      if (text.charCodeAt(pos) < 0x20) fail('a string without raw control characters');
      if (ch === '\\') {
        pos++;
        if (text[pos] === 'u') {
          for (let k = 1; k <= 4; k++) if (!HEX.test(text[pos + k] ?? '')) (pos += k, fail('four hex digits after \\u'));
          pos += 4;
        } else if (!'"\\/bfnrt'.includes(text[pos] ?? 'x')) fail('an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX');
      }
      pos++;
    }
    pos++;
    return text.slice(start, pos);
  };
  const digits = (): void => {
    if (!DIGIT.test(text[pos] ?? '')) fail('a digit');
    while (DIGIT.test(text[pos] ?? '')) pos++;
  };
  const number = (): void => {
    if (text[pos] === '-') pos++;
    if (text[pos] === '0') pos++;
    else digits();
    if (text[pos] === '.') (pos++, digits());
    if (text[pos] === 'e' || text[pos] === 'E') {
      pos++;
      if (text[pos] === '+' || text[pos] === '-') pos++;
      digits();
    }
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[pos] !== ch) fail(JSON.stringify(word));
      pos++;
    }
  };
  const value = (path: readonly (string | number)[] | undefined): void => {
    space();
    if (path !== undefined) offsets.set(path.join('/'), pos);
    const child = (key: string | number): (string | number)[] | undefined => (path !== undefined && path.length < maxDepth ? [...path, key] : undefined);
    const open = text[pos];
    if (open === '{') {
      pos++;
      space();
      if (text[pos] === '}') return void pos++;
      for (;;) {
        space();
        if (text[pos] !== '"') fail('a property name in double quotes');
        const key = string();
        space();
        if (text[pos] !== ':') fail("':'");
        pos++;
        value(child(JSON.parse(key) as string));
        space();
        if (text[pos] === '}') return void pos++;
        if (text[pos] !== ',') fail("',' or '}'");
        pos++;
      }
    }
    if (open === '[') {
      pos++;
      space();
      if (text[pos] === ']') return void pos++;
      for (let index = 0; ; index++) {
        value(child(index));
        space();
        if (text[pos] === ']') return void pos++;
        if (text[pos] !== ',') fail("',' or ']'");
        pos++;
      }
    }
    if (open === '"') return void string();
    if (open === 't') return literal('true');
    if (open === 'f') return literal('false');
    if (open === 'n') return literal('null');
    if (open === '-' || DIGIT.test(open ?? '')) return number();
    fail('a JSON value');
  };
  try {
    value(maxDepth >= 0 ? [] : undefined);
    space();
    if (pos < text.length) fail('the end of the file after the JSON value');
    return { offsets };
  } catch (error) {
    if (error instanceof SyntaxAt) return { error: { offset: error.offset, message: error.message }, offsets };
    // Nesting deep enough to exhaust the stack: the error's place is not known.
    if (error instanceof RangeError) return { offsets };
    throw error;
  }
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
