import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { BIN, selected } from './helpers.ts';

/**
 * WebAssembly memory is held to --memory in every form V8 takes bytes in. Each snippet builds a
 * module whose memory has no maximum and an export `g` that runs memory.grow, grows it 16 MiB at a
 * time until grow says -1, then writes every byte of it (so the pages are resident). Under
 * --memory 128 the memory stops at 2048 pages, and the host's RSS stays under the bound, measured by
 * /usr/bin/time -v around the CLI child (never by timing).
 */
const MODULE = '[0,0x61,0x73,0x6d,1,0,0,0, 1,6,1,0x60,1,0x7f,1,0x7f, 3,2,1,0, 5,3,1,0,1, 7,9,2,1,0x6d,2,0,1,0x67,0,0, 0x0a,8,1,6,0,0x20,0,0x40,0,0x0b]';
const GROW = `function grow(inst) {
  let pages = 1;
  while (inst.exports.g(256) !== -1) pages += 256;
  new Uint8Array(inst.exports.m.buffer).fill(1);
  console.log(pages <= 2048 ? 'capped' : 'grew ' + pages);
}
const bytes = ${MODULE};
`;
/** The bound docs/internals/security.md states: host RSS at most 512 MB + 200 bytes per input byte. */
const rssBoundKb = (inputBytes: number) => (512 * 1024 * 1024 + 200 * inputBytes) / 1024;

interface WasmCase {
  readonly name: string;
  readonly code: string;
  readonly status: 'completed' | 'stopped';
  readonly stdout: string;
}

const CASES: readonly WasmCase[] = [
  { name: 'bytes in a Uint8Array over a SharedArrayBuffer, at an offset', status: 'completed', stdout: 'capped\n', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length + 3);\nconst view = new Uint8Array(sab, 3);\nview.set(bytes);\ngrow(new WebAssembly.Instance(new WebAssembly.Module(view)));` },
  { name: 'bytes in an Int8Array over a SharedArrayBuffer', status: 'completed', stdout: 'capped\n', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length);\nnew Uint8Array(sab).set(bytes);\ngrow(new WebAssembly.Instance(new WebAssembly.Module(new Int8Array(sab))));` },
  { name: 'WebAssembly.compile of shared bytes', status: 'completed', stdout: 'capped\n', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length);\nnew Uint8Array(sab).set(bytes);\ngrow(new WebAssembly.Instance(await WebAssembly.compile(new Uint8Array(sab))));` },
  { name: 'WebAssembly.instantiate of shared bytes', status: 'completed', stdout: 'capped\n', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length);\nnew Uint8Array(sab).set(bytes);\ngrow((await WebAssembly.instantiate(new Uint8Array(sab))).instance);` },
  { name: 'WebAssembly.instantiate of a module compiled from shared bytes', status: 'completed', stdout: 'capped\n', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length);\nnew Uint8Array(sab).set(bytes);\ngrow(await WebAssembly.instantiate(new WebAssembly.Module(new Uint8Array(sab))));` },
  { name: 'shared bytes rewritten after the module was compiled', status: 'completed', stdout: 'capped\n', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length);\nconst view = new Uint8Array(sab);\nview.set(bytes);\nconst mod = new WebAssembly.Module(view);\nview.fill(0);\ngrow(new WebAssembly.Instance(mod));` },
  { name: 'bytes in a plain ArrayBuffer', status: 'completed', stdout: 'capped\n', code: `${GROW}grow(new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(bytes).buffer)));` },
  {
    name: 'a shared WebAssembly.Memory grown to its declared maximum', status: 'completed', stdout: 'capped\n',
    code: 'const m = new WebAssembly.Memory({ initial: 1, maximum: 65536, shared: true });\nlet pages = 1;\ntry { for (;;) { m.grow(256); pages += 256; } } catch {}\nnew Uint8Array(m.buffer).fill(1);\nconsole.log(pages <= 2048 ? "capped" : "grew " + pages);',
  },
  // What V8 refuses as bytes, the sandbox refuses as Node does.
  { name: 'a bare SharedArrayBuffer is no buffer source', status: 'stopped', stdout: '', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length);\nnew Uint8Array(sab).set(bytes);\nnew WebAssembly.Module(sab);` },
  { name: 'a DataView is no buffer source', status: 'stopped', stdout: '', code: `${GROW}const sab = new SharedArrayBuffer(bytes.length);\nnew Uint8Array(sab).set(bytes);\nnew WebAssembly.Module(new DataView(sab));` },
];

// The asynchronous APIs are awaited at the top level: the run waits for them, where a `.then` left
// behind raced the run's end on a loaded machine (the compile finishes on a background thread).
for (const c of selected(CASES)) {
  test(`hostile wasm: ${c.name}`, () => {
    const r = spawnSync('/usr/bin/time', ['-v', process.execPath, '--no-node-snapshot', BIN, 'run', '-', '--json', '--mode', 'none', '--memory', '128', '--timeout', '60000'], { input: c.code, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.signal, null, r.stderr);
    const result = JSON.parse(r.stdout) as { status: string; stdout: string; errors: { type: string; message: string }[] };
    assert.equal(result.status, c.status, JSON.stringify(result.errors));
    assert.equal(result.stdout, c.stdout);
    if (c.status === 'stopped') assert.deepEqual(result.errors.map((e) => [e.type, e.message]), [['TypeError', 'WebAssembly.Module(): Argument 0 must be a buffer source']]);
    const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]);
    assert.ok(rss > 0, `time -v reported the RSS: ${r.stderr.slice(-400)}`);
    assert.ok(rss < rssBoundKb(Buffer.byteLength(c.code)), `host RSS ${rss} kB is under the bound`);
  });
}
