import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CorruptTrace, InvalidOptions } from '../src/core/errors.ts';
import type { CallRecord, CallTrace } from '../src/record/callTrace.ts';
import { generateCheckedTests } from '../src/testgen/checkTests.ts';
import { generateTests } from '../src/testgen/generateTests.ts';
import { parseTrace, readTrace } from '../src/testgen/readTrace.ts';
import { renderJson } from '../src/testgen/renderSnapshot.ts';
import { formatSkipped, type SkipKind } from '../src/testgen/skipReasons.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/testgen/', import.meta.url));
const SHOP_TRACE = join(FIXTURES, 'shop', 'shop.js.trace.json');
const KINDS_TRACE = join(FIXTURES, 'kinds', 'main.mjs.trace.json');
const STORE_TRACE = join(FIXTURES, 'store', 'main.js.trace.json');
const CLI_TRACE = join(FIXTURES, 'cli', 'cli.cjs.trace.json');

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-gentests-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function generate(trace: CallTrace, tracePath: string, outDir: string) {
  return generateTests(trace, { traceDir: dirname(tracePath), outDir });
}

test('readTrace reads the quickstart trace: 2 calls, applyDiscount a child of total', () => {
  const trace = readTrace(SHOP_TRACE);
  assert.equal(trace.program, 'shop.js');
  assert.deepEqual(
    trace.calls.map((call) => [call.callId, call.parentCallId, call.qualname]),
    [
      [1, null, 'total'],
      [2, 1, 'applyDiscount'],
    ],
  );
});

// Each case corrupts the quickstart trace (line 1: header, line 2: total, line 3: applyDiscount, line 4: `]}`).
const CORRUPT: readonly { name: string; edit: (text: string) => string; line: number; message: RegExp }[] = [
  { name: 'an unknown kind', edit: (text) => text.replace('"kind":"function","line":2', '"kind":"procedure","line":2'), line: 3, message: /calls\[1\]\.kind/ },
  { name: 'a JSON syntax error (doubled comma)', edit: (text) => text.replace('"returnValue":27,', '"returnValue":27,,'), line: 2, message: /not JSON/ },
  { name: 'a truncated file', edit: (text) => text.slice(0, text.indexOf('\n]}')), line: 3, message: /not JSON: expected ',' or '\]', found the end of the file/ },
  { name: 'an unsupported version', edit: (text) => text.replace('"version":1', '"version":7'), line: 1, message: /unsupported trace version 7/ },
  { name: 'a call neither returned nor threw', edit: (text) => text.replace(',"returnValue":27,"returnSerialization":"json"}\n]', '}\n]'), line: 3, message: /either returnSerialization/ },
  { name: 'a bad nested snapshot', edit: (text) => text.replace('{"serialization":"json","value":30}', '{"serialization":"bigint","value":"3O"}'), line: 3, message: /calls\[1\]\.args\.price/ },
  { name: 'a module outside the program', edit: (text) => text.replace('"module":"shop.js","qualname":"applyDiscount"', '"module":"../etc/x.js","qualname":"applyDiscount"'), line: 3, message: /module/ },
  { name: 'a duplicate callId', edit: (text) => text.replace('"callId":2', '"callId":1'), line: 3, message: /callId 1 appears twice/ },
];

for (const { name, edit, line, message } of CORRUPT) {
  test(`readTrace: ${name} throws CorruptTrace naming file and line ${line}`, (t) => {
    const path = join(tempDir(t), 'shop.js.trace.json');
    const text = edit(readFileSync(SHOP_TRACE, 'utf8'));
    assert.notEqual(text, readFileSync(SHOP_TRACE, 'utf8'), 'the edit changed the file');
    writeFileSync(path, text);
    assert.throws(
      () => readTrace(path),
      (error: unknown) => {
        assert.ok(error instanceof CorruptTrace);
        assert.equal(error.line, line);
        assert.ok(error.message.startsWith(`${path}:${line}: `), error.message);
        assert.match(error.message, message);
        return true;
      },
    );
  });
}

test('readTrace: a missing file is a CorruptTrace naming it', () => {
  assert.throws(() => readTrace('/nonexistent/x.trace.json'), (error: unknown) => error instanceof CorruptTrace && error.message.includes('/nonexistent/x.trace.json'));
});

