/**
 * The one home of selector parsing for the browser environment: a simple CSS selector read as the
 * chain of elements it describes, so a query that finds nothing can create what it looks for.
 * Tag, `#id`, `.class`, `[attr]`, `[attr=value]` (any match operator), descendant and child
 * combinators (nested elements) and sibling combinators (siblings); pseudo-classes are ignored
 * except :checked, :disabled and :selected. Only the first selector of a list is read.
 */

/** One compound selector (`input.big[name="q"]`): what the element it stands for carries. */
export interface CompoundSpec {
  readonly tag: string | undefined;
  readonly id: string | undefined;
  readonly classes: readonly string[];
  /** Attribute name and value ('' for a bare `[attr]`). */
  readonly attributes: readonly (readonly [string, string])[];
  /** The compound's own text, to re-join a prefix of the chain as a selector. */
  readonly text: string;
}

export interface SelectorSkeleton {
  readonly compounds: readonly CompoundSpec[];
  /** combinators[i] joins compounds[i] and compounds[i + 1]: ' ', '>', '+' or '~'. */
  readonly combinators: readonly string[];
}

const IDENT = String.raw`(?:\\.|[\w\u00a0-\uffff-])+`;
const TOKEN = new RegExp(
  [
    String.raw`(\s*[>+~]\s*|\s+)`, // 1 combinator
    String.raw`#(${IDENT})`, // 2 id
    String.raw`\.(${IDENT})`, // 3 class
    String.raw`\[\s*(${IDENT})\s*(?:[~|^$*]?=\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|(${IDENT}))\s*)?(?:[iIsS]\s*)?\]`, // 4 name, 5-7 value
    String.raw`::?(${IDENT})(\((?:[^()]|\([^()]*\))*\))?`, // 8 pseudo, 9 its argument
    String.raw`(\*|${IDENT})`, // 10 tag
  ].join('|'),
  'y',
);

const unescape = (s: string) => s.replace(/\\([0-9a-fA-F]{1,6}\s?|.)/g, (_, c: string) => (/^[0-9a-fA-F]/.test(c) && c.length > 1 ? String.fromCodePoint(parseInt(c, 16)) : c));

/** The first selector of a comma-separated list (commas inside brackets, quotes or parentheses do not split it). */
function firstOfList(selector: string): string {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) return selector.slice(0, i);
  }
  return selector;
}

/** The chain of elements `selector` describes, or undefined when it is not a simple selector. */
export function parseSelector(selector: string): SelectorSkeleton | undefined {
  const source = firstOfList(String(selector)).trim();
  if (source === '') return undefined;
  const compounds: CompoundSpec[] = [];
  const combinators: string[] = [];
  let current: { tag?: string; id?: string; classes: string[]; attributes: [string, string][]; start: number; empty: boolean } | undefined;
  const close = (end: number) => {
    if (!current) return;
    if (!current.empty) compounds.push({ tag: current.tag, id: current.id, classes: current.classes, attributes: current.attributes, text: source.slice(current.start, end).trim() });
    else if (compounds.length > 0) combinators.pop(); // `:scope > x`, `:hover`: nothing to create for it
    current = undefined;
  };
  const open = (at: number) => (current ??= { classes: [], attributes: [], start: at, empty: true });
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m) return undefined;
    if (m[1] !== undefined) {
      close(at);
      if (compounds.length > 0) combinators.push(m[1].trim() || ' ');
      continue;
    }
    const c = open(at);
    if (m[2] !== undefined) (c.id = unescape(m[2])), (c.empty = false);
    else if (m[3] !== undefined) c.classes.push(unescape(m[3])), (c.empty = false);
    else if (m[4] !== undefined) c.attributes.push([unescape(m[4]), unescape(m[5] ?? m[6] ?? m[7] ?? '')]), (c.empty = false);
    else if (m[8] !== undefined) {
      const state = m[8].toLowerCase();
      if (state === 'checked' || state === 'disabled' || state === 'selected') c.attributes.push([state, '']), (c.empty = false);
    } else if (m[10] !== undefined) {
      if (c.tag !== undefined || !c.empty) return undefined; // a tag comes first in a compound
      c.tag = m[10] === '*' ? undefined : unescape(m[10]).toLowerCase();
      c.empty = false;
    }
  }
  close(source.length);
  if (compounds.length === 0) return undefined;
  if (combinators.length >= compounds.length) combinators.length = compounds.length - 1; // a trailing combinator: `ul >`
  return { compounds, combinators };
}

/** The selector text of the first `count` compounds of `skeleton`. */
export function prefixSelector(skeleton: SelectorSkeleton, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += (i > 0 ? ` ${skeleton.combinators[i - 1]} ` : '') + skeleton.compounds[i]?.text;
  return out;
}

/** The tag an element matching `spec` gets: its own, else `input` when it carries `type`, `name` or `value`, else `div`. */
export function impliedTag(spec: CompoundSpec): string {
  if (spec.tag) return spec.tag;
  return spec.attributes.some(([name]) => name === 'type' || name === 'name' || name === 'value' || name === 'checked' || name === 'placeholder') ? 'input' : 'div';
}
