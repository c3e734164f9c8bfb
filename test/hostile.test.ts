import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, selected } from './helpers.ts';

/** Each hostile snippet runs in a child process; it must end with its status and the host must survive. */
const CASES = [
  { name: 'while(true)', code: 'while (true) {}', status: ['timeout'] },
  { name: 'spin loop in a promise continuation', code: 'Promise.resolve().then(() => { while (true) {} });', status: ['timeout'] },
  { name: 'timer that re-arms itself forever', code: 'function f() { setTimeout(f, 0); }\nf();', status: ['completed', 'timeout'] },
  { name: 'memory bomb', code: 'const a = [];\nwhile (true) a.push(new Array(1e6).fill(1));', status: ['memory-limit'] },
  { name: 'huge ArrayBuffer', code: 'new ArrayBuffer(2 ** 31);', status: ['stopped', 'memory-limit'] },
  { name: 'deep recursion', code: 'function f() { return f(); }\nf();', status: ['stopped'] },
  { name: '100 MB of console output', code: 'const s = "x".repeat(1e6);\nfor (let i = 0; i < 100; i++) console.log(s);', status: ['completed', 'timeout'], maxStdout: 1024 * 1024 },
  { name: '100 MB return value', code: 'return "x".repeat(1e8);', status: ['completed', 'memory-limit'], maxStdout: 1024 * 1024 },
  { name: 'catastrophic backtracking', code: '/(a+)+$/.test("a".repeat(40) + "b");', status: ['timeout'] },
  { name: 'Function constructor escape', code: 'const p = this.constructor.constructor("return process")();\nconsole.log(p.pid);', status: ['stopped'] },
  { name: 'Error.prepareStackTrace tricks', code: 'Error.prepareStackTrace = (e, frames) => frames.map((f) => [typeof f.getThis(), typeof f.getFunction()]);\nconst st = new Error("x").stack;\nconsole.log(JSON.stringify(st));\nconsole.log(typeof require, typeof process);', status: ['completed'], stdoutNot: /object|function/ },
  { name: 'unhandled rejection', code: 'Promise.reject(new Error("nobody catches me"));\nconsole.log("after");', status: ['stopped', 'completed'] },
] as const;

for (const c of selected(CASES)) {
  test(`hostile: ${c.name}`, { timeout: 60_000 }, () => {
    const r = cli(['run', '-', '--json', '--timeout', '1500', '--mode', 'none'], c.code);
    assert.equal(r.signal, null, `host killed by ${r.signal}: ${r.stderr}`);
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
    const result = JSON.parse(r.stdout) as { status: string; stdout: string; elapsedMs: number };
    assert.ok((c.status as readonly string[]).includes(result.status), `status ${result.status}`);
    assert.ok(result.elapsedMs < 20_000, 'ends within the total time budget');
    if ('maxStdout' in c) assert.ok(r.stdout.length < c.maxStdout, `stdout is capped (${r.stdout.length})`);
    if ('stdoutNot' in c) assert.doesNotMatch(result.stdout.split('\n')[1] ?? '', /function|object/, 'no host require or process');
  });
}

test('hostile: prototype pollution does not reach the next snippet', async () => {
  const { runSnippet } = await import('../src/index.ts');
  await runSnippet('Object.prototype.polluted = "yes"; Array.prototype.map = null;', { mode: 'none' });
  const r = await runSnippet('console.log(({}).polluted, typeof [].map);', { mode: 'none' });
  assert.equal(r.stdout, 'undefined function\n');
});

test('hostile: nothing of the host is reachable from any global', async () => {
  const { runSnippet } = await import('../src/index.ts');
  const probe = `
const seen = new Set(); const bad = [];
function walk(v, path, depth) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 3) return;
  seen.add(v);
  const ctor = v.constructor && v.constructor.name;
  if (ctor === 'Reference' || ctor === 'ExternalCopy' || ctor === 'Isolate' || ctor === 'Callback') bad.push(path);
  for (const k of Object.getOwnPropertyNames(v)) { let x; try { x = v[k]; } catch { continue; } walk(x, path + '.' + k, depth + 1); }
}
walk(globalThis, 'globalThis', 0);
console.log(bad.length, typeof process, typeof require, typeof $0, typeof $1);`;
  const r = await runSnippet(probe, { mode: 'none' });
  assert.equal(r.stdout, '0 undefined undefined undefined undefined\n');
});

test('hostile: binary and non-UTF-8 input gets a clear error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-'));
  const bin = join(dir, 'a.js');
  writeFileSync(bin, Buffer.from([0x63, 0x6f, 0x00, 0xff, 0xfe, 0x01]));
  const r = cli(['run', bin, '--json']);
  const result = JSON.parse(r.stdout) as { status: string; errors: { message: string }[] };
  assert.equal(result.status, 'syntax-error');
  assert.match(result.errors[0]?.message ?? '', /UTF-8|binary/);
});

test('hostile: a 50 MB file is refused without running', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-'));
  const big = join(dir, 'big.js');
  writeFileSync(big, '// ' + 'x'.repeat(50 * 1024 * 1024));
  const r = cli(['run', big, '--json']);
  const result = JSON.parse(r.stdout) as { status: string; errors: { message: string }[] };
  assert.equal(result.status, 'syntax-error');
  assert.match(result.errors[0]?.message ?? '', /over the limit/);
});
