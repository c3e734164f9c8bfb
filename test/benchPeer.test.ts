import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

// eval/benchPeer.ts run as `npm run bench-peer` runs it; no test needs a real Fakeium.
const SCRIPT = new URL('../eval/benchPeer.ts', import.meta.url).pathname;

function benchPeer(args: readonly string[]) {
  return spawnSync(process.execPath, ['--no-node-snapshot', '--expose-gc', SCRIPT, ...args], { encoding: 'utf8', timeout: 120_000 });
}

test('bench-peer: without --fakeium it says that a built Fakeium is needed and writes nothing', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'snipexec-peer-')), 'peer.json');
  const r = benchPeer(['--out', out]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--fakeium DIR is required: the directory of a built Fakeium/);
  assert.equal(existsSync(out), false);
});

test('bench-peer: a --fakeium directory without dist/index.js is named, and nothing is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-peer-'));
  const out = join(dir, 'peer.json');
  const r = benchPeer(['--fakeium', dir, '--out', out]);
  assert.equal(r.status, 2, r.stderr);
  assert.ok(r.stderr.includes(`${join(dir, 'dist', 'index.js')} is absent`), r.stderr);
  assert.equal(existsSync(out), false);
});

test('bench-peer: a stand-in Fakeium in its child process answers per snippet; rows that do not compile as a script are skipped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-peer-'));
  mkdirSync(join(dir, 'dist'));
  // Fakeium's API as benchPeerFakeium.ts calls it; run() throws as Fakeium does on an uncaught error.
  writeFileSync(join(dir, 'dist', 'index.js'), [
    'class ExecutionError extends Error {}',
    'export class Fakeium {',
    '  events = 0;',
    '  setResolver() {}',
    '  async run(specifier, code) { this.events += 2; if (code.includes("boom")) throw new ExecutionError("x", { cause: new TypeError("boom is not a function") }); }',
    '  getReport() { return { size: () => this.events, clear: () => { this.events = 0; } }; }',
    '  dispose() {}',
    '}',
  ].join('\n'));
  const so = join(dir, 'so.jsonl');
  const rows = [
    { id: 'module', code: 'import x from "y";\nx();' },
    { id: 'plain', code: 'const a = 1 + 2;\nconsole.log(a);' },
    { id: 'throws', code: 'function boom() { throw new Error("no"); }\nboom();' },
    { id: 'past-limit', code: 'console.log(3);' },
  ];
  writeFileSync(so, rows.map((r) => JSON.stringify(r)).join('\n'));
  const out = join(dir, 'peer.json');
  const r = benchPeer(['--fakeium', dir, '--so-file', so, '--so-limit', '2', '--sets', 'so', '--warmup', '0', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as { sets: { name: string; snippets: number; skipped: number; fakeium: { outcomes: Record<string, number>; events: number }; one: { statusCounts: Record<string, number> }; defaults: { statusCounts: Record<string, number> }; rows: { id: string; fakeium: { outcome: string; detail?: string } }[] }[] };
  assert.deepEqual(result.sets.map((s) => s.name), ['so']);
  const set = result.sets[0]!;
  assert.deepEqual(set.rows.map((x) => [x.id, x.fakeium.outcome, x.fakeium.detail]), [['plain', 'ok', undefined], ['throws', 'ExecutionError', 'boom is not a function']]);
  assert.equal(set.skipped, 1);
  assert.deepEqual(set.fakeium.outcomes, { ok: 1, ExecutionError: 1 });
  assert.equal(set.fakeium.events, 4);
  assert.equal(Object.values(set.one.statusCounts).reduce((a, b) => a + b, 0), 2);
  assert.equal(Object.values(set.defaults.statusCounts).reduce((a, b) => a + b, 0), 2);
  assert.match(r.stdout, /\| snipexec \/ Fakeium, total \| \| [\d.]+× \(target ≤ 1\.0×: (met|missed)\)/);
});
