import type { CallRecord, Snapshot } from '../record/callTrace.ts';
import type { LlmSession } from '../llm/llmSession.ts';

/** What the model is shown of one recorded function: never its source. */
export interface FunctionForInputs {
  /** `total`, `Cart.add`. */
  readonly qualname: string;
  readonly kind: CallRecord['kind'];
  /** The parameter names, as recorded (defaults and annotations are never part of them). */
  readonly params: readonly string[];
  /** Its recorded calls (arguments, receiver state, outcome), already redacted by the recorder. */
  readonly calls: readonly CallRecord[];
}

export interface ProposeOptions {
  /** At most this many inputs are asked for and kept. */
  readonly max?: number;
}

/** The most recorded calls shown to the model, and the longest any one of them may be once printed. */
const MAX_SHOWN_CALLS = 5;
const MAX_CALL_CHARS = 600;
/** A proposed input longer than this (as JSON) is dropped: tests should stay readable. */
const MAX_INPUT_CHARS = 2_000;

const SYSTEM = [
  'You propose test inputs for one JavaScript function.',
  'You see its signature and calls recorded from a real run of the program. You never see its source.',
  'Propose inputs that the recorded calls do not cover: edge cases, empty and boundary values, other types the function plausibly accepts.',
  'Reply with one JSON array only. Each element is the argument list of one call: an array with one JSON value per parameter, in order.',
  'Use only JSON values (no undefined, functions, dates or comments).',
].join('\n');

/** The signature as shown to the model: names only (`function total(items, pct)`, `Cart.prototype.add(item)`, `new Cart(owner)`). */
export function signatureOf(fn: Pick<FunctionForInputs, 'qualname' | 'kind' | 'params'>): string {
  const params = fn.params.join(', ');
  const dot = fn.qualname.lastIndexOf('.');
  if ((fn.kind === 'method' || fn.kind === 'getter' || fn.kind === 'setter') && dot > 0) return `${fn.qualname.slice(0, dot)}.prototype.${fn.qualname.slice(dot + 1)}(${params})`;
  if (fn.kind === 'static') return `${fn.qualname}(${params}) // static`;
  if (fn.kind === 'constructor' && dot > 0) return `new ${fn.qualname.slice(0, dot)}(${params})`;
  const prefix = fn.kind === 'async' ? 'async function' : fn.kind === 'generator' ? 'function*' : 'function';
  return `${prefix} ${fn.qualname}(${params})`;
}

/** A snapshot as the model reads it: the value for JSON, a short tag for the rest. */
function shown(s: Snapshot | undefined): unknown {
  if (!s) return undefined;
  if (s.serialization === 'json') return s.value;
  if (s.serialization === 'undefined') return '<undefined>';
  if (s.serialization === 'repr') return s.redacted ? '<redacted>' : '<unrepresentable>';
  return `<${s.serialization}${s.class ? ` ${s.class}` : ''}>`;
}

/** One recorded call, one line: `total([{"price":10}], 10) -> 9`, `parse("x") threw SyntaxError`. */
function callLine(fn: FunctionForInputs, call: CallRecord): string {
  const args = fn.params.map((p) => JSON.stringify(shown(call.args[p])) ?? 'undefined').join(', ');
  const receiver = call.this ? ` on ${JSON.stringify(shown(call.this))}` : '';
  const outcome = call.threw
    ? `threw ${call.exception?.name ?? 'an error'}`
    : `-> ${JSON.stringify(call.returnSerialization === 'json' ? call.returnValue : `<${call.returnSerialization ?? 'undefined'}>`)}`;
  const line = `${fn.qualname}(${args})${receiver} ${outcome}`;
  return line.length > MAX_CALL_CHARS ? `${line.slice(0, MAX_CALL_CHARS)}…` : line;
}

/** The prompt for one function: its signature and up to MAX_SHOWN_CALLS recorded calls. */
export function inputsPrompt(fn: FunctionForInputs, max: number): string {
  const calls = fn.calls.slice(0, MAX_SHOWN_CALLS).map((c) => `- ${callLine(fn, c)}`);
  return [
    `Signature: ${signatureOf(fn)}`,
    'Recorded calls:',
    ...(calls.length > 0 ? calls : ['- (none)']),
    `Propose up to ${max} new argument lists, as one JSON array of arrays (${fn.params.length} value${fn.params.length === 1 ? '' : 's'} each).`,
  ].join('\n');
}

/**
 * The argument lists in a reply: the first JSON array of arrays in it (inside a fence or not, with
 * prose around it). An array of plain values is taken as argument lists of a one-parameter function.
 * Lists of the wrong length, duplicates, and inputs the recorded calls already made are dropped.
 */
export function parseInputs(reply: string, fn: Pick<FunctionForInputs, 'params' | 'calls'>, max: number): unknown[][] {
  const seen = new Set(fn.calls.map((c) => JSON.stringify(fn.params.map((p) => (c.args[p]?.serialization === 'json' ? c.args[p]!.value : null)))));
  const out: unknown[][] = [];
  for (const candidate of jsonArrays(reply)) {
    const lists = candidate.every(Array.isArray) ? (candidate as unknown[][]) : fn.params.length === 1 ? candidate.map((v) => [v]) : [];
    for (const list of lists) {
      if (list.length !== fn.params.length) continue;
      const key = JSON.stringify(list);
      if (key.length > MAX_INPUT_CHARS || seen.has(key)) continue;
      seen.add(key);
      out.push(list);
      if (out.length >= max) return out;
    }
    if (out.length > 0) return out;
  }
  return out;
}

/** Every balanced `[…]` in the text that parses as a JSON array, outermost first. */
function jsonArrays(text: string): unknown[][] {
  const found: unknown[][] = [];
  for (let start = text.indexOf('['); start >= 0; start = text.indexOf('[', start + 1)) {
    const end = matchingBracket(text, start);
    if (end < 0) continue;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (Array.isArray(value)) {
        found.push(value);
        start = end; // inner arrays are part of this one
      }
    } catch {
      // not JSON: keep looking inside
    }
  }
  return found;
}

/** The index of the `]` closing the `[` at `start`, skipping strings; -1 when unbalanced. */
function matchingBracket(text: string, start: number): number {
  let depth = 0;
  let quote = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === '"') quote = false;
    } else if (ch === '"') quote = true;
    else if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Asks the model for more inputs of one function (`gen-tests --ai`): its signature and recorded
 * calls go out, redacted by the session; its source never does. The caller runs the real function
 * on each input and asserts what it actually did.
 */
export async function proposeInputs(session: LlmSession, fn: FunctionForInputs, options: ProposeOptions = {}): Promise<unknown[][]> {
  const max = options.max ?? 5;
  const reply = await session.chat([{ role: 'system', content: SYSTEM }, { role: 'user', content: inputsPrompt(fn, max) }], `inputs:${fn.qualname}`);
  return parseInputs(reply, fn, max);
}