test('generateTests: the quickstart gives 2 tests, total mocking applyDiscount once', (t) => {
  const out = tempDir(t);
  const result = generate(readTrace(SHOP_TRACE), SHOP_TRACE, out);
  assert.deepEqual(result.files, [{ path: join(out, 'shop.test.mjs'), module: 'shop.js', tests: 2 }]);
  assert.equal(result.summary, 'gen-tests: 2 tests in 1 file; no call skipped');
  const text = readFileSync(join(out, 'shop.test.mjs'), 'utf8');
  assert.match(text, /const applyDiscountMock = replay\("shop\.js#applyDiscount", \[\(\) => 27\]\);/);
  assert.match(text, /const result = shop\.total\(\[10, 20\], 10\);/);
  assert.match(text, /assert\.strictEqual\(applyDiscountMock\.mock\.callCount\(\), 1, "calls of applyDiscount"\);/);
  assert.match(text, /mocks\(\)\.delete\("shop\.js#applyDiscount"\);/);
  assert.match(text, /const result = shop\.applyDiscount\(30, 10\);\n {2}assert\.deepStrictEqual\(result, 27\);/);
  // No snipexec in the temporary project: its hooks come through a helper naming this installation by a relative path.
  assert.match(text, /import \{ registerTestHooks, mocks, reach \} from "\.\/snipexec-replay\.mjs";/);
  assert.equal(result.replayHelper, join(out, 'snipexec-replay.mjs'));
  assert.match(readFileSync(join(out, 'snipexec-replay.mjs'), 'utf8'), /from "(\.\.\/)+[^"]*\/src\/replay\.ts";/);
  assert.match(readFileSync(join(out, 'index.js'), 'utf8'), /\["\.\/shop\.test\.mjs"\]\.reduce/);
});

// Every call of the kinds fixture that is not replayed, and why.
const KINDS_SKIPS: readonly [callId: number, kind: SkipKind][] = [
  [12, 'unreachable'], // outer.inner
  [16, 'private-state'], // Vault has #secret
  [17, 'private-state'], // Bag extends Map: its receiver is recorded as a map
  [18, 'changed-signature'], // add recorded with (a): an older version of the program (the only hand-made record)
  [19, 'time-dependent'], // counter() twice, 1 then 2
  [20, 'time-dependent'],
  [21, 'time-dependent'], // stamp() returns a date
  [22, 'generator'],
  [23, 'function-value'], // run(fn)
  [24, 'unreachable'], // an anonymous arrow
  [26, 'unreachable'],
  [27, 'unreachable-class'], // throws a class declared inside the function
  [28, 'not-json-safe'], // a cyclic argument
  [29, 'redacted'],
  [30, 'unmockable-child'], // usesPick calls pick, an arrow with a destructured parameter the hooks cannot forward
  [31, 'not-json-safe'], // pick's destructured parameter, which the recorder cannot read
];

test('generateTests: every call of the kinds fixture is a test or skipped with its reason', (t) => {
  const result = generate(readTrace(KINDS_TRACE), KINDS_TRACE, tempDir(t));
  assert.deepEqual(
    result.skipped.map((call) => [call.callId, call.kind]),
    KINDS_SKIPS,
  );
  assert.deepEqual(
    result.files.map((file) => [file.module, file.tests]),
    [
      ['kinds.mjs', 12],
      ['legacy.cjs', 3],
      ['typed.ts', 1],
    ],
  );
  assert.equal(
    result.summary,
    'gen-tests: 16 tests in 3 files; 16 calls skipped (3 a function not reachable from its module, 3 a result that depends on the time or hidden state, 2 a value that is not JSON-safe, 2 state Object.create cannot rebuild, 1 a changed signature, 1 a child that cannot be mocked, 1 a class not reachable from a program module, 1 a function value, 1 a generator, 1 a redacted value); 2 of them run and counted inside another call\'s test',
  );
  const line = (callId: number): string => formatSkipped(result.skipped.find((call) => call.callId === callId) as (typeof result.skipped)[number]);
  assert.equal(line(18), 'skipped kinds.mjs#add (call 18): a changed signature: recorded with (a), declared now as (a, b)');
  assert.equal(line(12), 'skipped kinds.mjs#outer.inner (call 12): a function not reachable from its module: outer.inner is nested in function outer, which does not expose it');
  assert.equal(line(24), 'skipped main.mjs#<anonymous>@12 (call 24): a function not reachable from its module: <anonymous>@12 is anonymous, so no test can reach it');
  assert.match(line(30), /it calls pick \(call 31\), which the test hooks cannot replace/);
});

