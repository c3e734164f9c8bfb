import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CorruptTrace, InvalidOptions } from '../src/core/errors.ts';
import type { TraceEnd } from '../src/record/callTrace.ts';
import { recordProgram } from '../src/record/recordProgram.ts';
import { BUFFER_BYTES } from '../src/record/traceWriter.ts';
import { readTrace } from '../src/testgen/readTrace.ts';
import { cli } from './helpers.ts';

/**
 * Streamed traces (callTrace.ts, version 2): the recorder writes calls as they end through a
 * fixed buffer, ends the trace however the program ends, and bounds it with --max-calls and
 * --max-trace-bytes; readTrace reads it line by line.
 */

const work = mkdtempSync(join(tmpdir(), 'snipexec-record-stream-'));
after(() => rmSync(work, { recursive: true, force: true }));

function program(name: string, source: string): string {
  const file = join(work, name);
  writeFileSync(file, source);
  return file;
}

function lines(tracePath: string): string[] {
  return readFileSync(tracePath, 'utf8').split('\n').filter((line) => line !== '');
}

function endLine(tracePath: string): TraceEnd {
  const text = readFileSync(tracePath, 'utf8');
  return JSON.parse(text.slice(text.lastIndexOf('\n', text.length - 2) + 1)) as TraceEnd;
}

// The program reports its own peak memory from its exit listener, which runs after the recorder's (the preload's comes first).
const MANY = program('many.cjs', `function step(total, i) { return total + (i % 7); }
const n = Number(process.argv[2]);
let total = 0;
for (let i = 0; i < n; i++) total = step(total, i);
process.on('exit', () => {
  require('node:fs').writeFileSync(process.argv[3], JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, heapTotal: process.memoryUsage().heapTotal, total }));
});
`);

function recordMany(calls: number): { maxRssKb: number; heapTotal: number; end: TraceEnd; bytes: number } {
  const report = join(work, `memory-${calls}.json`);
  const r = cli(['record', '--no-tests', '--max-calls', String(calls), MANY, '--', String(calls), report], undefined, 300_000);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`recorded ${calls} calls into `));
  const tracePath = `${MANY}.trace.json`;
  const end = endLine(tracePath);
  const bytes = statSync(tracePath).size;
  rmSync(tracePath);
  return { ...(JSON.parse(readFileSync(report, 'utf8')) as { maxRssKb: number; heapTotal: number }), end, bytes };
}

test('record stream: 1,000,000 calls are recorded in the memory 100,000 take (peak RSS and heap do not grow with the calls)', { timeout: 600_000 }, () => {
  const small = recordMany(100_000);
  const large = recordMany(1_000_000);
  assert.deepEqual([small.end.calls, large.end.calls], [100_000, 1_000_000]);
  assert.ok(large.bytes > 100 * 1024 * 1024, `a trace of ${large.bytes} bytes: far more than the recorder may hold`);
  // Held in memory, the 1,000,000 calls alone would be over 100 MB more than the 100,000.
  assert.ok(large.maxRssKb < small.maxRssKb * 1.5, `peak RSS ${small.maxRssKb} KB for 100,000 calls, ${large.maxRssKb} KB for 1,000,000`);
  assert.ok(large.heapTotal < small.heapTotal * 2, `heap ${small.heapTotal} bytes for 100,000 calls, ${large.heapTotal} for 1,000,000`);
});

const LOOP = program('loop.cjs', `function twice(x) { return x * 2; }
for (let i = 0; i < 50; i++) twice(i);
`);

