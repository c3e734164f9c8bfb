import { parse } from '@babel/parser';
import type * as t from '@babel/types';
import { stripTypes } from '../../parse/stripTypes.ts';

/** A piece of a reply that may be code: a fenced block in a JavaScript-like language, or unfenced text that parses. */
export interface CodeBlock {
  /** The code as the model wrote it. */
  readonly code: string;
  /** The fence's language tag, lower case (`''` when none, or unfenced). */
  readonly lang: string;
  readonly fenced: boolean;
}

/** What a reply holds, once its reasoning (`<think>…</think>`) is set aside. */
export interface ReplyCode {
  /** Fenced blocks in a JavaScript-like language, in reply order. */
  readonly blocks: readonly CodeBlock[];
  /** The reply without reasoning and fenced blocks: where unfenced code may be. */
  readonly rest: string;
  /** Whether the reply had a reasoning section. */
  readonly reasoned: boolean;
}

/** Fence tags taken as code; other tags (sh, text, html, python, output) are not the definition. */
const CODE_LANGS = new Set(['', 'js', 'javascript', 'jsx', 'mjs', 'cjs', 'es6', 'node', 'nodejs', 'ts', 'typescript', 'tsx', 'mts', 'cts', 'json', 'json5', 'jsonc']);
const REASONING = ['think', 'thinking', 'reasoning'];
/** Unfenced text longer than this is not searched for code. */
const MAX_UNFENCED_CHARS = 40_000;
/** Lines of unfenced text where code may start, and parses spent looking for it. */
const MAX_STARTS = 40;
const MAX_PARSES = 120;
/** Top-level return and await parse, so the checks after can reject them with a reason. */
const PARSE_OPTIONS = { sourceType: 'module', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, errorRecovery: false } as const;

/** The reply's code blocks and the text around them; reasoning sections, and any code in them, are dropped. */
export function replyCode(reply: string): ReplyCode {
  const { text, reasoned } = withoutReasoning(reply);
  const lines = text.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  const rest: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = /^([ \t]*)(`{3,}|~{3,})[ \t]*(.*)$/.exec(line);
    // A backtick fence's info string has no backtick (CommonMark): ```x``` on one line is inline code.
    if (!open || (open[2]?.startsWith('`') && open[3]?.includes('`'))) {
      rest.push(line);
      continue;
    }
    const indent = open[1]?.length ?? 0;
    const fence = open[2] ?? '```';
    const close = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j] ?? '')) j++;
    // A fence left open runs to the end: the reply was cut off (max_tokens).
    const body = lines.slice(i + 1, j).map((l) => dedent(l, indent));
    const lang = (open[3] ?? '').trim().split(/[\s:{,]/)[0]?.toLowerCase() ?? '';
    if (CODE_LANGS.has(lang)) blocks.push({ code: body.join('\n').replace(/\s+$/, ''), lang, fenced: true });
    rest.push('');
    i = j;
  }
  return { blocks, rest: rest.join('\n'), reasoned };
}

/**
 * The pieces of text without fences that parse as code, first the longest: from each of the first
 * lines, what is left once the lines a parse fails on are cut off the end (prose after the code).
 * Prose ("Sure, here it is") does not parse, so a reply that is only prose gives none.
 */
export function unfencedCode(text: string): string[] {
  if (text.length > MAX_UNFENCED_CHARS) return [];
  const lines = text.split(/\r?\n/);
  const found: string[] = [];
  let parses = 0;
  for (let from = 0; from < Math.min(lines.length, MAX_STARTS) && parses < MAX_PARSES; from++) {
    if ((lines[from] ?? '').trim() === '') continue;
    for (let to = lines.length; to > from && parses < MAX_PARSES; ) {
      const code = lines.slice(from, to).join('\n').trim();
      if (code === '') break;
      parses++;
      const line = failsAt(code);
      if (line === undefined) {
        found.push(code);
        // A later start inside this piece would find a part of it: look on after it.
        from = to - 1;
        break;
      }
      if (line <= 1) break;
      to = from + line - 1;
    }
  }
  return found;
}

/** Parses a block as JavaScript (with JSX), else TypeScript (types erased); a TypeScript tag tries TypeScript first. Throws the first parser's error. */
export function parseCode(code: string, lang: string): t.File {
  const typed = ['ts', 'typescript', 'tsx', 'mts', 'cts'].includes(lang);
  const variants: ('js' | 'ts' | 'tsx')[] = typed ? ['ts', 'tsx', 'js'] : ['js', 'ts', 'tsx'];
  let first: unknown;
  for (const v of variants) {
    try {
      const ast = parse(code, { ...PARSE_OPTIONS, plugins: v === 'js' ? ['jsx'] : v === 'ts' ? ['typescript'] : ['typescript', 'jsx'] });
      if (v !== 'js') stripTypes(ast);
      return ast;
    } catch (error) {
      first ??= error;
    }
  }
  throw first;
}

/** The line a parse of unfenced text fails on, the farthest any parser got: undefined when it parses. */
function failsAt(code: string): number | undefined {
  let farthest = 0;
  for (const plugins of [['jsx'], ['typescript']] as const) {
    try {
      parse(code, { ...PARSE_OPTIONS, plugins: [...plugins] });
      return undefined;
    } catch (error) {
      const line = (error as { loc?: { line?: number } }).loc?.line ?? 1;
      farthest = Math.max(farthest, line);
    }
  }
  return farthest;
}

/**
 * The reply without its reasoning: closed `<think>` sections go; a closing tag with no opening one
 * (a server that strips the opening tag) drops all before it; an unclosed one (the reply was cut
 * off while reasoning) drops all after it.
 */
function withoutReasoning(reply: string): { text: string; reasoned: boolean } {
  let text = reply;
  let reasoned = false;
  for (const tag of REASONING) {
    const closed = new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, 'gi');
    if (closed.test(text)) reasoned = true;
    text = text.replace(closed, '');
    const orphanClose = text.toLowerCase().lastIndexOf(`</${tag}>`);
    if (orphanClose >= 0) {
      reasoned = true;
      text = text.slice(orphanClose + tag.length + 3);
    }
    const unclosed = text.toLowerCase().indexOf(`<${tag}>`);
    if (unclosed >= 0) {
      reasoned = true;
      text = text.slice(0, unclosed);
    }
  }
  return { text, reasoned };
}

function dedent(line: string, indent: number): string {
  let i = 0;
  while (i < indent && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(i);
}
