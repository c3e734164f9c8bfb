import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { recordProgram } from '../src/record/recordProgram.ts';
import type { CallTrace } from '../src/record/callTrace.ts';
import { generateTests, type GeneratedTests } from '../src/testgen/generateTests.ts';
import { readTrace } from '../src/testgen/readTrace.ts';

// Values that are not JSON, recorded and replayed: a small program is recorded, gen-tests writes its
// tests, they pass, and a bug planted in the program (one row each) makes that row's tests fail.
const FIXTURE = fileURLToPath(new URL('./fixtures/record/values/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'snipexec-values-'));
cpSync(FIXTURE, work, { recursive: true });
after(() => rmSync(work, { recursive: true, force: true }));
const out = join(work, 'tests');
let trace: CallTrace;
let generated: GeneratedTests;

/** Runs the generated tests: the names of those that passed and failed. */
function runTests(dir = out) {
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', `${dir}/`], { encoding: 'utf8', timeout: 60_000, env });
  const names = (re: RegExp) => [...r.stdout.matchAll(re)].map((m) => m[1] ?? '');
  return { passed: names(/^ok \d+ - (.*)$/gm), failed: names(/^not ok \d+ - (.*)$/gm), output: r.stdout + r.stderr };
}

before(async () => {
  trace = readTrace((await recordProgram('main.cjs', [], { cwd: work, stdio: 'ignore' })).tracePath);
  generated = generateTests(trace, { traceDir: work, outDir: out });
});

const callsOf = (qualname: string) => trace.calls.filter((c) => c.qualname === qualname).map((c) => `${qualname} (call ${c.callId})`);

/** What each kind of value is recorded as, the tests it gives, and a bug in the program those tests catch. */
const SPEC = [
  { what: 'a null-prototype object, as a result and as an argument', functions: ['counts', 'lookup'], snapshot: ['counts', 'object'], bug: ['shapes.cjs', 'const out = Object.create(null);', 'const out = {};'], fails: ['counts'] },
  { what: 'hidden state under a registered symbol (defineProperty, not enumerable)', functions: ['isScalar', 'scalar', 'Node.constructor'], snapshot: ['scalar', 'instance'], bug: ['shapes.cjs', "node[TYPE] === 'scalar'", "node.kind === 'scalar'"], fails: ['isScalar'] },
  { what: 'objects of a function constructor, as a result and as arguments, and the constructor run by new', functions: ['point', 'distance', 'Point'], snapshot: ['point', 'instance'], bug: ['shapes.cjs', 'this.y = y;', 'this.y = x;'], fails: ['point', 'Point'] },
  { what: 'an object of a class and undefined inside a plain object, an array holding undefined', functions: ['pair'], snapshot: ['pair', 'object'], bug: ['shapes.cjs', 'missing: undefined', 'missing: null'], fails: ['pair'] },
  { what: 'a unique symbol key in a result, compared by description', functions: ['labelled'], snapshot: ['labelled', 'object'], bug: ['shapes.cjs', "Symbol('hidden')", "Symbol('shown')"], fails: ['labelled'] },
  { what: 'a registered symbol as a result and as an argument', functions: ['keyOf'], snapshot: ['keyOf', 'symbol'], bug: ['shapes.cjs', 'return Symbol.for(name);', 'return Symbol(name);'], fails: ['keyOf'] },
  { what: 'objects that refer to themselves (a parent link), as a result and as an argument', functions: ['tree', 'depthOf'], snapshot: ['tree', 'object'], bug: ['shapes.cjs', 'node.kids.push({ name: kid, parent: node });', 'node.kids.push({ name: kid, parent: { ...node } });'], fails: ['tree'] },
  { what: 'an array with a named property', functions: ['tokens'], snapshot: ['tokens', 'array'], bug: ['shapes.cjs', 'list.links = { first: list[0] };', 'list.links = { first: list[1] };'], fails: ['tokens'] },
] as const;

test('record values: every call of the spec gives a test, and the tests pass as written', { timeout: 120_000 }, () => {
  const { passed, failed, output } = runTests();
  assert.deepEqual(failed, [], output);
  for (const row of SPEC) {
    for (const fn of row.functions) {
      const names = callsOf(fn);
      assert.ok(names.length > 0, `${fn} was not recorded`);
      for (const name of names) assert.ok(passed.includes(name), `${row.what}: ${name} did not pass\n${generated.skipped.map((s) => `${s.qualname}: ${s.reason}`).join('\n')}`);
    }
    const [fn, serialization] = row.snapshot;
    assert.equal(trace.calls.find((c) => c.qualname === fn)?.returnSerialization, serialization, `${row.what}: ${fn}'s result`);
  }
});

for (const row of SPEC) {
  test(`record values: ${row.what}: a planted bug fails its tests`, { timeout: 120_000 }, () => {
    const [module, from, to] = row.bug;
    const path = join(work, module);
    const original = readFileSync(path, 'utf8');
    assert.ok(original.includes(from), `${module} has no ${from}`);
    writeFileSync(path, original.replace(from, to));
    try {
      const { failed, output } = runTests();
      for (const fn of row.fails) assert.ok(callsOf(fn).some((name) => failed.includes(name)), `no test of ${fn} failed with ${to}\n${output}`);
    } finally {
      writeFileSync(path, original);
    }
  });
}

test('record values: a function constructor run by new is recorded as a constructor call, with the object it built, and its test calls it with new', () => {
  const points = trace.calls.filter((c) => c.qualname === 'Point');
  assert.ok(points.length > 0);
  for (const c of points) assert.deepEqual([c.kind, c.returnSerialization], ['constructor', 'instance']);
  assert.deepEqual(generated.skipped.filter((s) => s.qualname === 'Point'), []);
  const file = readFileSync(join(out, 'shapes.test.mjs'), 'utf8');
  assert.match(file, /new \w+\.Point\(/);
});

test('record values: a registered symbol argument is made again; a unique one is not (the program would compare it by identity)', () => {
  const describe = trace.calls.filter((c) => c.qualname === 'describe');
  const skipped = new Map(generated.skipped.map((s) => [s.callId, s]));
  assert.deepEqual(describe.map((c) => [c.args.symbol?.value, c.args.symbol?.symbol, skipped.get(c.callId)?.kind ?? 'test']), [['k', 'registered', 'test'], ['local', 'unique', 'not-json-safe']]);
  assert.match(skipped.get(describe[1]?.callId ?? 0)?.reason ?? '', /the unique symbol Symbol\(local\), which a test cannot make again/);
});

test('record values: module state: a test sets the module variables its call read as the call started; one whose mocked child changes a module object it reads is skipped', { timeout: 120_000 }, () => {
  const skipped = new Map(generated.skipped.map((s) => [s.callId, s]));
  const outcome = (qualname: string) => trace.calls.filter((c) => c.qualname === qualname).map((c) => [c.args.n?.value, skipped.get(c.callId)?.kind ?? 'test']);
  assert.deepEqual(trace.calls.find((c) => c.qualname === 'show' && c.args.n?.value === 3)?.state, { unit: { serialization: 'json', value: 'in' }, shown: { serialization: 'json', value: 2 } });
  assert.deepEqual(outcome('show'), [[1, 'test'], [2, 'test'], [3, 'test'], [4, 'test']]);
  assert.deepEqual(outcome('scaled'), [[2, 'test'], [3, 'test']]);
  const doubled = skipped.get(trace.calls.find((c) => c.qualname === 'doubled')?.callId ?? 0);
  assert.equal(doubled?.kind, 'module-state');
  assert.match(doubled?.reason ?? '', /it calls parseInto \(call \d+\), replayed by a mock, which changes parsed, a module object it reads/);
  assert.match(readFileSync(join(out, 'units.test.mjs'), 'utf8'), /units\.unit = "in";/);
  const { passed } = runTests();
  for (const name of [...callsOf('setUnit'), ...callsOf('convert'), ...callsOf('setScale'), ...callsOf('show'), ...callsOf('scaled'), ...callsOf('parseInto')]) assert.ok(passed.includes(name), `${name} did not pass`);
});

test('record values: module state in a trace without its values (an older recorder): a call reading what earlier calls set is tested when those are tests of their own, else skipped as module-state', { timeout: 120_000 }, () => {
  const older = join(work, 'older-tests');
  const stateless = generateTests({ ...trace, calls: trace.calls.map(({ state: _state, ...call }) => call) }, { traceDir: work, outDir: older });
  const skipped = new Map(stateless.skipped.map((s) => [s.callId, s]));
  const outcome = (qualname: string) => trace.calls.filter((c) => c.qualname === qualname).map((c) => [c.args.n?.value, skipped.get(c.callId)?.kind ?? 'test']);
  // show 3 and 4 come after convert's nested use() set the unit: no test calls use().
  assert.deepEqual(outcome('show'), [[1, 'test'], [2, 'test'], [3, 'module-state'], [4, 'module-state']]);
  const reason = (qualname: string, n: number) => skipped.get(trace.calls.find((c) => c.qualname === qualname && c.args.n?.value === n)?.callId ?? 0)?.reason ?? '';
  assert.match(reason('show', 3), /it reads unit, a module variable that convert\.use \(call \d+\) assigned before it, which is not a test itself/);
  // `shown++` only updates a counter: not a read the result depends on.
  assert.doesNotMatch(reason('show', 3), /shown/);
  // The inner setScale runs in its own test and inside the outer one's: scale would be multiplied twice.
  assert.deepEqual(outcome('scaled'), [[2, 'test'], [3, 'module-state']]);
  assert.match(reason('scaled', 3), /setScale \(call \d+\) assigned before it, which the test of call \d+ runs too/);
  const { passed } = runTests(older);
  for (const name of [...callsOf('setUnit'), ...callsOf('convert'), ...callsOf('setScale'), ...callsOf('show').slice(0, 2), ...callsOf('scaled').slice(0, 1), ...callsOf('parseInto')]) assert.ok(passed.includes(name), `${name} did not pass`);
});
