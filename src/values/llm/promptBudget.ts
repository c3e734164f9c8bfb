import { countTokens } from '../../llm/countTokens.ts';

/**
 * Token budgets of the parts of a prompt that grow with the snippet, in the tokens of
 * countTokens (o200k_base). The fixed parts are measured by test/prompts.test.ts instead: the
 * system prompt and examples ≤ 800 tokens. With these, whatever the snippet's size, an assign
 * request is at most about 2,500 tokens, a fix request with four earlier failures about 3,400, and
 * a classifier request about 1,200 (test/promptBudget.test.ts measures a 2,000-line snippet).
 */
export interface PromptBudget {
  /** The numbered snippet: the failing line, then the lines nearest it. */
  readonly snippet: number;
  /** The recorded usage trace: the element's own facts, then its parts', shallowest first. */
  readonly trace: number;
  /** Definitions already made for the snippet: the most recent first. */
  readonly defined: number;
  /** (fix) The code that was tried: its last lines first, where the element gets its value. */
  readonly previous: number;
  /** The error text. */
  readonly error: number;
}

/** The value generator's assign and fix requests. */
export const GENERATOR_BUDGET: PromptBudget = { snippet: 1_200, trace: 300, defined: 300, previous: 500, error: 150 };

/** The classifier's one request: it needs the shape of the use, not every line. */
export const CLASSIFIER_BUDGET: PromptBudget = { snippet: 600, trace: 200, defined: 0, previous: 0, error: 100 };

/** One line longer than this share of its budget is cut short, so it cannot crowd out its neighbours. */
const LONGEST_LINE_SHARE = 1 / 3;

/** `text` cut to at most `max` tokens, with `…` where it was cut. */
export function clipToTokens(text: string, max: number): string {
  if (countTokens(text) <= max) return text;
  // The longest prefix that fits with its ellipsis; tokens grow with length, so bisect.
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(`${text.slice(0, mid)}…`) <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo)}…`;
}

/** Elision markers cost a few tokens each; they come out of the budget first. */
const MARKER_RESERVE = 24;

/**
 * Lines around `centre` that fit in `budget` tokens: the centre line (cut short if it alone is too
 * long), then the nearest line on either side in turn, the one above first on a tie. A side stops
 * at its first line that does not fit, so a line is only cut when every line farther from the
 * centre on its side is cut too. Cut runs become one marker line each, "(12 lines above not shown)".
 */
export function linesAround(lines: readonly string[], centre: number, budget: number, indent = '   '): string[] {
  if (lines.length === 0) return [];
  const c = Math.min(Math.max(centre, 0), lines.length - 1);
  const room = Math.max(budget - MARKER_RESERVE, 1);
  const cost = (s: string) => countTokens(`${s}\n`);
  const shown = new Map<number, string>();
  const first = clipToTokens(lines[c] ?? '', room - 1);
  shown.set(c, first);
  let used = cost(first);
  let up = c - 1;
  let down = c + 1;
  let upOpen = up >= 0;
  let downOpen = down < lines.length;
  while (upOpen || downOpen) {
    // Nearest first; on a tie, the line above.
    const takeUp = upOpen && (!downOpen || c - up <= down - c);
    const i = takeUp ? up : down;
    const text = clipToTokens(lines[i] ?? '', Math.max(1, Math.floor(room * LONGEST_LINE_SHARE)));
    const n = cost(text);
    if (used + n > room) {
      if (takeUp) upOpen = false;
      else downOpen = false;
      continue;
    }
    used += n;
    shown.set(i, text);
    if (takeUp) upOpen = --up >= 0;
    else downOpen = ++down < lines.length;
  }
  const from = up + 1;
  const to = down;
  const out: string[] = [];
  if (from > 0) out.push(`${indent}(${from} line${from === 1 ? '' : 's'} above not shown)`);
  for (let i = from; i < to; i++) out.push(shown.get(i) ?? '');
  if (to < lines.length) out.push(`${indent}(${lines.length - to} line${lines.length - to === 1 ? '' : 's'} below not shown)`);
  return out;
}

/**
 * Which of `items` fit in `budget` tokens, the nearest (smallest `distance`) first and, among equals,
 * the earlier; the first one that does not fit ends the choice, so nothing farther is kept. The
 * kept items stay in their order. Each item is cut short to a third of the budget at most.
 */
export function nearestFirst<T extends { readonly text: string; readonly distance: number }>(items: readonly T[], budget: number): { kept: T[]; cut: number } {
  const order = items.map((item, i) => ({ item, i })).sort((a, b) => a.item.distance - b.item.distance || a.i - b.i);
  const keep = new Map<number, T>();
  let used = 0;
  for (const { item, i } of order) {
    const text = clipToTokens(item.text, Math.max(1, Math.floor(budget * LONGEST_LINE_SHARE)));
    const n = countTokens(`${text}\n`);
    if (used + n > budget) break;
    used += n;
    keep.set(i, { ...item, text });
  }
  const kept = [...keep.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
  return { kept, cut: items.length - kept.length };
}
