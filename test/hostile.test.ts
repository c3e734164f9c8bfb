import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, selected } from './helpers.ts';

/**
 * Each hostile snippet runs in a child process; it must end with its one true status, print nothing
 * that would show the attack worked, and leave the host alive. A snippet whose true status is not a
 * timeout gets a generous --timeout, so a slow or loaded machine cannot change its status.
 */
interface HostileCase {
  readonly name: string;
  readonly code: string;
  readonly status: 'completed' | 'stopped' | 'timeout' | 'memory-limit';
  /** The run's stdout, exactly; or a check of it. */
  readonly stdout: string | ((stdout: string) => void);
  /** The type and message of the one error, for a stopped run. */
  readonly error?: readonly [string, RegExp];
  /** --timeout of the run: short when the true status is a timeout, generous otherwise. */
  readonly timeoutMs?: number;
}

const GENEROUS_MS = 60_000;
const CONSOLE_CAP = 64 * 1024;

const CASES: readonly HostileCase[] = [
  { name: 'while(true)', code: 'while (true) {}\nconsole.log("escaped the loop");', status: 'timeout', timeoutMs: 250, stdout: (out) => assert.doesNotMatch(out, /escaped/) },
  {
    name: 'spin loop in a promise continuation', code: 'Promise.resolve().then(() => { while (true) {} }).then(() => console.log("escaped the loop"));',
    status: 'timeout', timeoutMs: 250, stdout: (out) => assert.doesNotMatch(out, /escaped/),
  },
  {
    // f runs once at the top level, then from its timer until 1,000 firings in a row covered nothing new (staleTimerTicks);
    // the timeout due after it still runs. (test/staleTimers.test.ts checks the 10,000-tick cap with the rule off.)
    name: 'timer that re-arms itself forever', code: 'let n = 0;\nfunction f() { n++; setTimeout(f, 0); }\nf();\nsetTimeout(() => console.log(n), 1e9);',
    status: 'completed', stdout: '1001\n\n[snipexec: a timer was not run again: its callback stopped covering anything new (staleTimerTicks)]\n',
  },
  {
    // Seven doublings of a flat 1 MiB string pass the 128 MiB heap limit: few operations, no pointers for the GC to scan.
    // Arrays, not doubling strings: a doubling string reaches V8's longest string ("Invalid string
    // length") at about the size the memory limit ends it at, so which came first was a race.
    name: 'memory bomb', code: 'const keep = [];\nfor (;;) keep.push(new Array(1 << 20).fill(1.5));',
    status: 'memory-limit', stdout: '',
  },
  { name: 'huge ArrayBuffer', code: 'const buf = new ArrayBuffer(2 ** 31);\nconsole.log("allocated", buf.byteLength);', status: 'stopped', error: ['RangeError', /Array buffer allocation failed/], stdout: '' },
  { name: 'deep recursion', code: 'function f() { return f(); }\nf();\nconsole.log("returned");', status: 'stopped', error: ['RangeError', /Maximum call stack size exceeded/], stdout: '' },
  {
    name: '100 MB of console output', code: 'const s = "x".repeat(1e6);\nfor (let i = 0; i < 100; i++) console.log(s);', status: 'completed',
    stdout: (out) => {
      const m = /^(x+)\n\[snipexec: (\d+) more bytes of console output dropped\]\n$/.exec(out);
      assert.ok(m, `capped output, then the count of what was dropped: ${out.slice(-120)}`);
      assert.equal(m[1]!.length, CONSOLE_CAP, 'the first 64 KiB are kept');
      assert.equal(Number(m[2]) + CONSOLE_CAP, 100 * (1e6 + 1), 'every byte is either kept or counted');
    },
  },
  { name: '100 MB return value', code: 'return "x".repeat(1e8);', status: 'completed', stdout: '' },
  { name: 'catastrophic backtracking', code: '/(a+)+$/.test("a".repeat(40) + "b");\nconsole.log("escaped the regex");', status: 'timeout', timeoutMs: 250, stdout: (out) => assert.doesNotMatch(out, /escaped/) },
  {
    name: 'Function constructor escape', code: 'const p = this.constructor.constructor("return process")();\nconsole.log(p.pid);',
    status: 'stopped', error: ['ReferenceError', /^process is not defined$/], stdout: '',
  },
  {
    // The names are computed: naming process or require would load the node environment, whose models are checked below.
    name: 'Error.prepareStackTrace tricks',
    code: 'Error.prepareStackTrace = (e, frames) => frames.map((f) => [typeof f.getThis(), typeof f.getFunction()]);\nconst st = new Error("x").stack;\nconsole.log(JSON.stringify(st));\nconsole.log(typeof globalThis["req" + "uire"], typeof globalThis["pro" + "cess"]);',
    status: 'completed',
    stdout: (out) => {
      const [frames, globals, rest] = out.split('\n');
      assert.doesNotMatch(frames ?? '', /function|object/, 'no frame hands out its receiver or function');
      assert.equal(globals, 'undefined undefined', 'no host require or process');
      assert.equal(rest, '');
    },
  },
  {
    name: 'toJSON on Object.prototype does not reach the report', code: 'Object.prototype.toJSON = () => 1;\nconsole.log("x");',
    status: 'completed', stdout: 'x\n',
  },
  {
    name: 'toJSON on Array.prototype does not reach the report', code: 'Array.prototype.toJSON = () => [1];\nconsole.log("x");',
    status: 'completed', stdout: 'x\n',
  },
  {
    name: 'unhandled rejection', code: 'Promise.reject(new Error("nobody catches me"));\nconsole.log("after");',
    status: 'stopped', error: ['UnhandledRejection', /^nobody catches me$/], stdout: 'after\n',
  },
];

