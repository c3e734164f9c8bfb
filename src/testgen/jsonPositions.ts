/** Where a JSON text goes wrong, and where its values start: what JSON.parse does not say. */
export interface JsonScan {
  /** The first syntax error: its offset and what was expected there. */
  readonly error?: { readonly offset: number; readonly message: string };
  /** The offset of each value down to `maxDepth`, by its path joined with `/` (`calls/3`; the root is ``). */
  readonly offsets: ReadonlyMap<string, number>;
}

const SPACE = /[ \t\n\r]*/y;
const STRING = /"(?:[^"\\\u0000-\u001f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;

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
  const take = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = pos;
    const found = pattern.exec(text)?.[0];
    if (found !== undefined) pos = pattern.lastIndex;
    return found;
  };
  const fail = (expected: string): never => {
    const at = text[pos];
    throw new SyntaxAt(pos, `expected ${expected}, found ${at === undefined ? 'the end of the file' : JSON.stringify(at)}`);
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
        const key = take(STRING) ?? fail('a property name in double quotes');
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
    if (open === '"') {
      if (take(STRING) === undefined) fail('a string without raw control characters or bad escapes');
      return;
    }
    if (take(NUMBER) === undefined && take(LITERAL) === undefined) fail('a JSON value');
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