function call(fields: Partial<CallRecord> & Pick<CallRecord, 'callId' | 'qualname'>): CallRecord {
  return { parentCallId: null, module: 'kinds.mjs', kind: 'function', line: 1, args: {}, returnValue: 1, returnSerialization: 'json', ...fields };
}

// Calls no program run gave: a trace from an older version of the program, or from another recorder.
const INLINE_SKIPS: readonly { name: string; calls: readonly CallRecord[]; kind: SkipKind; reason: RegExp }[] = [
  { name: 'a module that is gone', calls: [call({ callId: 1, module: 'gone.js', qualname: 'f' })], kind: 'missing-source', reason: /cannot read gone\.js \(ENOENT\)/ },
  { name: 'a function that is gone', calls: [call({ callId: 1, qualname: 'vanished' })], kind: 'unreachable', reason: /no top-level function vanished/ },
  {
    name: 'a constructor run through super() for a subclass',
    calls: [call({ callId: 1, qualname: 'Vault.constructor', kind: 'constructor', returnValue: { class: 'Safe', value: {} }, returnSerialization: 'instance' })],
    kind: 'unreachable',
    reason: /ran through super\(\) for a Safe, which new Vault\(\) does not build/,
  },
  { name: 'a generator the trace calls a function', calls: [call({ callId: 1, qualname: 'gen' })], kind: 'generator', reason: /generator/ },
  { name: 'a function the trace calls a generator', calls: [call({ callId: 1, qualname: 'echo', kind: 'generator', args: { value: { serialization: 'json', value: 1 } } })], kind: 'generator', reason: /generator/ },
  {
    name: 'an object of a class no module defines',
    calls: [call({ callId: 1, qualname: 'echo', args: { value: { serialization: 'instance', class: 'Nope', value: {} } } })],
    kind: 'unreachable-class',
    reason: /class Nope is not a top-level class/,
  },
  {
    name: 'a returned object whose class the trace does not name',
    calls: [call({ callId: 1, qualname: 'echo', args: { value: { serialization: 'json', value: 1 } }, returnValue: {}, returnSerialization: 'instance' })],
    kind: 'unreachable-class',
    reason: /its result is an object whose class the trace does not name/,
  },
  {
    name: 'a redacted result',
    calls: [call({ callId: 1, qualname: 'echo', args: { value: { serialization: 'json', value: 1 } }, returnValue: '<redacted:env>', returnSerialization: 'repr' })],
    kind: 'redacted',
    reason: /its result held a secret/,
  },
  {
    name: 'a redacted error message',
    calls: [call({ callId: 1, qualname: 'fails', returnSerialization: undefined, returnValue: undefined, threw: true, exception: { name: 'Error', message: 'token <redacted:env>' } })],
    kind: 'redacted',
    reason: /message/,
  },
  {
    name: 'a thrown value that is no error class',
    calls: [call({ callId: 1, qualname: 'fails', returnSerialization: undefined, returnValue: undefined, threw: true, exception: { name: 'string' } })],
    kind: 'unreachable-class',
    reason: /neither a built-in error nor a class of a program module/,
  },
  {
    name: 'a child that returned a function',
    calls: [call({ callId: 1, qualname: 'viaAnonymous', args: { xs: { serialization: 'json', value: [1] } } }), call({ callId: 2, parentCallId: 1, qualname: 'echo', returnSerialization: 'function', returnValue: 'g' })],
    kind: 'unmockable-child',
    reason: /echo \(call 2\), which cannot be replayed: the result of echo \(call 2\) is a function \(g\)/,
  },
  {
    name: 'a nested method path',
    calls: [call({ callId: 1, qualname: 'Vault.open.deeper' })],
    kind: 'unreachable',
    reason: /not a function or method at the top level/,
  },
];

