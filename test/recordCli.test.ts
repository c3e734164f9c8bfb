import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { readTrace } from '../src/testgen/readTrace.ts';
import { cli } from './helpers.ts';
import { startScriptedLlm } from './llmServer.ts';

const ROOT = join(import.meta.dirname, '..');

/** A copy of a fixture folder in a fresh temporary directory (record writes next to the program). */
function copyFixture(t: TestContext, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-record-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(import.meta.dirname, 'fixtures', 'record', name), dir, { recursive: true });
  return dir;
}

/** `node --test DIR/` as a user runs the generated tests. */
function nodeTest(dir: string): { code: number | null; output: string; passed: number; failed: number } {
  // A child of a test file would otherwise think it runs inside this test run, and run nothing.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, ['--test', dir.endsWith('.mjs') ? dir : `${dir}/`], { encoding: 'utf8', timeout: 120_000, env });
  const output = `${r.stdout}${r.stderr}`;
  const count = (label: string) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
  return { code: r.status, output, passed: count('pass'), failed: count('fail') };
}

test('record CLI: the quickstart runs as plain node does, writes a 2-call trace with the parent link, and tests that pass (total mocks applyDiscount)', (t) => {
  const dir = copyFixture(t, 'shop');
  const plain = spawnSync(process.execPath, [join(dir, 'shop.js')], { encoding: 'utf8' });
  const r = cli(['record', join(dir, 'shop.js')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, plain.stdout, 'the program prints what it prints under plain node, and snipexec adds nothing to stdout');
  assert.match(r.stderr, /recorded 2 calls into .*shop\.js\.trace\.json/);
  assert.match(r.stderr, /gen-tests: 2 tests in 1 file; no call skipped/);
  const trace = readTrace(join(dir, 'shop.js.trace.json'));
  assert.deepEqual(trace.calls.map((c) => [c.callId, c.parentCallId, c.qualname]), [[1, null, 'total'], [2, 1, 'applyDiscount']]);
  const generated = readFileSync(join(dir, 'generated_tests', 'shop.test.mjs'), 'utf8');
  assert.match(generated, /replay\("shop\.js#applyDiscount"/, "total's test mocks applyDiscount");
  const run = nodeTest(join(dir, 'generated_tests'));
  assert.equal(run.code, 0, run.output);
  assert.equal(run.passed, 2, run.output);
});

test('record CLI: the generated files name no absolute path, and what the program prints when imported stays out of the test report', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-record-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'prices.cjs'), 'function net(gross) {\n  return gross / 1.2;\n}\nmodule.exports = { net };\n');
  writeFileSync(join(dir, 'main.cjs'), "const { net } = require('./lib/prices.cjs');\nfunction report(gross) {\n  return `net ${net(gross)}`;\n}\nconsole.log('zebra-out', report(12));\nconsole.error('zebra-err');\n");
  const r = cli(['record', join(dir, 'main.cjs')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'zebra-out net 10\n');
  // Without snipexec in the project, the tests import this installation's hooks through a helper, by a relative path.
  assert.match(r.stderr, /the tests import snipexec through .*snipexec-replay\.mjs/);
  const out = join(dir, 'generated_tests');
  const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => /\.m?js$/.test(f));
  assert.deepEqual(files.sort(), ['index.js', 'lib/prices.test.mjs', 'main.test.mjs', 'snipexec-replay.mjs']);
  for (const file of files) {
    const text = readFileSync(join(out, file), 'utf8');
    // A relative path (`../../work/main/src/…`) may pass through the same folders; a path that starts at the root may not.
    for (const absolute of [dir, tmpdir(), ROOT]) assert.ok(!new RegExp(`(?<!\\.\\.)${absolute.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(text), `${file} names ${absolute}:\n${text}`);
    assert.ok(!text.includes('file:'), `${file} names a file: URL:\n${text}`);
  }
  assert.match(readFileSync(join(out, 'lib/prices.test.mjs'), 'utf8'), /from "\.\.\/snipexec-replay\.mjs";/);
  assert.match(readFileSync(join(out, 'snipexec-replay.mjs'), 'utf8'), /^export \{ registerTestHooks, mocks, reach \} from "(\.\.\/)+[^"]*\/src\/replay\.ts";$/m);
  for (const target of [out, join(out, 'main.test.mjs')]) {
    const run = nodeTest(target);
    assert.equal(run.code, 0, run.output);
    assert.equal(run.passed, target === out ? 2 : 1, run.output);
    assert.ok(!/zebra/.test(run.output), `the program's output when imported is in the test report:\n${run.output}`);
  }
});

test('record CLI: skipped calls are one stderr line per kind (an inline reduce callback called 50 times is one line); --verbose lists each', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-record-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'cart.js'), [
    'function price(item) {',
    '  return item.qty * item.unit;',
    '}',
    'const items = Array.from({ length: 50 }, (_, i) => ({ qty: i % 3, unit: 2 }));',
    'const total = items.reduce((sum, item) => sum + price(item), 0);',
    "const tagged = { [Symbol('id')]: 1, name: 'x' };",
    'function describe(o) { return o.name; }',
    'console.log(total, describe(tagged));',
    '',
  ].join('\n'));
  const r = cli(['record', join(dir, 'cart.js')]);
  assert.equal(r.code, 0, r.stderr);
  const skipLines = r.stderr.split('\n').filter((line) => /skipped/.test(line));
  assert.equal(skipLines.length, 3, r.stderr);
  assert.match(skipLines[0] ?? '', /^snipexec: skipped 100 calls \(a function not reachable from its module\): cart\.js#<anonymous>@4 ×50, cart\.js#<anonymous>@5 ×50; e\.g\. call 1: /);
  assert.match(skipLines[1] ?? '', /^snipexec: skipped 1 call \(a value that is not JSON-safe\): cart\.js#describe; e\.g\. call 151: argument o holds state under the unique symbol Symbol\(id\), which a test cannot make again$/);
  assert.match(skipLines[2] ?? '', /^snipexec: gen-tests: 50 tests in 1 file; 101 calls skipped \(100 a function not reachable from its module, 1 a value that is not JSON-safe\)/);
  assert.match(skipLines[2] ?? '', /--verbose lists each skipped call/);
  // The test file lists them by function and reason too.
  const listed = readFileSync(join(dir, 'generated_tests', 'cart.test.mjs'), 'utf8').split('// Skipped calls:\n')[1]?.trim().split('\n') ?? [];
  assert.deepEqual(listed.map((line) => line.replace(/\): .*/, ')')), ['// - <anonymous>@4 (calls 1, 2, 3, 4, 5 and 45 more)', '// - <anonymous>@5 (calls 51, 53, 55, 57, 59 and 45 more)', '// - describe (call 151)']);
  const verbose = cli(['gen-tests', '--verbose', join(dir, 'cart.js.trace.json')]);
  assert.equal(verbose.code, 0, verbose.stderr);
  const each = verbose.stderr.split('\n').filter((line) => /^snipexec: skipped cart\.js#\S+ \(call \d+\): /.test(line));
  assert.equal(each.length, 101, verbose.stderr);
});

