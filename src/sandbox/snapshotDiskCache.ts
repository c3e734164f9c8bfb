import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ivm from 'isolated-vm';
import { cacheDir } from './bundleGuest.ts';
import { keepNewest, readCheckedBlob, writeCheckedBlob } from './checkedBlobFile.ts';
import type { KeptCodeCache } from './scriptCodeCache.ts';

/**
 * Startup snapshots kept on disk between processes (beside the bundles, cacheDir()): making one
 * costs 40-240 ms of CPU (ivm.Isolate.createSnapshot), reading one back a few. A snapshot is V8's
 * heap as this V8 build, with these flags, laid it out: one from another build or other flags
 * aborts the process (a V8 CHECK, no exception) when an isolate is made from it. So a file is
 * used only under the key of everything its blob depends on (snapshotKey), and only when its bytes
 * hash to the sha256 written with them (checkedBlobFile.ts); else the snapshot is made again and
 * the file rewritten. V8's code caches of the scripts compiled in isolates made from a snapshot
 * are kept the same way, under the snapshot's key (codeCacheKeeper).
 */

/** Snapshot files kept at most, the least recently used removed first: the base one is about 0.6 MB, an environment set's 0.8-2.4 MB. */
export const MAX_SNAPSHOT_FILES = 12;

/** V8 code cache files kept at most (the runtime's is about 70 KB per snapshot, an environment's loaded at run time up to a few hundred). */
export const MAX_CODE_CACHE_FILES = 32;

const PREFIX = 'snapshot-';
const CODE_CACHE_PREFIX = 'codecache-';
const SUFFIX = '.bin';

/** Bumped when what a kept snapshot holds changes in a way its scripts do not show. */
const FORMAT = 1;

let fingerprint: string | null | undefined;

/**
 * What a snapshot's layout depends on besides its scripts: Node's and V8's versions, the platform,
 * the Node binary and isolated-vm's native binary (path, size, mtime: a rebuild of either), and the
 * flags the process runs with (execArgv, NODE_OPTIONS: V8 flags change the heap's layout). Undefined
 * when any of it cannot be known: nothing is then kept or loaded. V8 flags set at run time
 * (v8.setFlagsFromString) do not show; snipexec sets none.
 */
export function runtimeFingerprint(): string | undefined {
  if (fingerprint === undefined) {
    try {
      const require = createRequire(import.meta.url);
      const ivmPackage = require.resolve('isolated-vm/package.json');
      const ivmVersion = (JSON.parse(readFileSync(ivmPackage, 'utf8')) as { version: string }).version;
      // The binary isolated-vm loads, found as it finds it (node-gyp-build: a local build, else a prebuild).
      const findBinary = createRequire(ivmPackage)('node-gyp-build') as { path(dir: string): string };
      const binary = findBinary.path(dirname(ivmPackage));
      const stamp = (file: string) => {
        const s = statSync(file);
        return [file, s.size, s.mtimeMs];
      };
      fingerprint = JSON.stringify([FORMAT, process.version, process.versions.v8, process.arch, process.platform, ivmVersion, stamp(binary), stamp(process.execPath), process.execArgv, process.env.NODE_OPTIONS ?? '']);
    } catch {
      fingerprint = null;
    }
  }
  return fingerprint ?? undefined;
}

/** The key of the snapshot these scripts and this warm-up script make in this process (a sha256 in hex); undefined when it cannot be known (runtimeFingerprint). */
export function snapshotKey(scripts: readonly ivm.SnapshotScriptInfo[], warmUp: string | undefined): string | undefined {
  const runtime = runtimeFingerprint();
  if (runtime === undefined) return undefined;
  const hash = createHash('sha256').update(runtime);
  for (const { code, ...origin } of scripts) hash.update('\0').update(JSON.stringify(origin)).update('\0').update(code);
  hash.update(warmUp === undefined ? '\0no warm-up' : `\0warm-up\0${warmUp}`);
  return hash.digest('hex');
}

/** The file a snapshot of this key is kept in, in `dir`. */
export function snapshotFile(dir: string, key: string): string {
  return join(dir, `${PREFIX}${key.slice(0, 32)}${SUFFIX}`);
}

/** The directory snapshots are kept in: `dir` when given, else cacheDir(); undefined when there is none. */
function where(dir: string | undefined): string | undefined {
  if (dir !== undefined) return dir;
  try {
    return cacheDir();
  } catch {
    return undefined;
  }
}

/** The snapshot of this key kept in `dir` (default cacheDir()), when one is there whole. */
export function readSnapshot(key: string, dir?: string): ivm.ExternalCopy<ArrayBuffer> | undefined {
  const at = where(dir);
  const bytes = at === undefined ? undefined : readCheckedBlob(snapshotFile(at, key), key);
  return bytes === undefined ? undefined : new ivm.ExternalCopy(bytes, { transferOut: true });
}

/** Keeps a snapshot just made under its key, then the MAX_SNAPSHOT_FILES most recently used; a cache that cannot be written keeps nothing, silently. */
export function writeSnapshot(key: string, blob: ivm.ExternalCopy<ArrayBuffer>, dir?: string): void {
  writeBlob(snapshotFile, key, blob, dir, PREFIX, MAX_SNAPSHOT_FILES);
}

/** The file a code cache of this key is kept in, in `dir`. */
export function codeCacheFile(dir: string, key: string): string {
  return join(dir, `${CODE_CACHE_PREFIX}${key.slice(0, 32)}${SUFFIX}`);
}

/**
 * Where the V8 code cache of the script `filename` for isolates made from the snapshot of
 * `snapshotKey` is kept (ScriptCodeCache): under a key of the snapshot's, the filename and the
 * script's code. V8 checks a code cache itself (its version, flags and the source's length) and
 * refuses one that does not fit rather than aborting; the sha256 guards against damage all the same.
 */
export function codeCacheKeeper(snapshotKey: string, filename: string, dir?: string): KeptCodeCache {
  const keyOf = (code: string) => createHash('sha256').update(snapshotKey).update('\0').update(filename).update('\0').update(code).digest('hex');
  return {
    read(code) {
      const at = where(dir);
      const key = keyOf(code);
      const bytes = at === undefined ? undefined : readCheckedBlob(codeCacheFile(at, key), key);
      return bytes === undefined ? undefined : new ivm.ExternalCopy(bytes, { transferOut: true });
    },
    write(code, cache) {
      writeBlob(codeCacheFile, keyOf(code), cache, dir, CODE_CACHE_PREFIX, MAX_CODE_CACHE_FILES);
    },
  };
}

function writeBlob(fileOf: (dir: string, key: string) => string, key: string, blob: ivm.ExternalCopy<ArrayBuffer>, dir: string | undefined, prefix: string, max: number): void {
  const at = where(dir);
  if (at === undefined) return;
  try {
    mkdirSync(at, { recursive: true });
    writeCheckedBlob(fileOf(at, key), key, new Uint8Array(blob.copy() as ArrayBuffer));
  } catch {
    return; // a read-only install: the next process makes it again, which is only slower
  }
  keepNewest(at, prefix, SUFFIX, max);
}
