import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ivm from 'isolated-vm';
import { ENVIRONMENT_MODULES_GLOBAL } from '../src/protocol/runtime.ts';
import type { GuestBundle } from '../src/sandbox/bundleGuest.ts';
import { compileRuntime, createStartupSnapshot, runtimeCompilations, runtimeSource, type StartupSnapshot } from '../src/sandbox/runtimeBundle.ts';
import { MAX_SNAPSHOT_FILES, snapshotFile } from '../src/sandbox/snapshotDiskCache.ts';

/**
 * Startup snapshots kept on disk (src/sandbox/snapshotDiskCache.ts): a later process reads the blob
 * instead of making it; a file that is damaged, foreign or made under other flags is never handed
 * to V8 (that would abort the process) but made again and rewritten; a cache that cannot be
 * written keeps nothing, without an error; the files kept are bounded. V8's code caches per
 * snapshot are kept the same way. The blobs made are counted
 * through createStartupSnapshot's `make`, never timed.
 */
const CHILD = fileURLToPath(new URL('./fixtures/snapshotDisk/child.ts', import.meta.url));
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-snapshots-'));
  dirs.push(dir);
  return dir;
}

/** createStartupSnapshot keeping its blobs in `dir`, counting the blobs it had to make. */
function maker(dir: string) {
  const counter = {
    made: 0,
    snapshot(environments: readonly GuestBundle[], fake = false): StartupSnapshot {
      return createStartupSnapshot(environments, {
        dir,
        make: (scripts, warmUp) => {
          counter.made++;
          // A stand-in blob, for what only counts and prunes: no isolate is ever made from it.
          return fake ? new ivm.ExternalCopy(new Uint8Array(64).fill(counter.made).buffer) : ivm.Isolate.createSnapshot(scripts, warmUp);
        },
      });
    },
  };
  return counter;
}

const unique = `${process.pid}-${Date.now()}`;
function bundle(answer: number, name = `disk-${unique}`): GuestBundle {
  return { name, code: `exports.answer = ${answer}; exports.setup = () => {};` };
}

/** What an isolate made from `snapshot` finds of the environment `name`'s module. */
function answerIn(snapshot: StartupSnapshot, name: string): unknown {
  const isolate = new ivm.Isolate({ memoryLimit: 32, snapshot: snapshot.blob });
  try {
    return isolate.createContextSync().evalSync(`${ENVIRONMENT_MODULES_GLOBAL}[${JSON.stringify(name)}].answer`);
  } finally {
    isolate.dispose();
  }
}

/** The key createStartupSnapshot keeps these environments' snapshot under (found with a stand-in blob, in a directory of its own). */
function keyOf(environments: readonly GuestBundle[]): string {
  const { key } = createStartupSnapshot(environments, { dir: tempDir(), make: () => new ivm.ExternalCopy(new ArrayBuffer(8)) });
  assert.ok(key !== undefined, 'the key is known in this process');
  return key;
}

function snapshotFiles(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith('snapshot-') && n.endsWith('.bin'));
}

interface ChildReport {
  readonly made: number;
  readonly found: number;
  /** The runtime's compilation in an isolate made from the base snapshot. */
  readonly runtime: { readonly produced: number; readonly loaded: number; readonly rejected: number };
}
const PRODUCED = { produced: 1, loaded: 0, rejected: 0 };
const LOADED = { produced: 0, loaded: 1, rejected: 0 };

function child(dir: string, flags: readonly string[] = []): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--no-node-snapshot', ...flags, CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (err += d));
    p.on('error', reject);
    p.on('close', (code, signal) => {
      if (code !== 0) reject(new Error(`child ended with ${code ?? signal}: ${err}`));
      else resolve(JSON.parse(out) as ChildReport);
    });
  });
}