for (const c of selected(CASES)) {
  test(`hostile: ${c.name}`, { timeout: 3 * GENEROUS_MS }, () => {
    const r = cli(['run', '-', '--json', '--timeout', String(c.timeoutMs ?? GENEROUS_MS), '--mode', 'none'], c.code, 3 * GENEROUS_MS);
    assert.equal(r.signal, null, `host killed by ${r.signal}: ${r.stderr}`);
    assert.equal(r.code, c.status === 'completed' ? 0 : 1, `exit ${r.code}: ${r.stderr}`);
    assert.ok(r.stdout.length < 1024 * 1024, `the JSON result is small (${r.stdout.length} bytes)`);
    const result = JSON.parse(r.stdout) as { status: string; stdout: string; errors: { type: string; message: string; attribution: string }[] };
    assert.equal(result.status, c.status, JSON.stringify(result.errors));
    if (typeof c.stdout === 'string') assert.equal(result.stdout, c.stdout);
    else c.stdout(result.stdout);
    if (c.error) {
      assert.deepEqual(result.errors.map((e) => e.type), [c.error[0]]);
      assert.match(result.errors[0]!.message, c.error[1]);
    }
  });
}

test('hostile: prototype pollution does not reach the next snippet', async () => {
  const { runSnippet } = await import('../src/index.ts');
  await runSnippet('Object.prototype.polluted = "yes"; Array.prototype.map = null;', { mode: 'none' });
  const r = await runSnippet('console.log(({}).polluted, typeof [].map);', { mode: 'none' });
  assert.equal(r.stdout, 'undefined function\n');
});

/**
 * Walks everything reachable from the global object: own names (non-enumerable ones too), symbols,
 * getters (their functions and what they return) and prototype chains. Prints how many objects it
 * saw and the paths of any isolated-vm object (a Reference, ExternalCopy, Callback, Isolate, Context, Script).
 */