test('record stream: --max-calls keeps the first calls; the end line and the summary say how many were dropped', () => {
  const r = cli(['record', '--no-tests', '--max-calls', '10', LOOP]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /recorded 10 calls into .*loop\.cjs\.trace\.json; truncated at --max-calls 10: 40 calls dropped/);
  const trace = readTrace(`${LOOP}.trace.json`);
  assert.deepEqual(trace.calls.map((c) => c.callId), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(trace.truncated, { limit: 'maxCalls', max: 10, droppedCalls: 40 });
  assert.deepEqual(endLine(`${LOOP}.trace.json`), { end: true, exitCode: 0, calls: 10, truncated: { limit: 'maxCalls', max: 10, droppedCalls: 40 } });
  const generated = cli(['gen-tests', `${LOOP}.trace.json`, '--out', join(work, 'loop-tests')]);
  assert.equal(generated.code, 0, generated.stderr);
  assert.match(generated.stderr, /the trace was truncated at --max-calls 10: 40 calls dropped when recorded/);
  assert.match(generated.stderr, /gen-tests: 10 tests in 1 file/);
});

test('record stream: --max-trace-bytes bounds the file, end line included', async () => {
  const run = await recordProgram(LOOP, [], { stdio: 'ignore', maxTraceBytes: 4096 });
  assert.ok(statSync(run.tracePath).size <= 4096, `${statSync(run.tracePath).size} bytes`);
  assert.equal(run.truncated?.limit, 'maxTraceBytes');
  assert.equal(run.calls + (run.truncated?.droppedCalls ?? 0), 50);
  assert.ok(run.calls > 0 && run.calls < 50, `${run.calls} calls`);
  assert.equal(readTrace(run.tracePath).calls.length, run.calls);
});

test('record stream: limits are validated at the boundary (recordProgram and the flags)', async () => {
  await assert.rejects(recordProgram(LOOP, [], { maxCalls: 0 }), (e) => e instanceof InvalidOptions && /maxCalls/.test(e.message));
  await assert.rejects(recordProgram(LOOP, [], { maxTraceBytes: 100 }), (e) => e instanceof InvalidOptions && /maxTraceBytes/.test(e.message));
  const r = cli(['record', '--no-tests', '--max-calls', '0', LOOP]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--max-calls 0: /);
  const bytes = cli(['record', '--no-tests', '--max-trace-bytes', 'lots', LOOP]);
  assert.equal(bytes.code, 2);
  assert.match(bytes.stderr, /--max-trace-bytes/);
});

// Each call's line is over 100 bytes: this many fill the buffer several times.
const BUSY_CALLS = Math.ceil((4 * BUFFER_BYTES) / 100);

test('record stream: a SIGTERM no listener handles ends the trace with the signal; the program dies of it as under plain node', () => {
  const file = program('term.cjs', `function tick(i) { return i + 1; }\nfor (let i = 0; i < 20; i++) tick(i);\nprocess.kill(process.pid, 'SIGTERM');\nsetTimeout(() => console.log('not reached'), 1000);\n`);
  const r = cli(['record', '--no-tests', file]);
  assert.equal(r.code, 143, r.stderr);
  assert.equal(r.stdout, '');
  assert.deepEqual(endLine(`${file}.trace.json`), { end: true, exitCode: 143, calls: 20, signal: 'SIGTERM' });
});

test('record stream: a program\'s own signal listener sees only itself, and decides as under plain node', () => {
  const file = program('handled.cjs', `function tick(i) { return i + 1; }\nprocess.on('SIGINT', () => { console.log('listeners', process.listenerCount('SIGINT')); process.exit(5); });\nfor (let i = 0; i < 3; i++) tick(i);\nprocess.kill(process.pid, 'SIGINT');\nsetTimeout(() => {}, 1000);\n`);
  const r = cli(['record', '--no-tests', file]);
  assert.equal(r.code, 5, r.stderr);
  assert.equal(r.stdout, 'listeners 1\n');
  assert.deepEqual(endLine(`${file}.trace.json`), { end: true, exitCode: 5, calls: 3 });
});

test('record stream: SIGKILL keeps what the full buffers wrote; the trace gets an interrupted end line and reads', () => {
  const file = program('killed.cjs', `function tick(i) { return 'x'.repeat(60) + i; }\nfor (let i = 0; i < ${BUSY_CALLS}; i++) tick(i);\nprocess.kill(process.pid, 'SIGKILL');\n`);
  const r = cli(['record', '--no-tests', file]);
  assert.equal(r.code, 137, r.stderr);
  assert.match(r.stderr, /the recorder was killed before it ended the trace/);
  const end = endLine(`${file}.trace.json`);
  assert.equal(end.interrupted, true);
  assert.ok(end.calls > BUSY_CALLS / 2 && end.calls < BUSY_CALLS, `${end.calls} of ${BUSY_CALLS} calls written before the kill`);
  assert.equal(readTrace(`${file}.trace.json`).calls.length, end.calls);
});

test('record stream: lines come in the order calls ended; readTrace gives them in the order they started', () => {
  const file = program('nested.cjs', `function inner(x) { return x + 1; }\nfunction outer(x) { return inner(x) * 2; }\nouter(1);\n`);
  assert.equal(cli(['record', '--no-tests', file]).code, 0);
  const tracePath = `${file}.trace.json`;
  assert.deepEqual(lines(tracePath).map((line) => JSON.parse(line) as { callId?: number; format?: string; end?: true; reach?: unknown }).map((l) => l.format ?? l.callId ?? (l.reach && 'reach') ?? (l.end && 'end')), ['snipexec-trace', 2, 1, 'reach', 'end']);
  assert.deepEqual(readTrace(tracePath).calls.map((c) => [c.callId, c.qualname]), [[1, 'outer'], [2, 'inner']]);
});

const HEADER = '{"format":"snipexec-trace","version":2,"program":"p.js","argv":[]}';
const CALL = (id: number) => `{"callId":${id},"parentCallId":null,"module":"p.js","qualname":"f","kind":"function","line":1,"args":{},"returnValue":1,"returnSerialization":"json"}`;
const END = (calls: number) => `{"end":true,"exitCode":0,"calls":${calls}}`;

const CORRUPT: readonly { name: string; text: string; line: number | undefined; message: RegExp }[] = [
  { name: 'a JSON syntax error', text: [HEADER, CALL(1), `${CALL(2)},`, END(2)].join('\n'), line: 3, message: /:3: not JSON/ },
  { name: 'a bad call', text: [HEADER, CALL(1).replace('"function"', '"procedure"'), END(1)].join('\n'), line: 2, message: /:2: not a call trace: kind/ },
  { name: 'an unsupported version', text: [HEADER.replace('"version":2', '"version":3'), END(0)].join('\n'), line: 1, message: /:1: .*unsupported trace version 3/ },
  { name: 'a first line that is no header', text: [CALL(1), END(1)].join('\n'), line: 1, message: /:1: not a trace header/ },
  { name: 'no end line', text: [HEADER, CALL(1)].join('\n'), line: 2, message: /no end line/ },
  { name: 'a line after the end line', text: [HEADER, END(0), CALL(1)].join('\n'), line: 3, message: /a line after the end line/ },
  { name: 'an end line counting other calls', text: [HEADER, CALL(1), END(2)].join('\n'), line: 3, message: /counts 2 calls, the file holds 1/ },
  { name: 'a duplicate callId', text: [HEADER, CALL(1), CALL(1), END(2)].join('\n'), line: 3, message: /callId 1 appears twice/ },
  { name: 'an empty file', text: '', line: undefined, message: /empty/ },
  { name: 'a reach line naming a module outside the program', text: [HEADER, '{"reach":[{"module":"/abs.js","qualname":"f","root":"p.js","path":["f"],"params":[],"async":false,"generator":false}]}', END(0)].join('\n'), line: 2, message: /:2: not a call trace: reach\[0\]\.module/ },
];

for (const { name, text, line, message } of CORRUPT) {
  test(`readTrace (version 2): ${name} throws CorruptTrace naming the line`, () => {
    const path = join(work, 'corrupt.trace.json');
    writeFileSync(path, text === "" ? "" : `${text}\n`);
    assert.throws(() => readTrace(path), (error: unknown) => {
      assert.ok(error instanceof CorruptTrace, String(error));
      assert.equal(error.line, line);
      assert.match(error.message, message);
      return true;
    });
  });
}
