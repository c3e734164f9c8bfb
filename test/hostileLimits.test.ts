import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { LARGE_INPUT_BYTES, PREPARE_HEAP_MB } from '../src/engine/prepareInWorker.ts';
import { SNIPPET_LIMITS } from '../src/parse/snippetSize.ts';
import { BIN, selected } from './helpers.ts';

/**
 * Host memory is bounded by input size: a snippet under the byte limit keeps the whole snipexec
 * process under HOST_RSS_BOUND (docs/internals/security.md), measured by `/usr/bin/time -v` around the CLI
 * child, with the default --memory. Each case asserts one exact status, the bound, and no
 * internal-error. A snippet V8 itself cannot compile is a syntax-error with the error Node gives
 * for the same file.
 */
const HOST_RSS_BOUND = (inputBytes: number): number => 512 * 1024 * 1024 + 200 * inputBytes;

const dir = mkdtempSync(join(tmpdir(), 'snipexec-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface LimitCase {
  readonly name: string;
  readonly code: string;
  readonly mode?: 'none' | 'trace';
  readonly status: string;
  /** The one error the result has, when it has one. */
  readonly error?: { readonly type: string; readonly message: string | RegExp };
  readonly stdout?: string;
}

const array = (n: number) => `const a = [${Array.from({ length: n }, (_, i) => i % 10).join(',')}];\nconsole.log(a.length);\n`;
const STATEMENTS = new RegExp(`^input has more than ${SNIPPET_LIMITS.statements} statements, the limit$`);
const NODES = new RegExp(`^input has more than ${SNIPPET_LIMITS.nodes} syntax nodes, the limit$`);

const CASES: readonly LimitCase[] = [
  // The red team's three inputs.
  { name: '200,000 lines of x; (600 KB)', code: 'x;\n'.repeat(200_000), status: 'syntax-error', error: { type: 'SyntaxError', message: STATEMENTS } },
  { name: '349,000 lines of x; (1 MB)', code: 'x;\n'.repeat(349_000), status: 'syntax-error', error: { type: 'SyntaxError', message: STATEMENTS } },
  { name: 'a 500,000-element array literal', code: array(500_000), status: 'syntax-error', error: { type: 'SyntaxError', message: NODES } },
  // Variants: just over each limit, just under them (these run, on either side of the worker's threshold), and other shapes.
  { name: 'one statement over the limit, on one line (main thread)', code: 'x;'.repeat(SNIPPET_LIMITS.statements + 1), status: 'syntax-error', error: { type: 'SyntaxError', message: STATEMENTS } },
  { name: 'one statement under the limit, on one line, in trace mode (main thread)', code: 'x;'.repeat(SNIPPET_LIMITS.statements - 1) + 'console.log("done");\n', mode: 'trace', status: 'completed', stdout: 'done\n' },
  { name: 'an array just under the node limit (worker)', code: array(SNIPPET_LIMITS.nodes - 1_000), status: 'completed', stdout: `${SNIPPET_LIMITS.nodes - 1_000}\n` },
  { name: 'an object literal of 10,000 keys', code: `const o = {${Array.from({ length: 10_000 }, (_, i) => `k${i}: ${i}`).join(', ')}};\nconsole.log(Object.keys(o).length);\n`, status: 'completed', stdout: '10000\n' },
  { name: '80,000 lines of nested calls f(g(h(1))) (960 KB)', code: 'f(g(h(1)));\n'.repeat(80_000), status: 'syntax-error', error: { type: 'SyntaxError', message: NODES } },
];

/** The CLI on a file, under `/usr/bin/time -v`: its status, errors, stdout, and the peak RSS in bytes. */
function measured(file: string, mode: string): Promise<Measured> {
  // Budgets far above what the cases need: they are about memory, and the machine may be loaded.
  return underTime([BIN, 'run', file, '--json', '--mode', mode, '--timeout', '60000', '--total-timeout', '180000']);
}

interface Measured {
  readonly result: { status: string; errors: { type: string; message: string }[]; stdout: string };
  readonly rss: number;
  readonly stderr: string;
}

/** A Node child under `/usr/bin/time -v`: the JSON it prints, and its peak RSS in bytes. */
function underTime(args: readonly string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-v', process.execPath, '--no-node-snapshot', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', () => {
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1];
      if (kb === undefined) return reject(new Error(`no RSS from /usr/bin/time: ${stderr.slice(-2000)}`));
      try {
        resolve({ result: JSON.parse(stdout), rss: Number(kb) * 1024, stderr });
      } catch {
        reject(new Error(`not a JSON result: ${stdout.slice(0, 500)} ${stderr.slice(-2000)}`));
      }
    });
  });
}

// Two children at a time: each case is one CLI process, and the machine may have two cores.
const cases = selected(CASES);
const runs = new Map<string, ReturnType<typeof measured>>();
let chain: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
cases.forEach((c, i) => {
  const file = join(dir, `case${i}.js`);
  writeFileSync(file, c.code);
  const slot = i % 2;
  const run = chain[slot]!.then(() => measured(file, c.mode ?? 'none'));
  chain[slot] = run.catch(() => undefined);
  runs.set(c.name, run);
});

