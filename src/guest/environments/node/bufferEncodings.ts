import type { Buffer as BufferType } from 'buffer';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

const isBase64Url = (v: unknown): boolean => typeof v === 'string' && v.toLowerCase() === 'base64url';

/** The arguments after `from` with 'base64url' read as 'base64' (its decoder takes `-` and `_` already). */
function asBase64(args: unknown[], from: number): unknown[] {
  return args.map((a, i) => (i >= from && isBase64Url(a) ? 'base64' : a));
}

function wrap(holder: Record<string, unknown>, name: string, from: number): void {
  const original = holder[name] as Fn;
  Object.defineProperty(holder, name, {
    value: { [name](this: unknown, ...args: unknown[]) { return original.apply(this, asBase64(args, from)); } }[name],
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

/**
 * UTF-8 as Node (and the Encoding standard) decodes it: each maximal invalid subsequence becomes
 * one U+FFFD, where the `buffer` package gives one per byte. `start` and `end` clamp as toString's do.
 */
export function decodeUtf8(bytes: Uint8Array, start?: unknown, end?: unknown): string {
  const from = start === undefined || Number(start) < 0 ? 0 : Math.trunc(Number(start)) || 0;
  const to = end === undefined || Number(end) > bytes.length ? bytes.length : Math.trunc(Number(end)) || 0;
  let out = '';
  let units: number[] = [];
  const emit = (cp: number) => {
    if (cp > 0xffff) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    else units.push(cp);
    if (units.length >= 4096) {
      out += String.fromCharCode(...units);
      units = [];
    }
  };
  let needed = 0, seen = 0, cp = 0, lower = 0x80, upper = 0xbf;
  for (let i = from; i < to; i++) {
    const byte = bytes[i] ?? 0;
    if (needed === 0) {
      if (byte <= 0x7f) emit(byte);
      else if (byte >= 0xc2 && byte <= 0xdf) [needed, cp] = [1, byte & 0x1f];
      else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        [needed, cp] = [2, byte & 0xf];
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        [needed, cp] = [3, byte & 0x7];
      } else emit(0xfffd);
      continue;
    }
    if (byte < lower || byte > upper) {
      [needed, seen, cp, lower, upper] = [0, 0, 0, 0x80, 0xbf];
      emit(0xfffd);
      i--; // the byte starts over
      continue;
    }
    [lower, upper] = [0x80, 0xbf];
    cp = (cp << 6) | (byte & 0x3f);
    if (++seen === needed) {
      emit(cp);
      [needed, seen, cp] = [0, 0, 0];
    }
  }
  if (needed !== 0) emit(0xfffd);
  return out + String.fromCharCode(...units);
}

/**
 * Teaches the `buffer` package's Buffer the 'base64url' encoding Node has had since v15.7 (the
 * package knows only the other ones): decoding goes through base64, encoding is base64 with
 * `-`, `_` and no padding. Its UTF-8 decoding becomes Node's (decodeUtf8).
 */
export function asNodeBuffer(B: typeof BufferType): void {
  const statics = B as unknown as Record<string, unknown>;
  const proto = B.prototype as unknown as Record<string, unknown>;
  const isEncoding = B.isEncoding;
  statics.isEncoding = (encoding: unknown) => isBase64Url(encoding) || isEncoding(encoding as string);
  wrap(statics, 'from', 1);
  wrap(statics, 'byteLength', 1);
  wrap(statics, 'alloc', 2);
  for (const name of ['write', 'fill', 'indexOf', 'lastIndexOf', 'includes']) wrap(proto, name, 1);
  const original = proto.toString as Fn;
  Object.defineProperty(proto, 'toString', {
    value: function toString(this: Uint8Array, encoding?: unknown, start?: unknown, end?: unknown) {
      if (encoding === undefined || (typeof encoding === 'string' && /^utf-?8$/i.test(encoding))) return decodeUtf8(this, start, end);
      if (!isBase64Url(encoding)) return original.call(this, encoding, start, end);
      return String(original.call(this, 'base64', start, end)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
