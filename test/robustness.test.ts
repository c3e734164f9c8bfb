import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as t from '@babel/types';
import { HOST_SHAPES, type HostShape } from '../eval/hostShapes.ts';
import { HostDeadline } from '../src/core/hostDeadline.ts';
import { hostTimeoutResult } from '../src/engine/hostTimeoutResult.ts';
import { prepareInWorker } from '../src/engine/prepareInWorker.ts';
import { prepareSnippet } from '../src/engine/prepareSnippet.ts';
import { parseRunOptions, type RunOptionsInput } from '../src/core/options.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { HostTimeout } from '../src/core/errors.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { BIN, cli } from './helpers.ts';

const { NodePath } = createRequire(import.meta.url)('@babel/traverse') as { NodePath: { get: (...args: unknown[]) => unknown } };

/**
 * Host work, counted rather than timed, so the count is the same on any machine: every generic walk
 * over a node (Babel's traverse, `traverseFast`, the passes' own walks) reads the node type's
 * VISITOR_KEYS entry; every NodePath made or looked up (siblings, `path.get`) goes through
 * `NodePath.get`; every usage fact compared goes through JSON.stringify.
 */
function countHostWork(run: () => void): number {
  let work = 0;
  const keys = t.VISITOR_KEYS as Record<string, string[]>;
  const saved = Object.entries(keys);
  for (const [type, value] of saved) Object.defineProperty(keys, type, { get: () => { work++; return value; }, configurable: true, enumerable: true });
  const get = NodePath.get;
  NodePath.get = function (this: unknown, ...args: unknown[]) { work++; return get.apply(this, args); };
  const stringify = JSON.stringify;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => { work++; return stringify(...args); }) as typeof JSON.stringify;
  try {
    run();
  } finally {
    JSON.stringify = stringify;
    NodePath.get = get;
    for (const [type, value] of saved) Object.defineProperty(keys, type, { value, writable: true, configurable: true, enumerable: true });
  }
  return work;
}

function hostWork(shape: HostShape, lines: number): number {
  const code = HOST_SHAPES[shape](lines);
  return countHostWork(() => {
    const parsed = parseSnippet(code, 'js');
    instrumentSnippet(parsed.ast, parsed.code, { lang: 'js', operatorHooks: true, drive: true });
  });
}

for (const shape of Object.keys(HOST_SHAPES) as HostShape[]) {
  test(`robustness: host work on ${shape} grows linearly with the snippet (4× the lines, at most 4.6× the work)`, () => {
    const small = hostWork(shape, 150);
    const large = hostWork(shape, 600);
    assert.ok(small > 150, `the meter counts work (${small})`);
    // Quadratic work would give 16×; n·log n about 4.5×.
    assert.ok(large / small <= 4.6, `${shape}: ${small} units at 150 lines, ${large} at 600 (${(large / small).toFixed(2)}×)`);
  });
}

