import { Buffer } from '../node/shims/globalBuffer.ts';

/**
 * Randomness from the runtime's seeded Math.random (read at each call, so a run is repeatable):
 * snippets get plausible random values, and the same ones on every run. Not for real secrets;
 * nothing here is.
 */
export function createRandomness(random: () => number) {
  const byte = () => Math.floor(random() * 256);
  const fill = <T extends ArrayBufferView>(view: T): T => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = byte();
    return view;
  };
  const randomBytes = (size: number, callback?: (error: Error | null, buf: Buffer) => void): Buffer | undefined => {
    const buf = fill(Buffer.alloc(Number(size) || 0));
    if (typeof callback !== 'function') return buf;
    queueMicrotask(() => callback(null, buf));
    return undefined;
  };
  const randomUUID = (): string => {
    const b = fill(new Uint8Array(16));
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40; // version 4
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
    const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  const randomInt = (minOrMax: number, maxOrCallback?: unknown, callback?: unknown): number | undefined => {
    const [min, max] = typeof maxOrCallback === 'number' ? [minOrMax, maxOrCallback] : [0, minOrMax];
    const n = min + Math.floor(random() * (max - min));
    const cb = [maxOrCallback, callback].find((a) => typeof a === 'function') as ((e: null, n: number) => void) | undefined;
    if (!cb) return n;
    queueMicrotask(() => cb(null, n));
    return undefined;
  };
  return { randomBytes, randomUUID, randomInt, getRandomValues: fill, randomFillSync: fill };
}
