/**
 * The snippet's lines as Babel and V8 number them: JavaScript's own line terminators, so a raw
 * U+2028 in a string starts a line. A last empty line (the file's final newline) is dropped.
 */
export function sourceLines(code: string): string[] {
  const lines = code.split(/\r\n|[\n\r\u2028\u2029]/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
