import { decodedLiterals, encodedSecrets, escapedSecrets, hexSecrets, splitSecrets, variableSplitSecrets } from './hiddenSecrets.ts';
import { isSecretName, OWN_RULES, type Finding, type SecretRule } from './secretRules.ts';

/** A line of a numbered snippet as the prompts show it: `>> 12 | ` or `   3 | `. */
const LINE_NUMBER = /^(?:>>| {2}) +\d+ \| /;
const NUMBERED = new RegExp(LINE_NUMBER.source, 'm');
const PLACEHOLDER = /REDACTED_[A-Z_]+_\d+/g;
/** What may stand between the characters of a secret spelled out: spaces, punctuation, quotes, `+`. */
const SPACING = '[\\s\\-_.,:;|/\\\\\'"\\x60+]*';
const SEPARATORS_ONLY = /[\s\-_.,:;|/\\'"\x60+]/g;
/** Texts redacted before (the system prompt, the examples) are answered from a memo. */
const MEMO_ENTRIES = 256;
const MEMO_LENGTH = 64_000;

/**
 * Replaces what `rules` find with placeholders like `REDACTED_AWS_KEY_1`, in the text itself, in
 * string pieces put back together and in base64 decoded, on lines with or without the prompts'
 * line numbers. A secret keeps its placeholder across calls; values of secret-named environment
 * variables are replaced wherever they occur and never restored. SecretRedactor (redactSecrets.ts)
 * adds secretlint's rules; the recorder uses this one with snipexec's own rules only.
 */
export class PlaceholderRedactor {
  private readonly bySecret = new Map<string, string>();
  private readonly restorable = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly memo = new Map<string, string>();
  private readonly spaced = new Map<string, RegExp>();
  private readonly truncated = new Map<string, RegExp | null>();
  private readonly envSecrets: readonly string[];
  private readonly rules: readonly SecretRule[];

  constructor(env: NodeJS.ProcessEnv = {}, rules: readonly SecretRule[] = OWN_RULES) {
    this.rules = rules;
    const values = Object.entries(env)
      .filter(([name, value]) => isSecretName(name) && typeof value === 'string' && value.length >= 6)
      .map(([, value]) => value as string);
    // Longest first, so a secret containing another is replaced whole.
    this.envSecrets = [...new Set(values)].sort((a, b) => b.length - a.length);
    // Known from the start: matched spaced out even before they occur whole.
    for (const secret of this.envSecrets) this.placeholder('ENV_SECRET', secret, false);
  }

  /** How many distinct secrets were replaced so far. */
  get count(): number {
    return this.bySecret.size;
  }

  redact(text: string): string {
    const known = this.memo.get(text);
    if (known !== undefined) return known;
    let out = text;
    for (const secret of this.envSecrets) if (out.includes(secret)) out = out.split(secret).join(this.placeholder('ENV_SECRET', secret, false));
    out = this.redactFound(out);
    out = this.redactSpaced(out);
    if (text.length <= MEMO_LENGTH) {
      if (this.memo.size >= MEMO_ENTRIES) this.memo.clear();
      this.memo.set(text, out);
    }
    return out;
  }

  /** Puts the snippet's own secrets back into a reply; environment secrets stay placeholders. */
  restore(text: string): string {
    return text.replace(PLACEHOLDER, (p) => this.restorable.get(p) ?? p);
  }

  private redactFound(text: string): string {
    const view = withoutLineNumbers(text);
    const direct = (t: string): Finding[] => this.rules.flatMap((rule) => rule(t));
    const found = [
      ...direct(view.text), ...splitSecrets(view.text, direct), ...encodedSecrets(view.text, direct), ...hexSecrets(view.text, direct),
      ...escapedSecrets(view.text, direct), ...decodedLiterals(view.text), ...variableSplitSecrets(view.text, direct),
    ];
    let out = '';
    let done = 0;
    for (const f of merged(found, view.text)) {
      const start = view.source(f.start);
      const end = view.source(f.end - 1) + 1;
      out += text.slice(done, start) + this.placeholder(f.kind, view.text.slice(f.start, f.end), true);
      done = end;
    }
    return out + text.slice(done);
  }

  /**
   * Every secret seen so far, again wherever it comes back spaced out or split by separators (a
   * model's definition that throws `s e c r e t`, a message that quotes it in pieces): its characters
   * in order with only spaces, punctuation, quotes or `+` between them.
   */
  private redactSpaced(text: string): string {
    let out = text;
    for (const [secret, placeholder] of this.bySecret) {
      if (secret.length < 6) continue;
      let pattern = this.spaced.get(secret);
      if (pattern === undefined) {
        const chars = [...secret.replace(SEPARATORS_ONLY, '')];
        if (chars.length < 6) continue;
        pattern = new RegExp(chars.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(SPACING), 'g');
        this.spaced.set(secret, pattern);
      }
      out = out.replace(pattern, placeholder);
      // Cut short where a message was truncated: a start or an end of 8 characters or more.
      let cut = this.truncated.get(secret);
      if (cut === undefined) {
        cut = truncatedForms(secret);
        this.truncated.set(secret, cut);
      }
      if (cut !== null) out = out.replace(cut, placeholder);
    }
    return out;
  }

  private placeholder(kind: string, secret: string, restorable: boolean): string {
    const known = this.bySecret.get(secret);
    if (known) return known;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const p = `REDACTED_${kind}_${n}`;
    this.bySecret.set(secret, p);
    if (restorable) this.restorable.set(p, secret);
    return p;
  }
}

const MIN_FRAGMENT = 8;
const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A secret's starts and ends of MIN_FRAGMENT characters or more (what a truncated message keeps of
 * it), as one pattern; null for a secret too short to have any but itself.
 */
