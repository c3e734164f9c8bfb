// The CLI's robustness: input errors are one line and exit 2, batches survive odd datasets and stop on signals.
// (Apart from robustness.test.ts so that its child processes run beside the engine's robustness tests.)
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, cli } from './helpers.ts';

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

test('robustness: a directory as input without a snippet, or as an output file, is a one-line error, exit 2 (run, batch, --out, --emit)', () => {
  const dir = scratch();
  const file = join(dir, 'ok.js');
  writeFileSync(file, 'console.log(1);\n');
  // A directory of snippets is their files (inputsSpec.test.ts); one without any is an error naming it.
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  assertUsageError(cli(['run', empty]), /empty: a directory with no snippet file/);
  assertUsageError(cli(['batch', empty]), /empty: a directory with no snippet file/);
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
  assertUsageError(timeout, /^snipexec: --timeout 10: .*>=50/);
  assert.doesNotMatch(timeout.stderr, /timeoutMs/);
  assertUsageError(cli(['run', '-', '--total-timeout', '10'], 'console.log(1);\n'), /^snipexec: --total-timeout 10: .*>=50/);
  assertUsageError(cli(['run', '-', '--llm-timeout', '5'], 'console.log(1);\n'), /^snipexec: --llm-timeout 5: /);
  assertUsageError(cli(['batch', data, '--concurrency', '0']), /^snipexec: --concurrency 0: /);
  assertUsageError(cli(['batch', data, '--limit', '0', '--out', out]), /^snipexec: --limit 0: .*>=1/);
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
