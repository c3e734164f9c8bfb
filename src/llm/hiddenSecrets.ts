import type { Finding } from './secretRules.ts';

/**
 * Secrets no rule sees in the text as written: split into string pieces (`'sk-proj-ab' + 'cd…'`,
 * template pieces, `[…].join('')`), or base64-encoded. Each is put back together or decoded, the
 * rules run on the result, and what they find maps back to the pieces or the encoded run.
 */
export type Scan = (text: string) => Finding[];

const LITERAL = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\$]|\\.|\$(?!\{))*\x60`;
const CONCATENATION = new RegExp(String.raw`(?:${LITERAL})(?:\s*\+\s*(?:${LITERAL}))+`, 'g');
const JOINED_ARRAY = new RegExp(String.raw`\[\s*(?:${LITERAL})(?:\s*,\s*(?:${LITERAL}))+\s*,?\s*\]\s*\.join\(\s*(?:''|""|\x60\x60)\s*\)`, 'g');
const ONE_LITERAL = new RegExp(LITERAL, 'g');
/** A template literal; with `${…}` slots, a slot holding one string literal is a piece too. */
const TEMPLATE = /`(?:[^`\\]|\\.)*`/g;
const SLOT = /\$\{([^{}`]*)\}/g;

interface Piece {
  readonly start: number;
  readonly end: number;
}

/** Secrets whose string pieces only make one together. */
export function splitSecrets(text: string, scan: Scan): Finding[] {
  const groups: Piece[][] = [];
  for (const m of [...text.matchAll(CONCATENATION), ...text.matchAll(JOINED_ARRAY)]) {
    groups.push([...m[0].matchAll(ONE_LITERAL)].map((l) => ({ start: m.index + l.index + 1, end: m.index + l.index + l[0].length - 1 })));
  }
  for (const m of text.matchAll(TEMPLATE)) if (m[0].includes('${')) groups.push(...templatePieces(m[0], m.index));
  return groups.flatMap((pieces) => piecesFound(text, pieces, scan));
}

const SLOT_LITERAL = /^(\s*)('[^'\\\n]*'|"[^"\\\n]*")\s*$/;

function templatePieces(template: string, offset: number): Piece[][] {
  const runs: Piece[][] = [];
  let run: Piece[] = [];
  let from = 1;
  for (const slot of template.slice(0, -1).matchAll(SLOT)) {
    run.push({ start: offset + from, end: offset + slot.index });
    const [, space = '', literal = ''] = SLOT_LITERAL.exec(slot[1] ?? '') ?? [];
    // `${'piece'}` continues the run; any other expression ends it.
    if (literal !== '') {
      const start = offset + slot.index + 2 + space.length + 1;
      run.push({ start, end: start + literal.length - 2 });
    } else {
      runs.push(run);
      run = [];
    }
    from = slot.index + slot[0].length;
  }
  run.push({ start: offset + from, end: offset + template.length - 1 });
  return [...runs, run];
}

function piecesFound(text: string, pieces: readonly Piece[], scan: Scan): Finding[] {
  const parts = pieces.filter((p) => p.end > p.start);
  if (parts.length < 2) return [];
  const joined = parts.map((p) => text.slice(p.start, p.end)).join('');
  const found = scan(joined);
  const out: Finding[] = [];
  let at = 0;
  for (const p of parts) {
    const length = p.end - p.start;
    if (found.some((f) => f.start < at + length && f.end > at)) out.push({ start: p.start, end: p.end, kind: 'SPLIT_SECRET' });
    at += length;
  }
  return out;
}

const BASE64_RUN = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{12,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const PRINTABLE = /^[\x20-\x7e\t\r\n]+$/;
/** `user:password`, what `Authorization: Basic` carries. */
const CREDENTIALS = /^[^\s:]{1,64}:\S{4,}$/;

/** Base64 runs whose decoded text is a credential pair or holds a secret. */
export function encodedSecrets(text: string, scan: Scan): Finding[] {
  return [...text.matchAll(BASE64_RUN)].flatMap((m) => {
    const decoded = Buffer.from(m[0], 'base64').toString('latin1');
    if (decoded.length < 6 || !PRINTABLE.test(decoded)) return [];
    return CREDENTIALS.test(decoded) || scan(decoded).length > 0 ? [{ start: m.index, end: m.index + m[0].length, kind: 'ENCODED_SECRET' }] : [];
  });
}

/** A string literal whose text holds an escape (`\u0073`, `\x73`, `\u{73}`) or a line continuation. */
const ESCAPED_LITERAL = /'(?:[^'\\\n]|\\[\s\S])*\\(?:u|x|\r?\n)(?:[^'\\\n]|\\[\s\S])*'|"(?:[^"\\\n]|\\[\s\S])*\\(?:u|x|\r?\n)(?:[^"\\\n]|\\[\s\S])*"|`(?:[^`\\]|\\[\s\S])*\\(?:u|x|\r?\n)(?:[^`\\]|\\[\s\S])*`/g;
const ESCAPE = /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|\r?\n|([\s\S]))/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };

/** A literal's body as JavaScript reads it: escapes decoded, line continuations dropped. */
function unescapeLiteral(body: string): string {
  return body.replace(ESCAPE, (_, braced?: string, four?: string, two?: string, other?: string) => {
    const hex = braced ?? four ?? two;
    if (hex !== undefined) return String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
    if (other === undefined) return '';
    return SIMPLE_ESCAPES[other] ?? other;
  });
}

/** Secrets written with escapes or line continuations inside one string literal: the whole literal's text is the finding. */
export function escapedSecrets(text: string, scan: Scan): Finding[] {
  return [...text.matchAll(ESCAPED_LITERAL)].flatMap((m) => {
    const decoded = unescapeLiteral(m[0].slice(1, -1));
    return decoded.length >= 6 && scan(decoded).length > 0 ? [{ start: m.index + 1, end: m.index + m[0].length - 1, kind: 'ESCAPED_SECRET' }] : [];
  });
}

const HEX_RUN = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}){8,}(?![0-9a-fA-F])/g;

/** Hex runs whose decoded text is a credential pair or holds a secret (`Buffer.from('6768705f…', 'hex')`). */
export function hexSecrets(text: string, scan: Scan): Finding[] {
  return [...text.matchAll(HEX_RUN)].flatMap((m) => {
    const decoded = Buffer.from(m[0], 'hex').toString('latin1');
    if (!PRINTABLE.test(decoded)) return [];
    return CREDENTIALS.test(decoded) || scan(decoded).length > 0 ? [{ start: m.index, end: m.index + m[0].length, kind: 'ENCODED_SECRET' }] : [];
  });
}

/**
 * A literal the code itself decodes (`Buffer.from('…', 'base64')`, `'hex'`, `atob('…')`) to
 * printable text that looks random: a secret kept encoded, whatever its shape once decoded.
 */
const DECODED_LITERAL = /\b(?:Buffer\.from|atob)\(\s*(['"`])([A-Za-z0-9+/=_-]{8,4096})\1\s*(?:,\s*(['"`])(base64|base64url|hex)\3\s*)?\)/g;

export function decodedLiterals(text: string): Finding[] {
  return [...text.matchAll(DECODED_LITERAL)].flatMap((m) => {
    const isAtob = m[0].startsWith('atob');
    const encoding = m[4] ?? (isAtob ? 'base64' : undefined);
    if (encoding === undefined) return [];
    const decoded = Buffer.from(m[2]!, encoding === 'hex' ? 'hex' : 'base64').toString('latin1');
    if (decoded.length < 6 || !PRINTABLE.test(decoded) || /^[a-z]+(?:[ _.-][a-z]+)*$/i.test(decoded) || entropyOf(decoded) < 3) return [];
    const start = m.index + m[0].indexOf(m[2]!);
    return [{ start, end: start + m[2]!.length, kind: 'ENCODED_SECRET' }];
  });
}

function entropyOf(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/** `const a = '…';` declarations, and names joined with `+`: a secret kept in pieces in separate variables. */
const DECLARED_LITERAL = new RegExp(String.raw`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(${LITERAL})`, 'g');
const NAMES_JOINED = /(?<![\w$.])[A-Za-z_$][\w$]*(?:\s*\+\s*[A-Za-z_$][\w$]*)+(?![\w$(])/g;

/** Secrets whose pieces are string literals held by separate variables and only make one joined by name: `a + b`. */
export function variableSplitSecrets(text: string, scan: Scan): Finding[] {
  const literals = new Map<string, Piece>();
  for (const m of text.matchAll(DECLARED_LITERAL)) {
    const start = m.index + m[0].length - m[2]!.length + 1;
    literals.set(m[1]!, { start, end: start + m[2]!.length - 2 });
  }
  if (literals.size < 2) return [];
  return [...text.matchAll(NAMES_JOINED)].flatMap((m) => {
    const pieces = m[0].split(/\s*\+\s*/).map((name) => literals.get(name));
    return pieces.every((p) => p !== undefined) ? piecesFound(text, pieces as Piece[], scan) : [];
  });
}