function truncatedForms(secret: string): RegExp | null {
  const chars = [...secret].map(escapeRegExp);
  if (chars.length <= MIN_FRAGMENT) return null;
  const head = chars.slice(0, MIN_FRAGMENT).join('');
  const rest = chars.slice(MIN_FRAGMENT);
  const prefixes = head + rest.reduceRight((tail, c) => `(?:${c}${tail})?`, '');
  const tail = chars.slice(-MIN_FRAGMENT).join('');
  const before = chars.slice(0, -MIN_FRAGMENT);
  const suffixes = before.reduce((lead, c) => `(?:${lead}${c})?`, '') + tail;
  return new RegExp(`${prefixes}|${suffixes}`, 'g');
}

/**
 * Overlapping findings become one, so no part of a secret is left; the first rule's kind names it.
 * A finding over a placeholder is dropped, so redacting twice changes nothing. A secret-named key's
 * value gives way to the precise findings inside it when only a word is left: `Bearer …`, `token …`.
 */
function merged(found: readonly Finding[], text: string): Finding[] {
  const kept = found.filter((f) => f.end > f.start && !text.slice(f.start, f.end).includes('REDACTED_'));
  // The sort is stable: of two findings with the same span, the earlier rule's kind stays.
  const sorted = kept.filter((f) => f.kind !== 'SECRET' || !onlyWordsAround(f, kept, text)).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) out[out.length - 1] = { ...last, end: Math.max(last.end, f.end) };
    else out.push(f);
  }
  return out;
}

function onlyWordsAround(outer: Finding, all: readonly Finding[], text: string): boolean {
  // A finding of the very same span is no more precise: the earlier rule's kind names it.
  const inner = all.filter((f) => f !== outer && f.start >= outer.start && f.end <= outer.end && (f.start !== outer.start || f.end !== outer.end)).sort((a, b) => a.start - b.start);
  if (inner.length === 0) return false;
  let rest = '';
  let at = outer.start;
  for (const f of inner) {
    rest += text.slice(at, Math.max(at, f.start));
    at = Math.max(at, f.end);
  }
  return /^[A-Za-z\s]*$/.test(rest + text.slice(at, outer.end));
}

/** The text with line-number prefixes removed, and a map from its offsets back to the original's. */
function withoutLineNumbers(text: string): { text: string; source(i: number): number } {
  if (!NUMBERED.test(text)) return { text, source: (i) => i };
  // Per line: where it starts in the view, and how far its view offsets are from the original's.
  const starts: number[] = [];
  const shifts: number[] = [];
  let view = '';
  let offset = 0;
  for (const line of text.split('\n')) {
    const prefix = LINE_NUMBER.exec(line)?.[0].length ?? 0;
    starts.push(view.length);
    shifts.push(offset + prefix - view.length);
    view += line.slice(prefix) + '\n';
    offset += line.length + 1;
  }
  view = view.slice(0, -1);
  return {
    text: view,
    source(i) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] ?? 0) <= i) lo = mid;
        else hi = mid - 1;
      }
      return i + (shifts[lo] ?? 0);
    },
  };
}
