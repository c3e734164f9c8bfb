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