test('snapshot disk cache: a later process reads the snapshots and the runtime\'s code cache the first one kept and makes none; one with other V8 flags makes its own', async () => {
  const dir = tempDir();
  assert.deepEqual(await child(dir), { made: 2, found: 42, runtime: PRODUCED }, 'the first process makes the base snapshot and the set\'s');
  assert.deepEqual(snapshotFiles(dir).length, 2);
  assert.deepEqual(await child(dir), { made: 0, found: 42, runtime: LOADED }, 'the second reads them all, and V8 takes the code cache');
  assert.deepEqual(await child(dir, ['--stack-trace-limit=20']), { made: 2, found: 42, runtime: PRODUCED }, 'other flags: other keys');
  assert.equal(snapshotFiles(dir).length, 4);
});

test('snapshot disk cache: processes making the same snapshots at once all run, and leave one whole file of each', async () => {
  const dir = tempDir();
  const runs = await Promise.all([child(dir), child(dir), child(dir)]);
  for (const r of runs) assert.equal(r.found, 42);
  assert.deepEqual(readdirSync(dir).filter((n) => !n.endsWith('.bin')), [], 'no temporary file is left');
  assert.equal(snapshotFiles(dir).length, 2);
  assert.deepEqual(await child(dir), { made: 0, found: 42, runtime: LOADED });
});

test('snapshot disk cache: a code cache made with another process\'s bytes of the same snapshot is not handed to V8 (each process makes different bytes)', async () => {
  const dir = tempDir();
  assert.deepEqual(await child(dir), { made: 2, found: 42, runtime: PRODUCED });
  // The snapshots go; the code caches stay. The next process makes the same snapshots again, with other bytes (V8's hash seeds):
  // the runtime's code cache of the first ones does not fit them, so it is neither loaded nor rejected, but made.
  for (const name of snapshotFiles(dir)) rmSync(join(dir, name));
  assert.deepEqual(await child(dir), { made: 2, found: 42, runtime: PRODUCED });
  assert.deepEqual(await child(dir), { made: 0, found: 42, runtime: LOADED });
});

const DAMAGES: readonly { name: string; damage: (file: string) => void }[] = [
  { name: 'a byte of the blob flipped', damage: (f) => flip(f, (size) => Math.floor(size / 2)) },
  { name: 'its last byte flipped', damage: (f) => flip(f, (size) => size - 1) },
  { name: 'a byte of the header flipped (the sha256)', damage: (f) => flip(f, () => 90) },
  { name: 'truncated to half', damage: (f) => truncateSync(f, Math.floor(readFileSync(f).length / 2)) },
  { name: 'truncated to its header', damage: (f) => truncateSync(f, 120) },
  { name: 'a byte appended', damage: (f) => writeFileSync(f, Buffer.concat([readFileSync(f), Buffer.of(0)])) },
  { name: 'empty', damage: (f) => writeFileSync(f, '') },
];

function flip(file: string, at: (size: number) => number): void {
  const data = readFileSync(file);
  const i = at(data.length);
  data[i] = (data[i] as number) ^ 0xff;
  writeFileSync(file, data);
}

for (const { name, damage } of DAMAGES) {
  test(`snapshot disk cache: a kept file damaged (${name}) is not loaded, but made again and rewritten`, () => {
    const dir = tempDir();
    const m = maker(dir);
    const e = bundle(7);
    m.snapshot([e]);
    const file = snapshotFile(dir, keyOf([e]));
    damage(file);
    const again = m.snapshot([e]);
    assert.equal(m.made, 2, 'the damaged file was not used');
    assert.equal(answerIn(again, e.name), 7);
    m.snapshot([e]);
    assert.equal(m.made, 2, 'the rewritten file is used');
  });
}

test('snapshot disk cache: a file kept under another key (other code) is not used, even at the file name of this key', () => {
  const dir = tempDir();
  const m = maker(dir);
  const one = bundle(1);
  const two = bundle(2);
  m.snapshot([one]);
  assert.equal(m.made, 1);
  copyFileSync(snapshotFile(dir, keyOf([one])), snapshotFile(dir, keyOf([two])));
  const snapshot = m.snapshot([two]);
  assert.equal(m.made, 2, 'the foreign file was not used');
  assert.equal(answerIn(snapshot, two.name), 2);
  m.snapshot([two]);
  m.snapshot([one]);
  assert.equal(m.made, 2, 'each key reads its own file');
});