test('robustness: host work past the snippet budget ends as host-timeout, before any run, with nothing covered', async () => {
  const code = HOST_SHAPES.ordinary(200);
  // A fake clock, 10 ms later at every reading: the 50 ms budget runs out within the host passes.
  let now = 0;
  const r = await runSnippet(code, { lang: 'js', totalTimeoutMs: 50 }, { clock: () => (now += 10) });
  assert.equal(r.status, 'host-timeout');
  assert.equal(r.runs, 0);
  assert.equal(r.fullyExecuted, false);
  assert.equal(r.lineCoverage, 0);
  assert.equal(r.errors.length, 1);
  assert.equal(r.errors[0]?.type, 'HostTimeout');
  assert.match(r.errors[0]?.message ?? '', /\(([a-z ]+)\) ran past the snippet's budget of 50 ms \(--total-timeout\)/);
  // The same snippet with a clock that stands still is run.
  const frozen = await runSnippet(code, { lang: 'js', totalTimeoutMs: 50, maxRuns: 1 }, { clock: () => 0 });
  assert.notEqual(frozen.status, 'host-timeout');
  assert.equal(frozen.runs, 1);
});

test('robustness: the long host passes read the deadline while they run, and stop when it has passed', () => {
  const code = HOST_SHAPES.ordinary(1000);
  const phases = new Map<string, number>();
  const spy = { check: (phase: string) => { phases.set(phase, (phases.get(phase) ?? 0) + 1); } };
  instrumentSnippet(parseSnippet(code, 'js', spy).ast, code, { lang: 'js', operatorHooks: true, deadline: spy });
  for (const phase of ['normalizing syntax', 'usage analysis', 'instrumentation']) {
    assert.ok((phases.get(phase) ?? 0) >= 2, `${phase} read the deadline ${phases.get(phase) ?? 0} times: ${JSON.stringify([...phases])}`);
  }
  // A deadline that has passed stops the pass it is read in.
  const late = { check: (phase: string) => { if (phase === 'instrumentation') throw new HostTimeout(phase, 50); } };
  assert.throws(() => instrumentSnippet(parseSnippet(code, 'js').ast, code, { lang: 'js', operatorHooks: true, deadline: late }), (e: unknown) => e instanceof HostTimeout && e.phase === 'instrumentation');
  // Each repair round of a snippet that will not parse reads it too.
  const repairs: string[] = [];
  assert.throws(() => parseSnippet('const = ;\n'.repeat(20), 'js', { check: (phase) => { repairs.push(phase); } }));
  assert.ok(repairs.filter((p) => p === 'repairing').length >= 2, repairs.join(', '));
});

test('robustness: a budget spent after instrumentation reports the measured lines, all uncovered', () => {
  const code = 'const a = 1;\nif (a) {\n  console.log(a);\n}\n';
  const instrumented = instrumentSnippet(parseSnippet(code, 'js').ast, code, { lang: 'js', operatorHooks: true });
  const r = hostTimeoutResult(new HostTimeout('preparing the first run', 50), 7, instrumented.map);
  assert.equal(r.status, 'host-timeout');
  assert.deepEqual(r.lines, { total: 3, covered: 0, measured: [1, 2, 3], uncovered: [1, 2, 3] });
  assert.deepEqual(r.branches, { total: 2, covered: 0 });
  assert.equal(r.fullyExecuted, false);
});

// ---- CLI input errors: one line on stderr, exit 2, never a stack, never a hang ----

const scratch = () => mkdtempSync(join(tmpdir(), 'snipexec-robust-'));

/** The CLI failed as a usage error: exit 2 and one line naming the problem, no stack trace. */
function assertUsageError(r: ReturnType<typeof cli>, pattern: RegExp): void {
  assert.equal(r.signal, null, `the CLI ended by itself (not killed by the test's timeout): ${r.stderr}`);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.doesNotMatch(r.stderr, /Unhandled|\n\s+at /);
}

test('robustness: a directory as input is a one-line error, exit 2 (run, batch, --out, --emit)', () => {
  const dir = scratch();
  const file = join(dir, 'ok.js');
  writeFileSync(file, 'console.log(1);\n');
  assertUsageError(cli(['run', dir]), /: a directory, not a regular file/);
  assertUsageError(cli(['batch', dir]), /: a directory, not a regular file/);
  writeFileSync(join(dir, 'd.jsonl'), '{"id":"a","code":"1"}\n');
  assertUsageError(cli(['batch', join(dir, 'd.jsonl'), '--out', dir]), /: a directory, not a regular file/);
  assertUsageError(cli(['run', file, '--emit', dir]), /: a directory, not a regular file/);
  assertUsageError(cli(['run', join(dir, 'none.js')]), /none\.js: no such file/);
});

test('robustness: an unreadable input file is a one-line error, exit 2', (t) => {
  let unreadable: string;
  if (process.getuid?.() === 0) {
    // root reads a chmod 000 file, so that case cannot be made; Linux's /proc/self/mem is a regular
    // file whose first page no process can read (EIO), which is as unreadable as a file gets.
    if (!existsSync('/proc/self/mem')) return void t.skip('running as root, where chmod 000 does not stop reading, and no /proc/self/mem');
    unreadable = '/proc/self/mem';
  } else {
    unreadable = join(scratch(), 'locked.js');
    writeFileSync(unreadable, 'console.log(1);\n');
    chmodSync(unreadable, 0o000);
  }
  assertUsageError(cli(['run', unreadable]), /(permission denied|i\/o error)/i);
});

test('robustness: a FIFO with no writer is refused, not waited on (run and batch)', () => {
  const fifo = join(scratch(), 'pipe');
  execFileSync('mkfifo', [fifo]);
  assertUsageError(cli(['run', fifo], undefined, 30_000), /pipe: a FIFO, not a regular file; pipe it to standard input with - instead/);
  assertUsageError(cli(['batch', fifo], undefined, 30_000), /pipe: a FIFO, not a regular file/);
});

test('robustness: invalid flag values are named by their flag, not by the schema field; --limit 0 runs nothing', () => {
  const dir = scratch();
  const data = join(dir, 'd.jsonl');
  const out = join(dir, 'r.jsonl');
  writeFileSync(data, '{"id":"a","code":"console.log(1)"}\n');
  const timeout = cli(['run', '-', '--timeout', '10'], 'console.log(1);\n');
  assertUsageError(timeout, /^snipexec: --timeout: .*>=50/);
  assert.doesNotMatch(timeout.stderr, /timeoutMs/);
  assertUsageError(cli(['run', '-', '--total-timeout', '10'], 'console.log(1);\n'), /^snipexec: --total-timeout: .*>=50/);
  assertUsageError(cli(['run', '-', '--llm-timeout', '5'], 'console.log(1);\n'), /^snipexec: --llm-timeout: /);
  assertUsageError(cli(['batch', data, '--concurrency', '0']), /^snipexec: --concurrency: /);
  assertUsageError(cli(['batch', data, '--limit', '0', '--out', out]), /^snipexec: --limit: .*>=1/);
  assert.equal(existsSync(out), false, '--limit 0 ran nothing');
});

// ---- batch: lines split on \n only; a malformed line is skipped with a message, the batch goes on ----

test('robustness: a dataset row with raw U+2028 and U+2029 in its code runs, and --resume reads it back', () => {
  const dir = scratch();
  const data = join(dir, 'd.jsonl');
  const out = join(dir, 'r.jsonl');
  // JSON.stringify leaves U+2028 and U+2029 raw inside strings.
  const rows = [
    { id: 'sep', code: 'const s = "a\u2028b\u2029c";\nconsole.log(s, s.length);\n' },
    { id: 'after', code: 'console.log("after");\n' },
  ];
  const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  assert.ok(text.includes('\u2028') && text.includes('\u2029'));
  writeFileSync(data, text);
  const first = cli(['batch', data, '--out', out, '--json']);
  assert.equal(first.code, 0, first.stderr);
  const results = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; status: string; stdout: string });
  assert.deepEqual(results.map((r) => r.id).sort(), ['after', 'sep']);
  assert.equal(results.find((r) => r.id === 'sep')?.stdout, 'a\u2028b\u2029c 5\n');
  // The results file holds the raw separators too: --resume reads every row back and redoes none.
  assert.ok(readFileSync(out, 'utf8').includes('\u2028'));
  const again = cli(['batch', data, '--out', out, '--resume', '--json']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 2);
  assert.equal(JSON.parse(again.stdout).snippets, 2);
});