for (const c of cases) {
  test(`limits: ${c.name}`, { timeout: 300_000 }, async () => {
    const bytes = Buffer.byteLength(c.code);
    assert.ok(bytes <= 1024 * 1024, 'under the default byte limit');
    const { result, rss, stderr } = await runs.get(c.name)!;
    assert.equal(result.status, c.status, JSON.stringify(result.errors) + stderr.slice(-1000));
    assert.ok(rss <= HOST_RSS_BOUND(bytes), `host RSS ${Math.round(rss / 2 ** 20)} MB over the bound ${Math.round(HOST_RSS_BOUND(bytes) / 2 ** 20)} MB for ${bytes} bytes`);
    if (c.error) {
      assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
      assert.equal(result.errors[0]!.type, c.error.type);
      if (typeof c.error.message === 'string') assert.equal(result.errors[0]!.message, c.error.message);
      else assert.match(result.errors[0]!.message, c.error.message);
    } else assert.deepEqual(result.errors, []);
    if (c.stdout !== undefined) assert.equal(result.stdout, c.stdout);
  });
}

/** What Node itself reports for a file it cannot compile: the `Type: message` line of its stderr. */
function nodeError(code: string): Promise<{ type: string; message: string }> {
  const file = join(dir, `node-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(file, code);
  return new Promise<{ type: string; message: string }>((resolve) => {
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('close', () => {
      const m = /^(\w*Error): (.*)$/m.exec(stderr);
      resolve({ type: m?.[1] ?? '', message: m?.[2] ?? stderr });
    });
  });
}

const UNCOMPILABLE = selected([
  { name: '100,000 nested brackets', code: '['.repeat(100_000) + ']'.repeat(100_000) + '\n' },
  { name: '100,000 nested parentheses in a declaration', code: `const v = ${'('.repeat(100_000)}1${')'.repeat(100_000)};\nconsole.log(v);\n` },
  { name: '20,000 nested blocks (a small input, sent on for its depth)', code: '{'.repeat(20_000) + '}'.repeat(20_000) + '\n' },
]);

for (const c of UNCOMPILABLE) {
  test(`limits: V8 cannot compile ${c.name}: syntax-error with Node's error`, { timeout: 120_000 }, async () => {
    const node = await nodeError(c.code);
    assert.equal(node.type, 'RangeError', 'Node itself cannot compile it');
    const file = join(dir, `v8-${c.name.replace(/\W+/g, '-')}.js`);
    writeFileSync(file, c.code);
    const { result, rss } = await measured(file, 'none');
    assert.equal(result.status, 'syntax-error', JSON.stringify(result.errors));
    assert.deepEqual(result.errors.map((e) => ({ type: e.type, message: e.message })), [node]);
    assert.ok(rss <= HOST_RSS_BOUND(Buffer.byteLength(c.code)), `host RSS ${Math.round(rss / 2 ** 20)} MB`);
  });
}

test('limits: a 4 MB input (the byte limit raised) whose parse outgrows the worker\'s heap is refused, the host unharmed', { timeout: 300_000 }, async () => {
  const lines = 1_400_000;
  const script = join(dir, 'library.mjs');
  // The library, since no CLI flag raises the byte limit.
  writeFileSync(script, `const { runSnippet } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
const r = await runSnippet('x;\\n'.repeat(${lines}), { mode: 'none', maxSourceBytes: 16 * 1024 * 1024, totalTimeoutMs: 180000 });
process.stdout.write(JSON.stringify({ status: r.status, errors: r.errors, stdout: r.stdout }));\n`);
  const { result, rss } = await underTime([script]);
  assert.equal(result.status, 'syntax-error', JSON.stringify(result.errors));
  assert.deepEqual(result.errors.map((e) => [e.type, e.message]), [['SyntaxError', `input is too large to prepare within the host's ${PREPARE_HEAP_MB} MB`]]);
  assert.ok(rss <= HOST_RSS_BOUND(3 * lines), `host RSS ${Math.round(rss / 2 ** 20)} MB`);
});

test('limits: host work past the budget ends as host-timeout, on the main thread and on the worker\'s path', { timeout: 120_000 }, async () => {
  // A clock that moves a second at every read: the budget of 5 s is spent inside preparation, whatever the machine's speed.
  const stepping = () => { let t = 0; return () => (t += 1_000); };
  const small = await runSnippet('let n = 0;\n'.repeat(5_000) + 'console.log(n);\n', { mode: 'none', totalTimeoutMs: 5_000 }, { clock: stepping() });
  assert.equal(small.status, 'host-timeout', JSON.stringify(small.errors));
  assert.equal(small.runs, 0);
  assert.equal(small.stdout, '');
  // Over the threshold, preparation goes to the worker; a budget spent before it starts starts none.
  const code = array(LARGE_INPUT_BYTES / 2);
  assert.ok(Buffer.byteLength(code) > LARGE_INPUT_BYTES);
  const jumping = () => { let reads = 0; return () => (reads++ === 0 ? 0 : 10_000); };
  const large = await runSnippet(code, { mode: 'none', totalTimeoutMs: 5_000 }, { clock: jumping() });
  assert.equal(large.status, 'host-timeout', JSON.stringify(large.errors));
  assert.match(large.errors[0]?.message ?? '', /\(preparing on a worker thread\) ran past the snippet's budget of 5000 ms/);
  assert.equal(large.runs, 0);
  assert.equal(large.stdout, '');
});
