import { readdirSync, readFileSync } from 'node:fs';
import type { ChatMessage } from '../../llm/chatTransport.ts';
import { countTokens } from '../../llm/countTokens.ts';
import type { FailedAttempt, ValueRequest } from '../types.ts';
import type { ElementKind } from '../../core/categories.ts';
import { describeUsage, recordedBlock } from './describeUsage.ts';
import { CLASSIFIER_BUDGET, clipToTokens, GENERATOR_BUDGET, linesAround, type PromptBudget } from './promptBudget.ts';

const PROMPTS = new URL('../../../prompts/', import.meta.url);
const MAX_DEFINITIONS_SHOWN = 12;

/** A few-shot example: the request it stands for, rendered with the assign template, and its reply. */
export interface PromptExample {
  readonly file: string;
  readonly element: string;
  readonly kind: ElementKind;
  readonly error: string;
  readonly line: number;
  readonly snippet: string;
  /** The recorded trace lines, as describeUsage prints them. */
  readonly trace: readonly string[];
  /** The reply: one fenced code block. */
  readonly reply: string;
}

interface PromptFiles {
  readonly system: string;
  readonly assign: string;
  readonly fix: string;
  readonly classifier: string;
  readonly examples: readonly PromptExample[];
}

let files: PromptFiles | undefined;

/** Reads prompts/ once; the files are the prompts, so editing them changes what is sent. */
export function promptFiles(): PromptFiles {
  if (files) return files;
  const read = (name: string) => readFileSync(new URL(name, PROMPTS), 'utf8').trim();
  const examples = readdirSync(new URL('examples/', PROMPTS))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => parseExample(f, read(`examples/${f}`)));
  files = { system: read('value-system.md'), assign: read('assign.md'), fix: read('fix.md'), classifier: read('classifier.md'), examples };
  return files;
}

/**
 * An example file: `Element:`, `Kind:`, `Error:` and `Line:` lines, the snippet as a ```js block,
 * the trace lines (`- \`id\`: …`), and the reply as the last ```js block.
 */
export function parseExample(file: string, text: string): PromptExample {
  const field = (name: string): string => {
    const value = new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1]?.trim();
    if (value === undefined) throw new Error(`prompts/examples/${file}: no "${name}:" line`);
    return value;
  };
  const blocks = [...text.matchAll(/^```js\n([\s\S]*?)\n```$/gm)];
  const snippet = blocks[0];
  const reply = blocks[blocks.length - 1];
  if (blocks.length !== 2 || !snippet || !reply) throw new Error(`prompts/examples/${file}: expected two \`\`\`js blocks, the snippet and the reply`);
  const kind = field('Kind');
  if (!(kind in KIND_TEXT)) throw new Error(`prompts/examples/${file}: unknown kind ${kind}`);
  const between = text.slice((snippet.index ?? 0) + snippet[0].length, reply.index);
  return {
    file,
    element: field('Element').replace(/^`|`$/g, ''),
    kind: kind as ElementKind,
    error: field('Error'),
    line: Number(field('Line')),
    snippet: snippet[1] ?? '',
    trace: between.split('\n').filter((l) => l.startsWith('- `')),
    reply: reply[0],
  };
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

/**
 * The snippet with line numbers, the failing line marked `>>`, in at most `budget` tokens: the
 * lines farthest from the failing line are cut first (see linesAround).
 */
export function numberedSnippet(snippet: string, line: number, budget = GENERATOR_BUDGET.snippet): string {
  const lines = snippet.replace(/\n+$/, '').split('\n');
  const width = String(lines.length).length;
  const numbered = lines.map((text, i) => `${i + 1 === line ? '>>' : '  '} ${String(i + 1).padStart(width)} | ${text}`);
  return linesAround(numbered, line - 1, budget).join('\n');
}

function fill(template: string, values: Record<string, string>): string {
  // One pass: text put in (the snippet, an error) is never scanned for placeholders again.
  return template.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m).replace(/\n{3,}/g, '\n\n');
}

interface Shown {
  readonly element: string;
  readonly kind: ElementKind;
  readonly error: string;
  readonly snippet: string;
  readonly line: number;
  /** The usage block, already within its budget. */
  readonly trace: string;
  readonly definitions: readonly { readonly element: string; readonly source: string }[];
}

