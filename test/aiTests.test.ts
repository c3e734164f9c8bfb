import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { InvalidOptions } from '../src/core/errors.ts';
import type { CallTrace } from '../src/record/callTrace.ts';
import { recordProgram } from '../src/record/recordProgram.ts';
import { readTrace } from '../src/testgen/readTrace.ts';
import { formatAiSkipped, type AiSkipped } from '../src/testgen/aiSkips.ts';
import { generateAiTests } from '../src/testgen/aiTests.ts';
import { generateCheckedTests } from '../src/testgen/checkTests.ts';
import { generateTests, readIndex, writeIndex } from '../src/testgen/generateTests.ts';
import { scriptedEnvironment, startScriptedLlm, type Scripted, type SeenRequest } from './llmServer.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/aitests/shop/', import.meta.url));
/** The value of a secret-named variable the recorded program passes to maskKey. */
const SECRET = 'sk-shop-7f3a9c2e41b5';
/** Text of the fixture's function bodies (a comment, a constant's name, expressions, an error message): none may reach the model. */
const SOURCE_TEXTS = ['zebra-rounding', 'LOYALTY_CEILING_PERCENT', 'Math.round', 'left -= 2', 'toString(36)', 'discount out of range', 'this.items.filter'];

const work = mkdtempSync(join(tmpdir(), 'snipexec-aitests-'));
after(() => rmSync(work, { recursive: true, force: true }));
let programDir = '';
let trace: CallTrace;

before(async () => {
  programDir = join(work, 'shop');
  cpSync(FIXTURE, programDir, { recursive: true });
  const run = await recordProgram(join(programDir, 'shop.js'), [], { env: { ...process.env, SHOP_API_KEY: SECRET }, stdio: 'ignore' });
  assert.equal(run.exitCode, 0);
  trace = readTrace(run.tracePath);
});

/** Replies by the function a prompt asks about (its signature line). */
function byFunction(replies: Record<string, Scripted>, otherwise: Scripted = { reply: '[]' }): (request: SeenRequest) => Scripted {
  return (request) => {
    const signature = /^Signature: (.*)$/m.exec(request.prompt)?.[1] ?? '';
    const key = Object.keys(replies).find((k) => signature.startsWith(k));
    return key === undefined ? otherwise : (replies[key] as Scripted);
  };
}

/** `node --test DIR/` as a user runs it (TAP), in a child Node 24. */
function nodeTest(dir: string): { status: number | null; output: string } {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', `${dir}/`], { encoding: 'utf8', env, timeout: 120_000 });
  return { status: run.status, output: run.stdout + run.stderr };
}

function skippedInput(skipped: readonly AiSkipped[], qualname: string, input: unknown[]): AiSkipped | undefined {
  return skipped.find((s) => s.qualname === qualname && JSON.stringify(s.input) === JSON.stringify(input));
}

const REPLIES: Record<string, Scripted> = {
  'function total(': { reply: '[[[], 10], [[{"price": 3, "qty": 3}], 0]]' },
  // The claimed result is not used; [5] has the wrong number of arguments; "x" gives NaN, which no test can expect.
  'function applyDiscount(': { reply: 'Inputs:\n```json\n[[200, 50], [10, 150], [5], ["x", 10]]\n```\nExpected: applyDiscount(200, 50) returns 999.' },
  'function maskKey(': { reply: '[["abcdef"], [42]]' },
  'Basket.prototype.count(': { reply: '[["zz"]]' },
  'Basket.label(': { reply: '[["tea", 0]]' },
  'new Basket(': { reply: '[["bo"]]' },
  'async function delayedTotal(': { reply: '[[[], 50], [[{"price": 10, "qty": 1}], 101]]' },
  // halve(3) never ends.
  'function halve(': { reply: '[[3], [6]]' },
  // A random result: its test fails when run and is dropped.
  'function ticket(': { reply: '[["a"]]' },
};

