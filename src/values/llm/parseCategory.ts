import { CATEGORIES, type Category } from '../../core/categories.ts';

/**
 * Words and phrases a model uses for each category, besides the category names themselves. A
 * longer phrase wins over a word it starts with: "async function" is a function but "async" a
 * promise, "map-like object" an object but "map" a Map, "class instance" an object.
 */
const SYNONYMS: Readonly<Record<Category, readonly string[]>> = {
  undefined: ['void'],
  null: ['nil'],
  boolean: ['bool', 'flag'],
  number: ['integer', 'int', 'float', 'double', 'numeric', 'bigint'],
  string: ['text', 'str'],
  array: ['list', 'array-like'],
  tuple: ['pair'],
  object: ['dict', 'dictionary', 'record', 'hash', 'map-like object', 'map-like', 'class instance'],
  function: ['callable', 'method', 'func', 'callback', 'lambda', 'handler', 'async function'],
  class: ['constructor'],
  promise: ['async', 'thenable', 'future'],
  Map: ['hashmap', 'hash map'],
  Set: [],
  Date: ['datetime'],
  RegExp: ['regex', 'regular expression'],
  Error: ['exception', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError'],
  element: ['node'],
  Dummy: ['none of the above', 'unknown'],
};

/**
 * Uses of a word that do not name its category: "Node.js", a "Node-style callback", "is set to",
 * and the prompt's own `Element: …` and `Error: …` lines echoed back.
 */
const NOT_WHEN_FOLLOWED_BY: ReadonlyMap<string, string> = new Map([
  ['node', String.raw`\.?js|\s+module`],
  ['set', String.raw`\s+(?:to|by|up|in|on|as|from)\b`],
  ['element', String.raw`\s*:`],
  ['error', String.raw`\s*:`],
]);

const TERMS: readonly (readonly [term: string, category: Category])[] = CATEGORIES
  .flatMap((c) => [[c, c] as const, ...SYNONYMS[c].map((s) => [s, c] as const)])
  // Longest first: at one position, the regex takes the first alternative that matches.
  .sort(([a], [b]) => b.length - a.length);

function alternative(term: string): string {
  const guard = NOT_WHEN_FOLLOWED_BY.get(term.toLowerCase());
  const body = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, String.raw`\s+`);
  return `(${body}${guard ? `(?!${guard})` : ''})`;
}

/**
 * One group per term in TERMS' order, after two shapes: a TypeScript array type (`string[]`) and
 * an `HTML…Element`. A term stands alone: no letter, digit, `$`, `.` or `-` touches it, so
 * "non-null", "map-like" and "res.text()" hold no `null`, `map` or `text`.
 */
const PATTERN = new RegExp(String.raw`(?<![\w$.-])(?:(?<tsArray>[A-Za-z]+\[\])|(?<htmlElement>HTML\w*Element)|${TERMS.map(([t]) => alternative(t)).join('|')})(?![\w$-])`, 'gi');
const FIRST_TERM_GROUP = 2;

/** A negation just before a word: "not a function", "isn't an object", "never null". */
const NEGATED = /\b(?:not|isn't|is\s+not|never|rather\s+than|instead\s+of)\s+(?:an?\s+|the\s+)?$/i;

/**
 * The category a classifier reply names: its first category word or synonym, case-insensitively,
 * skipping `<think>` sections and negated words. "The category is object.", "- object",
 * "**array**", "DOM element" and "function (it is called)" all name one. Undefined when none does.
 */
export function parseCategory(reply: string): Category | undefined {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, ' ');
  for (const m of text.matchAll(PATTERN)) {
    if (NEGATED.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
    if (m.groups?.tsArray) return 'array';
    if (m.groups?.htmlElement) return 'element';
    const i = m.slice(1).findIndex((g, k) => k >= FIRST_TERM_GROUP && g !== undefined);
    const hit = TERMS[i - FIRST_TERM_GROUP];
    if (hit) return hit[1];
  }
  return undefined;
}
