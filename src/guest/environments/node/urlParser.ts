import punycode from 'punycode/';

/**
 * WHATWG URL parsing for the isolate's `URL` (it has none of its own), following the standard's
 * basic parser where snippets meet it: special and non-special schemes, opaque paths (`mailto:`),
 * relative resolution against a base, dot segments, the percent-encode sets, default ports,
 * IPv6 hosts in brackets and internationalised hosts through punycode. Not covered: the IPv4
 * number forms (`0x7f.1`), Windows drive letters in file URLs, and IDNA mapping beyond lowercase.
 */

/** One parsed URL: the standard's record, with the query and fragment percent-encoded, null when absent. */
export interface UrlRecord {
  scheme: string;
  username: string;
  password: string;
  /** null for a URL with no authority (`mailto:x`, `foo:/p`). */
  host: string | null;
  port: string;
  /** The segments of a hierarchical path, or the text of an opaque one. */
  path: string[] | string;
  query: string | null;
  fragment: string | null;
}

export const SPECIAL_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443', ws: '80', wss: '443', ftp: '21', file: '' };

export const isSpecial = (scheme: string): boolean => Object.hasOwn(SPECIAL_PORTS, scheme);

/** The standard's code-point sets that are percent-encoded in each part (beyond C0 controls and non-ASCII). */
const SETS = {
  c0: '',
  fragment: ' "<>`',
  query: ' "#<>',
  specialQuery: ' "#<>\'',
  path: ' "#<>?^`{}',
  userinfo: ' "#<>?`{}/:;=@[\\]^|',
} as const;
export type EncodeSet = keyof typeof SETS;

/** Percent-encodes text with one of the standard's sets; `%XX` already in it stays. */
export function percentEncode(text: string, set: EncodeSet): string {
  const extra = SETS[set];
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code > 0x1f && code < 0x7f && !extra.includes(ch)) out += ch;
    else for (const byte of utf8Bytes(code)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The UTF-8 bytes of one code point (a lone surrogate as U+FFFD, as the standard encodes it). */
function utf8Bytes(code: number): number[] {
  if (code >= 0xd800 && code <= 0xdfff) return utf8Bytes(0xfffd);
  if (code < 0x80) return [code];
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 63)];
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
  return [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
}

/** Node's error for a URL it cannot parse. */
export class InvalidUrl extends TypeError {
  readonly code = 'ERR_INVALID_URL';
  readonly input: string;
  constructor(input: string) {
    super('Invalid URL');
    this.input = input;
  }
}