test('record CLI: ARGS after -- reach the program, and snipexec exits with its exit code; --no-tests writes none', (t) => {
  const dir = copyFixture(t, 'crash');
  const r = cli(['record', '--no-tests', join(dir, 'exit3.mjs')]);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /failing: bad input/);
  assert.ok(existsSync(join(dir, 'exit3.mjs.trace.json')), 'the trace is written also when the program fails');
  assert.ok(!existsSync(join(dir, 'generated_tests')));
  writeFileSync(join(dir, 'args.mjs'), 'function show(args) { return args.join(","); }\nconsole.log(show(process.argv.slice(2)));\n');
  const withArgs = cli(['record', '--no-tests', join(dir, 'args.mjs'), '--', '--flag', 'x']);
  assert.equal(withArgs.code, 0, withArgs.stderr);
  assert.equal(withArgs.stdout, '--flag,x\n');
});

test('record CLI: a missing program, or one that is not JavaScript, exits 2 with a clear message', (t) => {
  const dir = copyFixture(t, 'shop');
  const missing = cli(['record', join(dir, 'nope.js')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no such program file: .*nope\.js \[UNUSABLE_PROGRAM\]/);
  writeFileSync(join(dir, 'notes.txt'), 'hello');
  const text = cli(['record', join(dir, 'notes.txt')]);
  assert.equal(text.code, 2);
  assert.match(text.stderr, /is not JavaScript or TypeScript/);
});

test('gen-tests CLI: writes the tests of a trace; a corrupt trace exits 2 naming its line', (t) => {
  const dir = copyFixture(t, 'shop');
  assert.equal(cli(['record', '--no-tests', join(dir, 'shop.js')]).code, 0);
  const out = join(dir, 'elsewhere');
  const r = cli(['gen-tests', join(dir, 'shop.js.trace.json'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(nodeTest(out).passed, 2);
  const lines = readFileSync(join(dir, 'shop.js.trace.json'), 'utf8').split('\n');
  lines[2] = lines[2]!.replace('"qualname"', '"qualname":');
  writeFileSync(join(dir, 'bad.trace.json'), lines.join('\n'));
  const bad = cli(['gen-tests', join(dir, 'bad.trace.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /bad\.trace\.json:3: .*\[CORRUPT_TRACE\]/);
});

test('run --tests: the calls of the snippet\'s own functions in its completed program become tests that pass under node --test', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-run-tests-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = cli(['run', 'examples/cart-total.js', '--tests', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).status, 'completed', 'stdout is the run\'s JSON only: the recorded program\'s output is dropped');
  assert.match(r.stderr, /gen-tests: 2 tests in 1 file/);
  const generated = readFileSync(join(dir, 'cart-total.test.mjs'), 'utf8');
  assert.match(generated, /replay\("cart-total\.js#lineTotal"/, 'cartTotal runs its own reduce callback and mocks lineTotal');
  const run = nodeTest(dir);
  assert.equal(run.code, 0, run.output);
  assert.equal(run.passed, 2, run.output);
});

test('record --ai: the model proposes inputs over 127.0.0.1, the real function decides the expectations, and no source text goes out', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-record-ai-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'calc.js'), [
    '// zebra-marker: the model must never see this comment',
    'function applyDiscount(price, pct) {',
    '  const CEILING_OF_ZEBRAS = 100;',
    '  if (pct > CEILING_OF_ZEBRAS) throw new RangeError("pct " + pct);',
    '  return Math.round(price * (100 - pct)) / 100;',
    '}',
    'console.log(applyDiscount(10, 10));',
    'module.exports = { applyDiscount };',
    '',
  ].join('\n'));
  // The reply claims expectations too; only the argument lists count.
  const server = await startScriptedLlm(() => ({ reply: 'Try these:\n```json\n[[200, 50], [10, 150]]\n```\nExpected: 999 and 1.' }));
  t.after(() => server.close());
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key', SNIPEXEC_MODEL: 'scripted', NODE_OPTIONS: '' };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--no-node-snapshot', join(import.meta.dirname, '..', 'bin', 'snipexec.cjs'), 'record', join(dir, 'calc.js'), '--ai'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stderr, /gen-tests --ai: 2 tests in 1 file/);
  const ai = readFileSync(join(dir, 'generated_tests', 'calc.ai.test.mjs'), 'utf8');
  assert.match(ai, /applyDiscount\(200, 50\)[\s\S]*deepStrictEqual\(result, 100\)/, 'the real result, not the model\'s 999');
  assert.match(ai, /assert\.throws\([\s\S]*applyDiscount\(10, 150\)[\s\S]*RangeError/);
  assert.ok(server.requests.length > 0);
  for (const request of server.requests) assert.ok(!/zebra|CEILING|Math\.round/i.test(request.raw), 'no source text in any request');
  const run = nodeTest(join(dir, 'generated_tests'));
  assert.equal(run.code, 0, run.output);
  assert.equal(run.passed, 3, run.output);
});