test('robustness: a malformed dataset line is skipped with a one-line message naming it; the batch goes on', () => {
  const dir = scratch();
  const data = join(dir, 'd.jsonl');
  const out = join(dir, 'r.jsonl');
  writeFileSync(data, ['{"id":"a","code":"console.log(1)"}', 'not json at all', '{"id":"b"}', '{"id":"c","code":"console.log(3)"}'].join('\n') + '\n');
  const r = cli(['batch', data, '--out', out, '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /d\.jsonl:2: skipped: not a JSON object\n/);
  assert.match(r.stderr, /d\.jsonl:3: skipped \(id b\): needs a string "id" and a string "code"\n/);
  const summary = JSON.parse(r.stdout) as { snippets: number; invalidLines: number };
  assert.equal(summary.snippets, 2);
  assert.equal(summary.invalidLines, 2);
  assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id).sort(), ['a', 'c']);
});

// ---- batch: SIGTERM and SIGINT stop it gracefully ----

/**
 * Every snippet is `while (true) {}` under --timeout 250, so each takes at least 250 ms however fast
 * the machine is, and 16 of them one at a time take at least 4 s: the signal, sent as soon as the
 * first result is written, always finds snippets not yet started.
 */
async function interruptBatch(signal: 'SIGTERM' | 'SIGINT'): Promise<void> {
  const dir = scratch();
  const data = join(dir, 'd.jsonl');
  const out = join(dir, 'r.jsonl');
  const ids = Array.from({ length: 16 }, (_, i) => `spin${i}`);
  writeFileSync(data, ids.map((id) => JSON.stringify({ id, code: 'while (true) {}\n' })).join('\n') + '\n');
  const args = ['--no-node-snapshot', BIN, 'batch', data, '--out', out, '--concurrency', '1', '--timeout', '250', '--json'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let sent = false;
  const watch = setInterval(() => {
    if (!sent && existsSync(out) && readFileSync(out, 'utf8').includes('\n')) {
      sent = true;
      child.kill(signal);
    }
  }, 20);
  const code = await exited;
  clearInterval(watch);
  assert.ok(sent, `the batch ended before its first result was seen: ${stderr}`);
  assert.equal(code, signal === 'SIGINT' ? 130 : 143, stderr);
  assert.match(stderr, new RegExp(`${signal}: starting no more snippets`));
  const lines = readFileSync(out, 'utf8').split('\n');
  assert.equal(lines.pop(), '', 'the file ends with a complete line');
  const rows = lines.map((l) => JSON.parse(l) as { id: string; status: string });
  assert.ok(rows.length >= 1 && rows.length < ids.length, `${rows.length} of ${ids.length} finished before the signal`);
  for (const row of rows) assert.equal(row.status, 'timeout');
  const summary = JSON.parse(stdout) as { snippets: number; interrupted?: boolean };
  assert.equal(summary.interrupted, true);
  assert.equal(summary.snippets, rows.length, 'the summary counts what finished');
  // --resume does the rest, and nothing twice.
  const rest = cli(['batch', data, '--out', out, '--concurrency', '2', '--timeout', '250', '--resume', '--json']);
  assert.equal(rest.code, 0, rest.stderr);
  const all = readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
  assert.deepEqual([...all].sort(), [...ids].sort());
  assert.equal((JSON.parse(rest.stdout) as { snippets: number; interrupted?: boolean }).interrupted, undefined);
}

test('robustness: SIGTERM during a batch writes what finished, prints the summary, exits 143; --resume completes it', () => interruptBatch('SIGTERM'));
test('robustness: SIGINT during a batch writes what finished, prints the summary, exits 130; --resume completes it', () => interruptBatch('SIGINT'));

// ---- snippets nested deeper than the main thread's stack lets Babel go ----

test('robustness: a snippet nested 1,500 levels deep runs (prepared on a deep-stack thread), not a syntax or internal error', async () => {
  const depth = 1_500;
  const nested = 'let n = 0;\n' + 'if (n >= 0) {\n'.repeat(depth) + 'n++;\n' + '}\n'.repeat(depth) + 'console.log(n);\n';
  const r = await runSnippet(nested, { lang: 'js', mode: 'none' });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, '1\n');
  assert.equal(r.lines.total, depth + 3);
  assert.equal(r.lineCoverage, 1);
  // A long string concatenation is a left-deep tree of the same kind.
  const concat = 'const item = "x";\nconst html = "<ul>"' + '\n  + "<li>" + item + "</li>"'.repeat(600) + '\n  + "</ul>";\nconsole.log(html.length);\n';
  const c = await runSnippet(concat, { lang: 'js', mode: 'none' });
  assert.equal(c.status, 'completed', JSON.stringify(c.errors));
  assert.equal(c.stdout, `${4 + 600 * 10 + 5}\n`);
});