for (const { name, calls, kind, reason } of INLINE_SKIPS) {
  test(`generateTests skips ${name}`, (t) => {
    const trace: CallTrace = { version: 1, program: 'main.mjs', argv: [], exitCode: 0, calls };
    const result = generate(trace, KINDS_TRACE, tempDir(t));
    const first = result.skipped[0];
    assert.ok(first !== undefined, 'a call was skipped');
    assert.equal(first.callId, 1);
    assert.equal(first.kind, kind);
    assert.match(first.reason, reason);
  });
}

test('generateTests validates its options', () => {
  const trace = readTrace(SHOP_TRACE);
  assert.throws(() => generateTests(trace, { traceDir: FIXTURES, outDir: '' }), InvalidOptions);
  assert.throws(() => generateTests(trace, { traceDir: FIXTURES, outDir: '/tmp/x', extra: 1 } as never), InvalidOptions);
});

test('renderJson builds own properties, __proto__ included, and quotes keys that are not identifiers', () => {
  assert.equal(renderJson({ a: 1, 'b-c': [true, null, 'x'], __proto__: { y: 2 } }), '{ a: 1, "b-c": [true, null, "x"] }');
  const parsed = JSON.parse('{"__proto__":{"y":2},"ok":"\\u2028"}') as unknown;
  const code = renderJson(parsed);
  assert.equal(code, '{ ["__proto__"]: { y: 2 }, ok: "\u2028" }');
  assert.deepStrictEqual(new Function(`return ${code};`)(), parsed);
});

interface NodeTestRun {
  readonly status: number | null;
  readonly passed: readonly string[];
  readonly failed: readonly string[];
  readonly output: string;
}

/** `node --test DIR` as a user runs it, in a child Node 24 (the TAP reporter names each test). */
function runNodeTest(dir: string): NodeTestRun {
  const env = { ...process.env };
  // Set in this test file's own process by the runner: a child runner would report to it instead of to stdout.
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', dir], { encoding: 'utf8', env, timeout: 120_000 });
  const output = `${run.stdout}${run.stderr}`;
  const named = (prefix: string): string[] => [...output.matchAll(new RegExp(`^${prefix} \\d+ - (.*)$`, 'gm'))].map((m) => m[1] as string);
  return { status: run.status, passed: named('ok'), failed: named('not ok'), output };
}

test('end to end: the quickstart, generated into generated_tests/ next to the program, passes under node --test DIR/', (t) => {
  const program = join(tempDir(t), 'shop');
  cpSync(join(FIXTURES, 'shop'), program, { recursive: true });
  const tracePath = join(program, 'shop.js.trace.json');
  const result = generate(readTrace(tracePath), tracePath, join(program, 'generated_tests'));
  assert.equal(result.files.length, 1);
  const run = runNodeTest(join(program, 'generated_tests') + '/');
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(run.passed, ['total (call 1)', 'applyDiscount (call 2)'], run.output);
  assert.deepEqual(run.failed, []);
});

test('end to end: the store (class, static, getter, program error, async, a child called twice, recursion) passes', (t) => {
  const out = tempDir(t);
  const result = generate(readTrace(STORE_TRACE), STORE_TRACE, out);
  assert.equal(result.summary, 'gen-tests: 19 tests in 2 files; 6 calls skipped (2 a function not reachable from its module, 1 a function value, 1 a generator, 1 a redacted value, 1 a result that depends on the time or hidden state)');
  const run = runNodeTest(out);
  assert.equal(run.status, 0, run.output);
  assert.equal(run.passed.length, 19, run.output);
  assert.deepEqual(run.failed, []);
});

test('end to end: the kinds fixture (map, set, bigint, regexp, date, rest, CommonJS, TypeScript, rejection) passes', (t) => {
  const out = tempDir(t);
  generate(readTrace(KINDS_TRACE), KINDS_TRACE, out);
  const run = runNodeTest(out);
  assert.equal(run.status, 0, run.output);
  assert.equal(run.passed.length, 16, run.output); // viaAnonymous runs its own arrow for real
  assert.deepEqual(run.failed, []);
});

test('end to end: a program that reads its arguments and calls process.exit (CommonJS) is imported as recorded, and its tests pass', (t) => {
  const out = tempDir(t);
  generate(readTrace(CLI_TRACE), CLI_TRACE, out);
  const run = runNodeTest(out);
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(run.passed, ['parse (call 1)', 'greet (call 2)'], run.output);
  assert.doesNotMatch(run.output, /hello ann/, 'what the program prints when imported is held back');
});

