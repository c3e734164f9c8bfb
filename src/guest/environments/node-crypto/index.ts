/**
 * The `node-crypto` environment: `crypto` with hashes and HMACs from @noble/hashes (md5, sha1,
 * sha2, sha3, ripemd160), pbkdf2, timingSafeEqual, and randomness from the runtime's seeded
 * Math.random (randomUUID, randomBytes, randomInt), so a run is repeatable. Ciphers, signatures
 * and key pairs are not modelled: they are learnt from usage, as Node's members the model lacks. Needs the `node` environment (its Buffer, taken at setup).
 */
import { pbkdf2 as noblePbkdf2 } from '@noble/hashes/pbkdf2.js';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { Buffer, takeGlobalBuffer } from '../node/shims/globalBuffer.ts';
import { withLearntGaps } from '../shared/learnGaps.ts';
import { bytesOf, createHash, createHmac, HASHES, hashNamed } from './hashes.ts';
import { createRandomness } from './randomness.ts';

export function setup(host: EnvironmentHost): void {
  takeGlobalBuffer(host.global);
  const math = host.global.Math;
  const random = math.random; // the runtime's seeded generator, taken before the snippet can replace it
  const randomness = createRandomness(() => random.call(math));
  const pbkdf2Sync = (password: unknown, salt: unknown, iterations: number, keylen: number, digest: unknown) =>
    Buffer.from(noblePbkdf2(hashNamed(digest ?? 'sha1'), bytesOf(password), bytesOf(salt), { c: Number(iterations), dkLen: Number(keylen) }));
  const crypto = {
    createHash,
    createHmac,
    hash: (algorithm: unknown, data: unknown, encoding: unknown = 'hex') => createHash(algorithm).update(data).digest(encoding),
    getHashes: () => Object.keys(HASHES),
    pbkdf2Sync,
    pbkdf2(password: unknown, salt: unknown, iterations: number, keylen: number, digest: unknown, callback: (e: Error | null, key?: Buffer) => void) {
      let key: Buffer;
      try {
        key = pbkdf2Sync(password, salt, iterations, keylen, digest);
      } catch (error) {
        queueMicrotask(() => callback(error as Error));
        return;
      }
      queueMicrotask(() => callback(null, key));
    },
    timingSafeEqual(a: unknown, b: unknown): boolean {
      const x = bytesOf(a), y = bytesOf(b);
      if (x.length !== y.length) throw Object.assign(new RangeError('Input buffers must have the same byte length'), { code: 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH' });
      let diff = 0;
      for (let i = 0; i < x.length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
      return diff === 0;
    },
    ...randomness,
    pseudoRandomBytes: randomness.randomBytes, // Node's deprecated, non-enumerable alias (DEP0115), still there in Node 24
    webcrypto: { getRandomValues: randomness.getRandomValues, randomUUID: randomness.randomUUID },
    constants: {},
  };
  // ciphers, signatures, key pairs …: Node's members the model lacks are learnt from usage
  host.defineModule('crypto', withLearntGaps(crypto, 'require("crypto")', 'crypto', (id, reason) => host.valueOf(id, reason)));
}