test('--ai: proposed inputs become tests of what the real functions did, beside gen-tests\' own, and node --test DIR/ passes', { timeout: 120_000 }, async () => {
  const outDir = join(work, 'e2e', 'generated_tests');
  const own = await generateCheckedTests(trace, { traceDir: programDir, outDir });
  const ownTests = own.files.reduce((n, f) => n + f.tests, 0);
  const server = await startScriptedLlm(byFunction(REPLIES));
  try {
    const ai = await generateAiTests(trace, { traceDir: programDir, outDir, callTimeoutMs: 1_500 }, scriptedEnvironment(server.url));
    // One request per function a test can call: 9, Basket's constructor included (the filter callback is anonymous, so never asked about).
    assert.equal(ai.requests, 9);
    assert.equal(server.requests.length, 9);
    assert.deepEqual(ai.files.map((f) => [f.path, f.tests]), [[join(outDir, 'shop.ai.test.mjs'), 12]]);
    assert.deepEqual(readIndex(outDir), ['shop.test.mjs', 'shop.ai.test.mjs']);
    assert.match(ai.summary, /^gen-tests --ai: 12 tests in 1 file from 15 proposed inputs \(9 requests\); 4 skipped \(/);

    // What each input gave, computed by the real function: applyDiscount(200, 50) is 100 (the model said 999).
    const text = readFileSync(join(outDir, 'shop.ai.test.mjs'), 'utf8');
    assert.match(text, /shop\.applyDiscount\(200, 50\);\n {2}assert\.deepStrictEqual\(result, 100\);/);
    assert.doesNotMatch(text, /999/);
    assert.match(text, /assert\.throws\(\(\) => shop\.applyDiscount\(10, 150\), \(error\) => error instanceof shop\.DiscountError && error\.message === "discount out of range: 150"\);/);
    assert.match(text, /assert\.throws\(\(\) => shop\.maskKey\(42\), \(error\) => error instanceof TypeError && error\.message === "key\.slice is not a function"\);/);
    assert.match(text, /await assert\.rejects\(async \(\) => shop\.delayedTotal\(\[\{ price: 10, qty: 1 \}\], 101\), \(error\) => error instanceof shop\.DiscountError/);
    assert.match(text, /const self = instance\(shop\.Basket, \{ owner: "ann", items: \[\{ sku: "a1" \}\] \}\);\n {2}const result = shop\.Basket\.prototype\.count\.call\(self, "zz"\);\n {2}assert\.deepStrictEqual\(result, 0\);/);
    assert.match(text, /shop\.Basket\.label\("tea", 0\);\n {2}assert\.deepStrictEqual\(result, "tea x0"\);/);
    assert.match(text, /shop\.halve\(6\);\n {2}assert\.deepStrictEqual\(result, 3\);/);
    // A constructor's proposed arguments are built with new, and the object it built asserted.
    assert.match(text, /new shop\.Basket\("bo"\);\n {2}assert\.deepStrictEqual\(result, instance\(shop\.Basket, \{ owner: "bo", items: \[\] \}\)\);/);

    // Every input that is no test has its reason.
    assert.equal(skippedInput(ai.skipped, 'halve', [3])?.kind, 'did-not-finish');
    assert.match(formatAiSkipped(skippedInput(ai.skipped, 'halve', [3]) as AiSkipped), /^skipped --ai shop\.js#halve\(3\): the real function did not finish within 1\.5 s on this input$/);
    assert.equal(skippedInput(ai.skipped, 'applyDiscount', ['x', 10])?.kind, 'not-json-safe');
    assert.equal(skippedInput(ai.skipped, 'ticket', ['a'])?.kind, 'replay-differs');
    assert.equal(ai.skipped.find((s) => s.qualname.startsWith('<anonymous>'))?.kind, 'unreachable');
    assert.equal(ai.skipped.length, 4);

    const run = nodeTest(outDir);
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, new RegExp(`^# pass ${ownTests + 12}$`, 'm'));
    assert.match(run.output, /^# fail 0$/m);
    assert.match(run.output, /^ok \d+ - halve \(call \d+\)$/m);

    // The model saw names and recorded calls: no source text, and not the secret the program passed to maskKey.
    for (const request of server.requests) {
      for (const source of SOURCE_TEXTS) assert.ok(!request.raw.includes(source), `a request holds source text ${JSON.stringify(source)}`);
      assert.ok(!request.raw.includes(SECRET), 'a request holds the secret');
    }
    assert.match(server.requests.find((r) => r.prompt.includes('maskKey'))?.prompt ?? '', /^- maskKey\("<redacted>"\) -> "sk\.\.\.20"$/m);
    for (const file of readdirSync(outDir)) assert.ok(!readFileSync(join(outDir, file), 'utf8').includes(SECRET), `${file} holds the secret`);
  } finally {
    await server.close();
  }
});

test('--ai: an endpoint that answers 500 skips every function with its reason; nothing is written and the index is left as it was', { timeout: 60_000 }, async () => {
  const outDir = join(work, 'down', 'generated_tests');
  generateTests(trace, { traceDir: programDir, outDir });
  const index = readFileSync(join(outDir, 'index.js'), 'utf8');
  const server = await startScriptedLlm(() => ({ status: 500 }));
  try {
    const ai = await generateAiTests(trace, { traceDir: programDir, outDir }, scriptedEnvironment(server.url, { retries: 1 }));
    assert.deepEqual(ai.files, []);
    assert.equal(ai.requests, 9);
    const failed = ai.skipped.filter((s) => s.kind === 'llm-failed');
    assert.equal(failed.length, 9);
    assert.ok(failed.every((s) => s.input === undefined && /^the model gave no inputs: LLM endpoint .* (failed: HTTP 500|is unavailable)/.test(s.reason)), failed.map((s) => s.reason).join('\n'));
    assert.match(ai.summary, /^gen-tests --ai: 0 tests in 0 files from 0 proposed inputs \(9 requests\); 10 skipped \(9 no answer from the model, 1 a function not reachable from its module\)$/);
    assert.equal(readFileSync(join(outDir, 'index.js'), 'utf8'), index);
    assert.ok(!readdirSync(outDir).some((f) => f.endsWith('.ai.test.mjs')));
  } finally {
    await server.close();
  }
});

test('--ai: a reply without inputs, a reply that is not a Chat Completions response and a spent cap each skip their function; the rest go on', { timeout: 60_000 }, async () => {
  const outDir = join(work, 'garbage', 'generated_tests');
  const server = await startScriptedLlm(byFunction({ 'function total(': { reply: 'I cannot help with that.' }, 'function applyDiscount(': { raw: '{"nope": true}' } }));
  try {
    const ai = await generateAiTests(trace, { traceDir: programDir, outDir }, scriptedEnvironment(server.url, { retries: 0 }));
    const reasons = new Map(ai.skipped.map((s) => [s.qualname, s]));
    assert.equal(reasons.get('total')?.kind, 'no-inputs');
    assert.match(reasons.get('total')?.reason ?? '', /no list of 2 JSON values/);
    assert.equal(reasons.get('applyDiscount')?.kind, 'llm-failed');
    assert.match(reasons.get('applyDiscount')?.reason ?? '', /not a Chat Completions response/);
    // The endpoint is given up on after a failure: the rest fail at once, each with its reason.
    assert.match(reasons.get('ticket')?.reason ?? '', /unavailable/);
    assert.deepEqual(ai.files, []);
  } finally {
    await server.close();
  }
  const answered = await startScriptedLlm(() => ({ reply: '[]' }));
  try {
    const ai = await generateAiTests(trace, { traceDir: programDir, outDir }, scriptedEnvironment(answered.url, { maxCallsPerBatch: 1 }));
    assert.equal(answered.requests.length, 1);
    assert.equal(ai.skipped.find((s) => s.qualname === 'total')?.kind, 'no-inputs');
    assert.match(ai.skipped.find((s) => s.qualname === 'applyDiscount')?.reason ?? '', /cap of 1 LLM calls is reached/);
  } finally {
    await answered.close();
  }
});

test('--ai: options are validated at the boundary', async () => {
  const llm = scriptedEnvironment('http://127.0.0.1:9/v1');
  await assert.rejects(generateAiTests(trace, { traceDir: programDir, outDir: work, max: 0 }, llm), InvalidOptions);
  await assert.rejects(generateAiTests(trace, { traceDir: programDir, outDir: work, extra: 1 } as never, llm), InvalidOptions);
});

test('readIndex reads back what writeIndex listed, names that need encoding included', () => {
  const dir = join(work, 'index');
  assert.deepEqual(readIndex(dir), []);
  mkdirSync(dir);
  writeIndex(dir, ['shop.test.mjs', 'lib/a b#1.ai.test.mjs']);
  assert.deepEqual(readIndex(dir), ['shop.test.mjs', 'lib/a b#1.ai.test.mjs']);
});