test('end to end: a program whose recorded run crashed still has passing tests; one that did not is not excused', (t) => {
  const recorded = readTrace(CLI_TRACE);
  const crash = (exitCode: number): CallTrace => ({
    ...recorded,
    argv: ['crash'],
    exitCode,
    calls: [
      { ...(recorded.calls[0] as CallRecord), args: { args: { serialization: 'json', value: ['crash'] } }, returnValue: { name: 'crash' } },
      { ...(recorded.calls[1] as CallRecord), args: { name: { serialization: 'json', value: 'crash' } }, returnValue: 'hello crash' },
    ],
  });
  const crashed = tempDir(t);
  generate(crash(1), CLI_TRACE, crashed);
  const run = runNodeTest(crashed);
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(run.passed, ['parse (call 1)', 'greet (call 2)'], run.output);
  const unexpected = tempDir(t);
  generate(crash(0), CLI_TRACE, unexpected);
  const failing = runNodeTest(unexpected);
  assert.notEqual(failing.status, 0, failing.output);
  assert.match(failing.output, /crashed on purpose/);
});

test('end to end: generated tests fail on a wrong expectation and on a wrong child count, and mocks do replace the child', (t) => {
  const trace = readTrace(SHOP_TRACE);
  const [total, applyDiscount] = trace.calls as [CallRecord, CallRecord];
  // applyDiscount recorded as giving 99: its own test must fail (it gives 27), and total's passes only if the mock replaced it.
  const edited: CallTrace = {
    ...trace,
    calls: [
      { ...total, returnValue: 99 },
      { ...applyDiscount, returnValue: 99 },
      // The same total, recorded as calling applyDiscount twice: its count assertion must fail (those two calls' own tests pass).
      { ...total, callId: 3 },
      { ...applyDiscount, callId: 4, parentCallId: 3, args: { price: { serialization: 'json', value: 40 }, percent: { serialization: 'json', value: 32.5 } }, returnValue: 27 },
      { ...applyDiscount, callId: 5, parentCallId: 3, args: { price: { serialization: 'json', value: 50 }, percent: { serialization: 'json', value: 10 } }, returnValue: 45 },
    ],
  };
  const out = tempDir(t);
  generate(edited, SHOP_TRACE, out);
  const run = runNodeTest(out);
  assert.notEqual(run.status, 0);
  assert.deepEqual(run.passed, ['total (call 1)', 'applyDiscount (call 4)', 'applyDiscount (call 5)'], run.output);
  assert.deepEqual(run.failed, ['applyDiscount (call 2)', 'total (call 3)'], run.output);
  assert.match(run.output, /calls of applyDiscount/);
});

test('generateCheckedTests: a test whose mocked child changed the object it was given, and a module that never finishes, are skipped; the rest pass', async (t) => {
  const tracePath = join(FIXTURES, 'basket', 'main.mjs.trace.json');
  const trace = readTrace(tracePath);
  const out = tempDir(t);
  const unchecked = runNodeTest((generate(trace, tracePath, out).index as string).replace(/index\.js$/, 'basket.test.mjs'));
  assert.deepEqual(unchecked.failed, ['Basket.addAll (call 1)'], unchecked.output);
  const result = await generateCheckedTests(trace, { traceDir: dirname(tracePath), outDir: out }, { timeoutMs: 10_000 });
  assert.deepEqual(
    result.skipped.map((call) => [call.callId, call.kind]),
    [
      [1, 'replay-differs'],
      [4, 'replay-differs'],
    ],
  );
  assert.match(result.skipped[0]?.reason ?? '', /its generated test failed when run: Expected values to be strictly deep-equal: 0 !== 2/);
  assert.match(result.skipped[1]?.reason ?? '', /its module's test file did not finish within 10 s/);
  assert.deepEqual(
    result.files.map((file) => [file.module, file.tests]),
    [['basket.mjs', 2]],
  );
  assert.equal(existsSync(join(out, 'ticker.test.mjs')), false, 'the stale file is removed');
  const run = runNodeTest(out);
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(run.passed, ['put (call 2)', 'put (call 3)']);
});
