import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../core/writeFileAtomically.ts';

/**
 * Binary blobs kept on disk with what vouches for them: a header holding the key the blob was made
 * under and the sha256 and length of its bytes. A file that is short, long, foreign (another key)
 * or whose bytes do not hash to its header's sha256 is never handed on: a V8 startup snapshot that
 * is not exactly what V8 wrote aborts the process when an isolate is made from it.
 *
 * Layout: MAGIC (16 bytes) | key (64 hex characters) | sha256 of the bytes (32) | length (8, LE) | bytes.
 */
const MAGIC = Buffer.from('snipexec-blob-1\n', 'latin1');
const KEY_BYTES = 64;
const HEADER_BYTES = MAGIC.length + KEY_BYTES + 32 + 8;

/** How long a temporary file a writer left (it crashed between write and rename) is kept before pruning removes it. */
const STALE_TEMP_MS = 10 * 60_000;

/** The bytes kept in `file` under `key` (a sha256 in hex), or undefined when there are none or they do not check out. Reading one marks it used (its mtime), for keepNewest. */
export function readCheckedBlob(file: string, key: string): ArrayBuffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined; // none yet, or pruned by another process meanwhile
  }
  if (data.length < HEADER_BYTES || !data.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (data.toString('latin1', MAGIC.length, MAGIC.length + KEY_BYTES) !== key) return undefined;
  const sha = data.subarray(MAGIC.length + KEY_BYTES, MAGIC.length + KEY_BYTES + 32);
  const length = data.readBigUInt64LE(HEADER_BYTES - 8);
  if (length !== BigInt(data.length - HEADER_BYTES)) return undefined;
  const bytes = data.subarray(HEADER_BYTES);
  if (!createHash('sha256').update(bytes).digest().equals(sha)) return undefined;
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // a read-only cache: the order of use is not kept, which pruning only guesses worse with
  }
  // A copy the caller owns (the Buffer's memory may be shared with others of Node's pool).
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
}

/** Writes `bytes` under `key` to `file` atomically (writeFileAtomically). Throws what it throws. */
export function writeCheckedBlob(file: string, key: string, bytes: Uint8Array): void {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new TypeError(`a blob's key is a sha256 in hex, not ${JSON.stringify(key)}`);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.write(key, MAGIC.length, 'latin1');
  createHash('sha256').update(bytes).digest().copy(header, MAGIC.length + KEY_BYTES);
  header.writeBigUInt64LE(BigInt(bytes.length), HEADER_BYTES - 8);
  writeFileAtomically(file, Buffer.concat([header, bytes]));
}

/**
 * Keeps the `max` most recently used files of `dir` whose names start with `prefix` and end with
 * `suffix` (by mtime, which readCheckedBlob refreshes), removing the others and the temporary files
 * writers of them left over STALE_TEMP_MS ago. Another process pruning at once only makes removals fail, which are ignored.
 */
export function keepNewest(dir: string, prefix: string, suffix: string, max: number): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  const now = Date.now();
  const kept: { name: string; mtime: number }[] = [];
  for (const name of names) {
    let mtime: number;
    try {
      mtime = statSync(join(dir, name)).mtimeMs;
    } catch {
      continue;
    }
    if (name.endsWith(suffix)) kept.push({ name, mtime });
    else if (name.endsWith('.tmp') && now - mtime > STALE_TEMP_MS) remove(join(dir, name));
  }
  kept.sort((a, b) => b.mtime - a.mtime);
  for (const { name } of kept.slice(max)) remove(join(dir, name));
}

function remove(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // read-only, or removed meanwhile
  }
}