test('robustness: a snippet prepared on the deep-stack thread is the same as one prepared here', async () => {
  const snippets: [string, RunOptionsInput][] = [
    ['const { data } = await axios.get(url);\nif (!data.items) throw new Error("none");\nfor (const item of data.items) console.log(item.name.trim());\n', { lang: 'js' }],
    ['interface P { x: number }\nfunction f(p: P): number { return p.x * 2; }\nexport const y = f(toString);\n', { lang: 'ts', callUncalled: true }],
    ['const a = ;\nconsole.log(1);\n', {}],
  ];
  for (const [code, input] of snippets) {
    const options = parseRunOptions(input);
    const here = prepareSnippet(code, options, new HostDeadline(options.totalTimeoutMs));
    const there = await prepareInWorker(code, options, new HostDeadline(options.totalTimeoutMs));
    const plain = (p: typeof here) => {
      if ('status' in p) return { ...p, elapsedMs: 0 };
      const { statements, branches, sites } = p.instrumented.map;
      // The hook's name is salted per preparation (unguessable by the snippet): the same once it is set aside.
      // The trees stay on the thread that made them (the lowered one too): the program is then generated from a fresh parse.
      return JSON.parse(JSON.stringify({ parsed: { ...p.parsed, ast: undefined }, instrumented: { ...p.instrumented, lowered: undefined, map: { statements, branches, sites } } }).replaceAll(p.instrumented.hook, '<hook>')) as unknown;
    };
    assert.deepEqual(JSON.parse(JSON.stringify(plain(there))), JSON.parse(JSON.stringify(plain(here))), code);
    if (!('status' in there)) assert.equal(Object.getPrototypeOf(there.instrumented.usage), null, 'usage lookups never reach Object.prototype');
  }
});
