import { Buffer } from 'buffer';

/**
 * `querystring` as Node's lib/querystring.js has it (querystring-es3 lacks escape/unescape, throws
 * on a malformed `%` sequence and parses into a plain object): parse into a null-prototype object,
 * at most `maxKeys` pairs (1000), `+` as a space, a malformed sequence decoded byte by byte;
 * stringify numbers, bigints and booleans, skipping other values.
 */

type Decode = (s: string) => string;
type Encode = (s: string) => string;
interface ParseOptions { readonly maxKeys?: number; readonly decodeURIComponent?: Decode }
interface StringifyOptions { readonly encodeURIComponent?: Encode }

const hexValue = (code: number): number =>
  code >= 48 && code <= 57 ? code - 48 : code >= 65 && code <= 70 ? code - 55 : code >= 97 && code <= 102 ? code - 87 : -1;

/** The bytes of a percent-encoded string: `%XX` decoded, `+` a space when asked, other characters as their low byte (Node's unescapeBuffer). */
export function unescapeBuffer(s: string, decodeSpaces = false): Buffer {
  const text = String(s);
  const out = Buffer.alloc(text.length);
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code === 43 && decodeSpaces) code = 32;
    else if (code === 37 && i < text.length - 2) {
      const high = hexValue(text.charCodeAt(i + 1)), low = hexValue(text.charCodeAt(i + 2));
      if (high >= 0 && low >= 0) {
        code = high * 16 + low;
        i += 2;
      }
    }
    out[at++] = code & 0xff;
  }
  return out.subarray(0, at);
}

/** decodeURIComponent, or byte by byte when the text is not valid percent-encoded UTF-8. */
export function unescape(s: string, decodeSpaces = false): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return unescapeBuffer(s, decodeSpaces).toString();
  }
}

export function escape(s: unknown): string {
  return encodeURIComponent(typeof s === 'string' ? s : String(s));
}

function decodePart(text: string, decode: Decode): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decode(spaced);
  } catch {
    return unescape(spaced, true);
  }
}

export function parse(qs: unknown, sep?: unknown, eq?: unknown, options?: ParseOptions): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  if (typeof qs !== 'string' || qs.length === 0) return out;
  const separator = sep ? String(sep) : '&';
  const equals = eq ? String(eq) : '=';
  const maxKeys = typeof options?.maxKeys === 'number' ? options.maxKeys : 1000;
  const decode = typeof options?.decodeURIComponent === 'function' ? options.decodeURIComponent : unescape;
  let pieces = qs.split(separator);
  if (maxKeys > 0) pieces = pieces.slice(0, maxKeys);
  for (const piece of pieces) {
    if (piece.length === 0) continue;
    const at = piece.indexOf(equals);
    const key = decodePart(at < 0 ? piece : piece.slice(0, at), decode);
    const value = at < 0 ? '' : decodePart(piece.slice(at + equals.length), decode);
    const known = out[key];
    if (known === undefined) out[key] = value;
    else if (Array.isArray(known)) known.push(value);
    else out[key] = [known, value];
  }
  return out;
}

function stringifyValue(v: unknown, encode: Encode): string {
  if (typeof v === 'string') return v.length > 0 ? encode(v) : '';
  if (typeof v === 'number' && Number.isFinite(v)) return Math.abs(v) < 1e21 ? `${v}` : encode(`${v}`);
  if (typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

export function stringify(obj: unknown, sep?: unknown, eq?: unknown, options?: StringifyOptions): string {
  if (obj === null || typeof obj !== 'object') return '';
  const separator = sep ? String(sep) : '&';
  const equals = eq ? String(eq) : '=';
  const encode = typeof options?.encodeURIComponent === 'function' ? options.encodeURIComponent : escape;
  const fields: string[] = [];
  for (const key of Object.keys(obj)) {
    const value = (obj as Record<string, unknown>)[key];
    const name = stringifyValue(key, encode) + equals;
    if (Array.isArray(value)) for (const item of value) fields.push(name + stringifyValue(item, encode));
    else fields.push(name + stringifyValue(value, encode));
  }
  return fields.join(separator);
}

export const querystringModule = { parse, stringify, decode: parse, encode: stringify, escape, unescape, unescapeBuffer };
