import { readdirSync, readFileSync } from 'node:fs';
import type { ChatMessage } from '../../llm/chatTransport.ts';
import type { ElementKind, FailedAttempt, ValueRequest } from '../types.ts';
import { describeUsage } from './describeUsage.ts';

const PROMPTS = new URL('../../../prompts/', import.meta.url);
/** Longest snippet shown whole; longer ones are cut to a window around the failing line. */
const MAX_SHOWN_LINES = 300;
const MAX_DEFINITIONS_SHOWN = 12;

interface PromptFiles {
  readonly system: string;
  readonly assign: string;
  readonly fix: string;
  readonly classifier: string;
  /** Few-shot pairs: the request part of an example, and its code block as the reply. */
  readonly examples: readonly (readonly [user: string, assistant: string])[];
}

let files: PromptFiles | undefined;

/** Reads prompts/ once; the files are the prompts, so editing them changes what is sent. */
export function promptFiles(): PromptFiles {
  if (files) return files;
  const read = (name: string) => readFileSync(new URL(name, PROMPTS), 'utf8').trim();
  const examples = readdirSync(new URL('examples/', PROMPTS))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => {
      const text = read(`examples/${f}`);
      const start = text.lastIndexOf('```js');
      return [text.slice(0, start).trim(), text.slice(start).trim()] as const;
    });
  files = { system: read('value-system.md'), assign: read('assign.md'), fix: read('fix.md'), classifier: read('classifier.md'), examples };
  return files;
}

const KIND_TEXT: Record<ElementKind, string> = {
  global: 'a free variable the snippet uses but never declares',
  receiver: 'the object `this` refers to at the top level of the snippet',
  member: 'a property the snippet reads from a value defined earlier',
  return: 'the value a call returns',
  module: 'what require()/import gives for this module',
  part: 'a part of another definition',
  callee: 'a value the snippet calls, so it must be a function',
  constructor: 'a value the snippet uses with new, so it must be a class or constructor',
  iterable: 'a value the snippet iterates, so it must be iterable',
  destructure: 'a value the snippet destructures with an array pattern, so it must be iterable',
  argument: 'an argument to a function the snippet declares but never calls; snipexec calls it',
  environment: 'a value a modelled platform API gives the snippet (a response body, a request parameter), shaped by how the snippet uses it',
};

/** A fence longer than any backtick run inside, so the snippet cannot close it (CommonMark). */
export function fenced(code: string, lang = 'js'): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${code.replace(/\n+$/, '')}\n${fence}`;
}

/** The snippet with line numbers, the failing line marked `>>`; a long one around that line only. */
export function numberedSnippet(snippet: string, line: number): string {
  const lines = snippet.replace(/\n+$/, '').split('\n');
  let from = 0;
  let to = lines.length;
  if (lines.length > MAX_SHOWN_LINES) {
    const centre = Math.min(Math.max(line - 1, 0), lines.length - 1);
    from = Math.max(0, centre - MAX_SHOWN_LINES / 2);
    to = Math.min(lines.length, from + MAX_SHOWN_LINES);
  }
  const width = String(to).length;
  const out = lines.slice(from, to).map((text, i) => `${from + i + 1 === line ? '>>' : '  '} ${String(from + i + 1).padStart(width)} | ${text}`);
  if (from > 0) out.unshift(`   (${from} lines above not shown)`);
  if (to < lines.length) out.push(`   (${lines.length - to} lines below not shown)`);
  return out.join('\n');
}

function fill(template: string, values: Record<string, string>): string {
  // One pass: text put in (the snippet, an error) is never scanned for placeholders again.
  return template.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m).replace(/\n{3,}/g, '\n\n');
}

function common(request: ValueRequest): Record<string, string> {
  const definitions = request.definitions().filter((d) => d.element !== request.element).slice(-MAX_DEFINITIONS_SHOWN);
  return {
    element: request.element,
    kind: `${request.kind}: ${KIND_TEXT[request.kind]}`,
    code: fenced(numberedSnippet(request.snippet, request.line), 'js'),
    trace: describeUsage(request.element, request.traces, request.usage),
    defined: definitions.length === 0 ? '' : `Definitions snipexec already made for this snippet:\n${fenced(definitions.map((d) => `${d.source} // ${d.element}`).join('\n'))}`,
  };
}

function framing(): ChatMessage[] {
  const p = promptFiles();
  const shots = p.examples.flatMap(([user, assistant]): ChatMessage[] => [{ role: 'user', content: user }, { role: 'assistant', content: assistant }]);
  return [{ role: 'system', content: p.system }, ...shots];
}

/** The first request for an element: the assign template after the system prompt and the examples. */
export function assignMessages(request: ValueRequest): ChatMessage[] {
  return [...framing(), { role: 'user', content: fill(promptFiles().assign, { ...common(request), error: request.message }) }];
}

/** A retry: the fix template with the failed definition, its error, and the earlier failures in brief. */
export function fixMessages(request: ValueRequest, failures: readonly FailedAttempt[]): ChatMessage[] {
  const last = failures[failures.length - 1];
  const earlier = failures.slice(0, -1);
  const values = {
    ...common(request),
    previous: fenced(last?.source ?? ''),
    error: last?.error ?? request.message,
    earlier: earlier.length === 0 ? '' : `Earlier definitions that failed too:\n${earlier.map((f) => `- \`${oneLine(f.source)}\`: ${oneLine(f.error)}`).join('\n')}`,
  };
  return [...framing(), { role: 'user', content: fill(promptFiles().fix, values) }];
}

/** The type classifier's one message. */
export function classifierMessages(request: ValueRequest): ChatMessage[] {
  return [{ role: 'user', content: fill(promptFiles().classifier, { ...common(request), error: request.message }) }];
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}
