import { blake2b, blake2s } from '@noble/hashes/blake2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { md5, ripemd160, sha1 } from '@noble/hashes/legacy.js';
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from '@noble/hashes/sha2.js';
import { sha3_224, sha3_256, sha3_384, sha3_512, shake128, shake256 } from '@noble/hashes/sha3.js';
import type { CHash } from '@noble/hashes/utils.js';
import { EventEmitter } from 'events';
import { Buffer } from '../node/shims/globalBuffer.ts';

/** A noble hash function: `create()` gives an incremental hasher (`create({ dkLen })` for an extendable one). */
export type HashFn = CHash;

/** The digests `createHash`/`createHmac` know, by the names Node (OpenSSL) lists in getHashes(), without the RSA- and WithRSAEncryption aliases. */
export const HASHES: Readonly<Record<string, HashFn>> = {
  md5, sha1, ripemd160, ripemd: ripemd160, rmd160: ripemd160, sha224, sha256, sha384, sha512, 'sha512-224': sha512_224, 'sha512-256': sha512_256,
  'sha3-224': sha3_224, 'sha3-256': sha3_256, 'sha3-384': sha3_384, 'sha3-512': sha3_512, shake128, shake256, blake2b512: blake2b, blake2s256: blake2s,
};

/** The hash function for a name as Node accepts it: any case, `SHA-256`, `RSA-SHA256`, `sha256WithRSAEncryption`, `RSA-SHA512/256`; throws Node's error otherwise. */
export function hashNamed(name: unknown): HashFn {
  const key = String(name).toLowerCase().replace(/^rsa-/, '').replace(/withrsaencryption$/, '').replace(/^sha-(\d)/, 'sha$1').replace('/', '-');
  const fn = Object.hasOwn(HASHES, key) ? HASHES[key] : undefined;
  if (!fn) throw Object.assign(new Error('Digest method not supported'), { code: 'ERR_CRYPTO_INVALID_DIGEST' });
  return fn;
}

/** Data as bytes, as Node's hash.update(data, inputEncoding) reads it. */
export function bytesOf(data: unknown, encoding?: unknown): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw Object.assign(new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? 'null' : typeof data}`), { code: 'ERR_INVALID_ARG_TYPE' });
}

/** A digest as Node returns it: a Buffer, or a string in the encoding asked for. */
export function digestAs(bytes: Uint8Array, encoding?: unknown): Buffer | string {
  const buf = Buffer.from(bytes);
  return typeof encoding === 'string' && encoding !== 'buffer' ? buf.toString(encoding as BufferEncoding) : buf;
}

interface Incremental {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
  clone(): Incremental;
}

/**
 * Node's Hash/Hmac object over an incremental noble hasher: update() chains, digest() once. It is
 * also a stream, as Node's is: write() updates, end() finishes, and read() (or 'data') gives the
 * digest, in the encoding setEncoding() chose; so `source.pipe(hash)` works.
 */
export class HashModel extends EventEmitter {
  #state: Incremental;
  #done = false;
  #encoding: unknown;
  #output: Buffer | string | null = null;
  constructor(state: Incremental) {
    super();
    this.#state = state;
  }
  update(data: unknown, encoding?: unknown): this {
    if (this.#done) throw Object.assign(new Error('Digest already called'), { code: 'ERR_CRYPTO_HASH_FINALIZED' });
    this.#state.update(bytesOf(data, encoding));
    return this;
  }
  digest(encoding?: unknown): Buffer | string {
    if (this.#done) throw Object.assign(new Error('Digest already called'), { code: 'ERR_CRYPTO_HASH_FINALIZED' });
    this.#done = true;
    return digestAs(this.#state.digest(), encoding);
  }
  copy(): HashModel {
    return new HashModel(this.#state.clone());
  }
  setEncoding(encoding: unknown): this {
    this.#encoding = encoding;
    return this;
  }
  write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    this.update(chunk, typeof encoding === 'string' ? encoding : undefined);
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)());
    return true;
  }
  end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.update(chunk, typeof encoding === 'string' ? encoding : undefined);
    if (this.#done) return this;
    const output = this.digest(this.#encoding);
    this.#output = output;
    const cb = [chunk, encoding, callback].find((a) => typeof a === 'function') as (() => void) | undefined;
    queueMicrotask(() => {
      this.emit('finish');
      if (this.listenerCount('data') > 0) {
        this.#output = null;
        this.emit('data', output);
      } else this.emit('readable');
      this.emit('end');
      cb?.();
    });
    return this;
  }
  /** The digest once the stream ended, then null. */
  read(): Buffer | string | null {
    const output = this.#output;
    this.#output = null;
    return output;
  }
  pipe<T extends { write?: (c: unknown) => unknown; end?: () => unknown }>(dest: T): T {
    this.once('end', () => {
      const output = this.read();
      if (output !== null) dest.write?.(output);
      dest.end?.();
    });
    return dest;
  }
}

/** `createHash(algorithm, { outputLength })`: the output length is for the extendable shake128/shake256. */
export function createHash(algorithm: unknown, options?: { outputLength?: unknown }): HashModel {
  const fn = hashNamed(algorithm);
  const length = options?.outputLength;
  const create = fn.create as (options?: { dkLen: number }) => unknown;
  return new HashModel((typeof length === 'number' ? create({ dkLen: length }) : create()) as Incremental);
}

export function createHmac(algorithm: unknown, key: unknown): HashModel {
  return new HashModel(hmac.create(hashNamed(algorithm), bytesOf(key)) as unknown as Incremental);
}
