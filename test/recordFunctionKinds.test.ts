import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { recordProgram } from '../src/record/recordProgram.ts';
import { readTrace } from '../src/testgen/readTrace.ts';
import { generateTests } from '../src/testgen/generateTests.ts';

// Kinds of functions record and gen-tests once skipped: each program is recorded, its tests written and run.
const FIXTURE = fileURLToPath(new URL('./fixtures/record/function-kinds/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'snipexec-kinds-'));
cpSync(FIXTURE, work, { recursive: true });
after(() => rmSync(work, { recursive: true, force: true }));

/** Records `program`, writes its tests into a folder of their own, runs them; the names of the tests that passed and failed. */
async function recordAndReplay(program: string) {
  const trace = readTrace((await recordProgram(program, [], { cwd: work, stdio: 'ignore' })).tracePath);
  const out = join(work, `${program}.tests`);
  const generated = generateTests(trace, { traceDir: work, outDir: out });
  // Without the parent runner's context, the child reports to its own stdout.
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', `${out}/`], { encoding: 'utf8', timeout: 60_000, env });
  const names = (re: RegExp) => [...r.stdout.matchAll(re)].map((m) => m[1]);
  return { trace, generated, passed: names(/^ok \d+ - (.*)$/gm), failed: names(/^not ok \d+ - (.*)$/gm), output: r.stdout + r.stderr };
}

test('record kinds: constructors are recorded with their arguments and the object they built, and replayed with new', { timeout: 90_000 }, async () => {
  const { trace, generated, passed, failed, output } = await recordAndReplay('main.mjs');
  const ctors = trace.calls.filter((c) => c.kind === 'constructor');
  assert.deepEqual(ctors.map((c) => [c.qualname, c.parentCallId === null ? null : trace.calls.find((p) => p.callId === c.parentCallId)?.qualname, c.threw ?? false]), [
    ['Shape.constructor', null, false],
    ['Square.constructor', null, false],
    ['Shape.constructor', 'Square.constructor', false],
    ['Square.constructor', 'unit', false],
    ['Shape.constructor', 'Square.constructor', false],
    ['Square.constructor', null, true],
    ['Shape.constructor', 'Square.constructor', false],
  ]);
  assert.deepEqual(ctors[1]?.returnValue, { class: 'Square', value: { kind: { serialization: 'json', value: 'shape' }, name: { serialization: 'json', value: 'square' }, side: { serialization: 'json', value: 3 } } });
  assert.deepEqual(failed, [], output);
  for (const name of ['Shape.constructor (call 1)', 'Square.constructor (call 2)', 'unit (call 5)', 'Square.constructor (call 8)']) assert.ok(passed.includes(name), `${name} did not pass:\n${output}`);
  // Shape's constructor run by super() built a Square: `new Shape()` would not.
  assert.match(generated.skipped.map((s) => s.reason).join('\n'), /Shape\.constructor ran through super\(\) for a Square/);
});

test('record kinds: CommonJS exports, a module that exports one function, and object-literal methods are replayed through their path', { timeout: 90_000 }, async () => {
  const { generated, passed, failed, output } = await recordAndReplay('paths.cjs');
  assert.deepEqual(failed, [], output);
  assert.deepEqual(generated.skipped.map((s) => `${s.qualname}: ${s.kind}`), []);
  assert.deepEqual(passed.sort(), [
    'parse (call 1)', 'units.scale (call 2)', 'parse (call 3)', 'units.scale (call 4)', 'show (call 5)', 'units.format.long (call 6)',
    'show (call 7)', 'units.format.short (call 8)', 'twice (call 9)', 'parse (call 10)',
  ].sort());
});
