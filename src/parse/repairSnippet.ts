/**
 * Repairs for the damage typical of pasted code. No repair moves a line: each keeps the number
 * of lines, and changes text only within a line or appends at the end of the last one, so a
 * repaired snippet is measured on its original lines; only columns may move.
 */
export interface Repair {
  readonly name: string;
  apply(code: string): string;
}

/** Spaces for every character but newlines, so a placeholder spanning lines keeps them. */
const blank = (s: string): string => s.replace(/[^\n]/g, ' ');

const CURLY: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201C': '"', '\u201D': '"', '\u00AB': '"', '\u00BB': '"' };

export const REPAIRS: readonly Repair[] = [
  { name: 'curly-quotes', apply: (code) => code.replace(/[\u2018\u2019\u201C\u201D\u00AB\u00BB]/g, (c) => CURLY[c] ?? c) },
  {
    name: 'line-numbers',
    apply: (code) => {
      const lines = code.split('\n');
      const numbered = lines.filter((l) => /^\s*\d+\s*[.:|)]?\s/.test(l) || /^\s*\d+\s*$/.test(l)).length;
      const nonEmpty = lines.filter((l) => l.trim() !== '').length;
      if (numbered < Math.max(2, nonEmpty * 0.6)) return code;
      return lines.map((l) => l.replace(/^\s*\d+\s*[.:|)]?(\s|$)/, '')).join('\n');
    },
  },
  {
    name: 'prompt-prefixes',
    apply: (code) =>
      code
        .split('\n')
        .map((l) => l.replace(/^\s*(?:>|\$|\.\.\.)\s(?=\s*[\w'"`({[\/.])/, ''))
        .join('\n'),
  },
  {
    name: 'placeholders',
    apply: (code) =>
      code
        .replace(/\{\s*\.{3,}\s*\}/g, (m) => '{' + blank(m.slice(1, -1)) + '}')
        .replace(/\[\s*\.{3,}\s*\]/g, (m) => '[' + blank(m.slice(1, -1)) + ']')
        .replace(/\(\s*\.{3,}\s*\)/g, (m) => '(' + blank(m.slice(1, -1)) + ')')
        .replace(/,\s*\.{3,}(?=\s*[)\]}])/g, blank)
        .replace(/\.{3,}(?![\w$\[({'"`])/g, blank)
        .replace(/\u2026/g, ' '),
  },
  { name: 'close-brackets', apply: closeBrackets },
  // `{ "a": 1 }` alone is a block: parenthesised, it is the object. The `)` goes right after the
  // last `}`, so a trailing comment cannot swallow it and no line is added.
  { name: 'bare-object', apply: (code) => (/^\s*\{/.test(code) && code.includes('}') ? `(${code.slice(0, code.lastIndexOf('}') + 1)})${code.slice(code.lastIndexOf('}') + 1)}` : code) },
];

/** Appends the closers of brackets left open by a truncated snippet, skipping strings and comments. */
export function closeBrackets(code: string): string {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    const next = code[i + 1];
    if (c === '/' && next === '/') {
      const end = code.indexOf('\n', i);
      i = end === -1 ? code.length : end;
    } else if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end === -1 ? code.length : end + 2;
    } else if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < code.length && code[i] !== c && !(c !== '`' && code[i] === '\n')) i += code[i] === '\\' ? 2 : 1;
      i++;
    } else {
      if (c !== undefined && c in pairs) stack.push(pairs[c] as string);
      else if (c === ')' || c === ']' || c === '}') {
        if (stack[stack.length - 1] === c) stack.pop();
        else return code;
      }
      i++;
    }
  }
  return stack.length === 0 ? code : code + stack.reverse().join('');
}
