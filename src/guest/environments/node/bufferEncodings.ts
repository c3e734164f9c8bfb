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
 * Teaches the `buffer` package's Buffer the 'base64url' encoding Node has had since v15.7 (the
 * package knows only the other ones): decoding goes through base64, encoding is base64 with
 * `-`, `_` and no padding.
 */
export function addBase64Url(B: typeof BufferType): void {
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
    value: function toString(this: unknown, encoding?: unknown, ...rest: unknown[]) {
      if (!isBase64Url(encoding)) return original.call(this, encoding, ...rest);
      return String(original.call(this, 'base64', ...rest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