const WALK = `
const seen = new Set(); const bad = [];
const HOST = ['Reference', 'ExternalCopy', 'Callback', 'Isolate', 'Context', 'Script', 'NativeModule'];
function walk(v, path, depth) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 4 || seen.size > 200000) return;
  seen.add(v);
  let ctor; try { const d = Reflect.getOwnPropertyDescriptor(Reflect.getPrototypeOf(v) || {}, 'constructor'); ctor = d && d.value && d.value.name; } catch {}
  if (HOST.includes(ctor)) bad.push(path);
  let keys; try { keys = Reflect.ownKeys(v); } catch { return; }
  for (const k of keys) {
    let d; try { d = Reflect.getOwnPropertyDescriptor(v, k); } catch { continue; }
    if (!d) continue;
    const at = path + '.' + String(k);
    walk(d.value, at, depth + 1);
    if (d.get) { walk(d.get, at + '(get)', depth + 1); let x; try { x = d.get.call(v); } catch { x = undefined; } walk(x, at, depth + 1); }
    walk(d.set, at + '(set)', depth + 1);
  }
  let proto; try { proto = Reflect.getPrototypeOf(v); } catch {}
  walk(proto, path + '.__proto__', depth + 1);
}
walk(globalThis, 'globalThis', 0);
console.log(JSON.stringify(bad), seen.size > 200);
`;

test('hostile: nothing of the host is reachable from any global', async () => {
  const { runSnippet } = await import('../src/index.ts');
  // Names are computed, so no environment is loaded: the bare context.
  const r = await runSnippet(`${WALK}console.log(typeof globalThis['pro' + 'cess'], typeof globalThis['req' + 'uire'], typeof globalThis['$' + '0'], typeof globalThis['$' + '1']);`, { mode: 'none' });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, '[] true\nundefined undefined undefined undefined\n');
});

test('hostile: with the browser, jQuery, node and server environments loaded, nothing of the host is reachable and process and require are models', async () => {
  const { runSnippet } = await import('../src/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-'));
  const secretFile = join(dir, 'secret.txt');
  writeFileSync(secretFile, 'host secret');
  const marker = join(dir, 'ran-on-host');
  process.env.SNIPEXEC_HOST_SECRET = 'host secret';
  try {
    // Naming document, $, process, require and express loads the environments that model them; the walk covers them too.
    const code = `${WALK}
const uses = [typeof document, typeof $, typeof express];
const server = require('express');
console.log(uses.join(), typeof process, typeof require, typeof server);
console.log(process.pid === ${process.pid}, typeof process.binding, typeof process.dlopen, String(process.env.SNIPEXEC_HOST_SECRET), JSON.stringify(process.env).includes('host secret'));
let ran = 'no';
try { require('child_process').execSync(${JSON.stringify(`touch ${marker}`)}); ran = 'returned'; } catch (e) { ran = 'threw'; }
let read = '';
try { read = String(require('fs').readFileSync(${JSON.stringify(secretFile)}, 'utf8')); } catch (e) { read = 'threw'; }
console.log(ran, read.includes('host secret'));`;
    const r = await runSnippet(code, { mode: 'trace', timeoutMs: 60_000 });
    assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    const [walked, uses, models, effects] = r.stdout.split('\n');
    assert.equal(walked, '[] true', 'no isolated-vm object is reachable, environments included');
    assert.equal(uses, 'object,function,function object function function', 'the environments are loaded');
    // Compared with nothing, the variable is learnt as some string: never the host's value.
    assert.match(models ?? '', /^false undefined undefined (?!host secret).* false$/, 'process is the model: not the host pid, no binding or dlopen, not the host env');
    assert.match(effects ?? '', / false$/, 'fs reads the model file system, not the host file');
    assert.equal(existsSync(marker), false, 'execSync ran nothing on the host');
    assert.deepEqual(['browser', 'jquery', 'node', 'node-fs', 'server'].filter((n) => !r.environments?.loaded.includes(n)), [], `loaded: ${r.environments?.loaded.join()}`);
  } finally {
    delete process.env.SNIPEXEC_HOST_SECRET;
  }
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

test('hostile: toJSON on the prototypes reaches neither the value requests nor the report in trace mode', async () => {
  const { runSnippet } = await import('../src/index.ts');
  const r = await runSnippet('Object.prototype.toJSON = () => 1;\nArray.prototype.toJSON = () => [];\nfs.readFileSync("a");\nconsole.log("done");', { mode: 'trace' });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, 'done\n');
  assert.deepEqual(r.injections.map((i) => i.element).filter((e) => !e.endsWith('()')).sort(), ['fs', 'fs.readFileSync']);
});