const FORBIDDEN_HOST = /[\u0000-\u001f #%/:<>?@[\\\]^|\u007f]/;

/** A special URL's host: IPv6 in brackets, else percent-decoded, lowercased, punycoded. */
export function parseHost(text: string, special: boolean, input: string): string {
  if (text.startsWith('[')) {
    if (!text.endsWith(']') || !/^\[[0-9a-f:.]+\]$/i.test(text)) throw new InvalidUrl(input);
    return text.toLowerCase();
  }
  if (!special) {
    if (/[\u0000 #/:<>?@[\\\]^|]/.test(text)) throw new InvalidUrl(input);
    return percentEncode(text, 'c0');
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    throw new InvalidUrl(input);
  }
  const ascii = punycode.toASCII(decoded.toLowerCase());
  if (ascii === '' || FORBIDDEN_HOST.test(ascii)) throw new InvalidUrl(input);
  return ascii;
}

const SINGLE_DOT = /^(\.|%2e)$/i;
const DOUBLE_DOT = /^(\.|%2e)(\.|%2e)$/i;

/** Path segments from the text after the authority: dot segments resolved, each segment percent-encoded. */
export function parsePath(text: string, special: boolean): string[] {
  const parts = (special ? text.replace(/\\/g, '/') : text).split('/');
  if (parts[0] === '') parts.shift();
  const out: string[] = [];
  parts.forEach((segment, i) => {
    const last = i === parts.length - 1;
    if (DOUBLE_DOT.test(segment)) {
      out.pop();
      if (last) out.push('');
    } else if (SINGLE_DOT.test(segment)) {
      if (last) out.push('');
    } else out.push(percentEncode(segment, 'path'));
  });
  return out;
}

/** Splits `rest` at the first `?` and `#` into path text, query and fragment (encoded). */
function splitTail(rest: string, special: boolean): { pathText: string; query: string | null; fragment: string | null } {
  let fragment: string | null = null;
  let query: string | null = null;
  let text = rest;
  const hash = text.indexOf('#');
  if (hash >= 0) {
    fragment = percentEncode(text.slice(hash + 1), 'fragment');
    text = text.slice(0, hash);
  }
  const q = text.indexOf('?');
  if (q >= 0) {
    query = percentEncode(text.slice(q + 1), special ? 'specialQuery' : 'query');
    text = text.slice(0, q);
  }
  return { pathText: text, query, fragment };
}

/** Parses an absolute URL (the scheme already lowercased and cut off: `rest` follows the colon). */
function parseAbsolute(scheme: string, rest: string, input: string): UrlRecord {
  const special = isSpecial(scheme);
  const record: UrlRecord = { scheme, username: '', password: '', host: null, port: '', path: [], query: null, fragment: null };
  const hasAuthority = special ? scheme !== 'file' || /^[/\\]{2}/.test(rest) : rest.startsWith('//');
  if (!hasAuthority) {
    const { pathText, query, fragment } = splitTail(rest, special);
    Object.assign(record, { query, fragment });
    if (scheme === 'file') record.host = '';
    record.path = special || pathText.startsWith('/') ? parsePath(pathText, special) : percentEncode(pathText, 'c0');
    return record;
  }
  const afterSlashes = rest.replace(scheme === 'file' ? /^[/\\]{2}/ : special ? /^[/\\]*/ : /^\/\//, '');
  const end = afterSlashes.search(special ? /[/\\?#]/ : /[/?#]/);
  const authority = end < 0 ? afterSlashes : afterSlashes.slice(0, end);
  const { pathText, query, fragment } = splitTail(end < 0 ? '' : afterSlashes.slice(end), special);
  Object.assign(record, { query, fragment });
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    const info = authority.slice(0, at);
    const colon = info.indexOf(':');
    record.username = percentEncode(colon < 0 ? info : info.slice(0, colon), 'userinfo');
    record.password = colon < 0 ? '' : percentEncode(info.slice(colon + 1), 'userinfo');
  }
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  const portAt = hostPort.startsWith('[') ? hostPort.indexOf(':', hostPort.indexOf(']')) : hostPort.lastIndexOf(':');
  const hostText = portAt < 0 ? hostPort : hostPort.slice(0, portAt);
  const portText = portAt < 0 ? '' : hostPort.slice(portAt + 1);
  if (portText !== '' && (!/^\d+$/.test(portText) || Number(portText) > 65535)) throw new InvalidUrl(input);
  if (hostText === '') {
    if (special && scheme !== 'file') throw new InvalidUrl(input);
    record.host = '';
  } else record.host = scheme === 'file' && hostText.toLowerCase() === 'localhost' ? '' : parseHost(hostText, special, input);
  const port = portText === '' ? '' : String(Number(portText));
  record.port = SPECIAL_PORTS[scheme] === port ? '' : port;
  record.path = parsePath(pathText, special);
  if (special && record.path.length === 0) record.path = [''];
  return record;
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/** The standard's basic URL parser: an absolute URL, or one relative to `base`. Throws InvalidUrl. */
export function parseUrl(rawInput: string, base?: UrlRecord): UrlRecord {
  const input = rawInput.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const match = SCHEME.exec(input);
  if (match?.[1] !== undefined) {
    const scheme = match[1].toLowerCase();
    const rest = input.slice(match[0].length);
    // `http:x` against an http base is relative, as the standard reads it
    const relative = base !== undefined && base.scheme === scheme && isSpecial(scheme) && !/^[/\\]/.test(rest);
    if (!relative) return parseAbsolute(scheme, rest, rawInput);
    return parseRelative(rest, base, rawInput);
  }
  if (base === undefined) throw new InvalidUrl(rawInput);
  return parseRelative(input, base, rawInput);
}

function parseRelative(input: string, base: UrlRecord, rawInput: string): UrlRecord {
  const special = isSpecial(base.scheme);
  if (typeof base.path === 'string') {
    if (!input.startsWith('#')) throw new InvalidUrl(rawInput);
    return { ...base, fragment: percentEncode(input.slice(1), 'fragment') };
  }
  const slash = special ? /^[/\\]/ : /^\//;
  if (slash.test(input) && slash.test(input.slice(1))) return parseAbsolute(base.scheme, input, rawInput);
  const authority = serializeAuthority(base);
  if (slash.test(input)) return parseAbsolute(base.scheme, `${authority}${input}`, rawInput);
  if (input === '' || input.startsWith('?') || input.startsWith('#')) {
    const { query, fragment } = splitTail(input, special);
    return { ...base, path: [...base.path], query: input === '' || input.startsWith('#') ? base.query : query, fragment };
  }
  const directory = base.path.slice(0, -1).map((s) => `/${s}`).join('');
  return parseAbsolute(base.scheme, `${authority}${directory}/${input}`, rawInput);
}

/** `//user:pass@host:port`, or '' for a URL without authority. */
export function serializeAuthority(r: UrlRecord): string {
  if (r.host === null) return '';
  const info = r.username !== '' || r.password !== '' ? `${r.username}${r.password !== '' ? `:${r.password}` : ''}@` : '';
  return `//${info}${r.host}${r.port !== '' ? `:${r.port}` : ''}`;
}

export function serializePath(r: UrlRecord): string {
  if (typeof r.path === 'string') return r.path;
  // a path starting with an empty segment and no host: `/.` keeps it from reading as an authority
  const prefix = r.host === null && r.path.length > 1 && r.path[0] === '' ? '/.' : '';
  return prefix + r.path.map((s) => `/${s}`).join('');
}

export function serializeUrl(r: UrlRecord, withFragment = true): string {
  return `${r.scheme}:${serializeAuthority(r)}${serializePath(r)}${r.query !== null ? `?${r.query}` : ''}${withFragment && r.fragment !== null ? `#${r.fragment}` : ''}`;
}