/** The placeholders every template shares, each part cut to its budget. */
function values(shown: Shown, budget: PromptBudget): Record<string, string> {
  return {
    element: shown.element,
    kind: `${shown.kind}: ${KIND_TEXT[shown.kind]}`,
    error: clipToTokens(shown.error, budget.error),
    code: fenced(numberedSnippet(shown.snippet, shown.line, budget.snippet), 'js'),
    trace: shown.trace,
    defined: definitionsShown(shown.definitions, budget.defined),
  };
}

function fromRequest(request: ValueRequest, budget: PromptBudget): Shown {
  return {
    element: request.element, kind: request.kind, error: request.message, snippet: request.snippet, line: request.line,
    trace: describeUsage(request.element, request.traces, request.usage, budget.trace),
    definitions: budget.defined > 0 ? request.definitions().filter((d) => d.element !== request.element).slice(-MAX_DEFINITIONS_SHOWN) : [],
  };
}

/** The definitions already made, the most recent kept first, in `budget` tokens. */
function definitionsShown(definitions: readonly { readonly element: string; readonly source: string }[], budget: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const d of [...definitions].reverse()) {
    const text = `${clipToTokens(d.source, Math.floor(budget / 3))} // ${d.element}`;
    const n = countTokens(`${text}\n`);
    if (used + n > budget) break;
    used += n;
    kept.unshift(text);
  }
  if (kept.length === 0) return '';
  const cut = definitions.length - kept.length;
  return `Definitions snipexec already made for this snippet${cut > 0 ? ` (the ${cut} earliest not shown)` : ''}:\n${fenced(kept.join('\n'))}`;
}

/** An example's user turn: the assign template, filled exactly as for a real request. */
export function exampleRequest(example: PromptExample): string {
  const shown: Shown = { ...example, trace: example.trace.length > 0 ? recordedBlock(example.trace) : '', definitions: [] };
  return fill(promptFiles().assign, values(shown, GENERATOR_BUDGET));
}

/** The system prompt and the few-shot pairs, sent before every generator request. */
export function framing(): ChatMessage[] {
  const p = promptFiles();
  const shots = p.examples.flatMap((e): ChatMessage[] => [{ role: 'user', content: exampleRequest(e) }, { role: 'assistant', content: e.reply }]);
  return [{ role: 'system', content: p.system }, ...shots];
}

/** The first request for an element: the assign template after the system prompt and the examples. */
export function assignMessages(request: ValueRequest): ChatMessage[] {
  return [...framing(), { role: 'user', content: fill(promptFiles().assign, values(fromRequest(request, GENERATOR_BUDGET), GENERATOR_BUDGET)) }];
}

/** The code an attempt actually tried: the model's own code when the extractor kept it. */
function triedCode(f: FailedAttempt): string {
  return f.code ?? f.source;
}

/**
 * A retry: the fix template with the code that was tried (its last lines kept first, where the
 * element gets its value), its error, and the earlier failures in one line each.
 */
export function fixMessages(request: ValueRequest, failures: readonly FailedAttempt[]): ChatMessage[] {
  const budget = GENERATOR_BUDGET;
  const last = failures[failures.length - 1];
  const earlier = failures.slice(0, -1);
  const tried = (last ? triedCode(last) : '').replace(/\n+$/, '').split('\n');
  const filled = {
    ...values({ ...fromRequest(request, budget), error: last?.error ?? request.message }, budget),
    previous: fenced(linesAround(tried, tried.length - 1, budget.previous, '').join('\n')),
    earlier: earlier.length === 0 ? '' : `Earlier attempts that failed too:\n${earlier.map((f) => `- \`${oneLine(triedCode(f))}\`: ${oneLine(f.error)}`).join('\n')}`,
  };
  return [...framing(), { role: 'user', content: fill(promptFiles().fix, filled) }];
}

/** The type classifier's one message, within CLASSIFIER_BUDGET. */
export function classifierMessages(request: ValueRequest): ChatMessage[] {
  return [{ role: 'user', content: fill(promptFiles().classifier, values(fromRequest(request, CLASSIFIER_BUDGET), CLASSIFIER_BUDGET)) }];
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}