test('snapshot disk cache: a cache directory that cannot be written keeps nothing and raises nothing; a read-only one with the snapshot is read', () => {
  const file = join(tempDir(), 'a-file');
  writeFileSync(file, '');
  const m = maker(join(file, 'cache'));
  const e = bundle(3);
  assert.equal(answerIn(m.snapshot([e]), e.name), 3);
  assert.equal(answerIn(m.snapshot([e]), e.name), 3);
  assert.equal(m.made, 2, 'nothing was kept: made each time');

  const dir = tempDir();
  const r = maker(dir);
  r.snapshot([e]);
  chmodSync(dir, 0o555);
  try {
    assert.equal(answerIn(r.snapshot([e]), e.name), 3);
    assert.equal(r.made, 1, 'read from the read-only directory');
    r.snapshot([bundle(4)]);
    assert.equal(r.made, 2);
    // Root writes to a read-only directory regardless; any other user keeps nothing there.
    if (process.getuid?.() !== 0) assert.equal(snapshotFiles(dir).length, 1);
  } finally {
    chmodSync(dir, 0o755);
  }
});

test(`snapshot disk cache: at most ${MAX_SNAPSHOT_FILES} files are kept, the least recently used removed first`, () => {
  const dir = tempDir();
  const m = maker(dir);
  const sets = Array.from({ length: MAX_SNAPSHOT_FILES + 1 }, (_, i) => [bundle(i, `disk-lru-${i}`)]);
  const files = sets.map((s) => snapshotFile(dir, keyOf(s)));
  // Kept one by one, an hour ago and a second apart: the first is the oldest.
  sets.slice(0, MAX_SNAPSHOT_FILES).forEach((s, i) => {
    m.snapshot(s, true);
    const at = new Date(Date.now() - 3_600_000 + i * 1000);
    utimesSync(files[i] as string, at, at);
  });
  assert.equal(snapshotFiles(dir).length, MAX_SNAPSHOT_FILES);
  m.snapshot(sets[0] as GuestBundle[], true);
  assert.equal(m.made, MAX_SNAPSHOT_FILES, 'the first set was read: now the most recently used');
  m.snapshot(sets[MAX_SNAPSHOT_FILES] as GuestBundle[], true);
  assert.equal(snapshotFiles(dir).length, MAX_SNAPSHOT_FILES);
  assert.deepEqual(
    files.map((f) => snapshotFiles(dir).includes(f.slice(dir.length + 1))),
    files.map((_, i) => i !== 1),
    'the second set, now the least recently used, was removed',
  );
});

test('snapshot disk cache: the runtime\'s code cache kept with a snapshot is read by a later use of it; a damaged one, or one of other code, is not', async () => {
  const dir = tempDir();
  const code = await runtimeSource();
  /** How compiling the runtime in an isolate made from a new StartupSnapshot (as a new process makes it) of `dir` went. */
  const compile = (source = code) => {
    const snapshot = createStartupSnapshot([], { dir });
    const before = { ...runtimeCompilations };
    const isolate = new ivm.Isolate({ memoryLimit: 32, snapshot: snapshot.blob });
    try {
      compileRuntime(isolate, source, snapshot).release();
    } finally {
      isolate.dispose();
    }
    return { produced: runtimeCompilations.produced - before.produced, loaded: (runtimeCompilations.loaded ?? 0) - (before.loaded ?? 0), rejected: runtimeCompilations.rejected - before.rejected };
  };
  assert.deepEqual(compile(), PRODUCED);
  assert.deepEqual(compile(), LOADED);
  const [file] = readdirSync(dir).filter((n) => n.startsWith('codecache-'));
  assert.ok(file !== undefined);
  flip(join(dir, file), (size) => size - 1);
  assert.deepEqual(compile(), PRODUCED, 'the damaged file was not used');
  assert.deepEqual(compile(), LOADED, 'and was rewritten');
  assert.deepEqual(compile(`${code}\n`), PRODUCED, 'other code: another key');
});
