import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { recordProgram } from '../src/record/recordProgram.ts';
import { generateTests } from '../src/testgen/generateTests.ts';
import { readTrace } from '../src/testgen/readTrace.ts';

// Kinds of functions a test reaches only through something else: each program is recorded, its
// tests written and run green; then a bug planted in the program makes the named tests fail.
const FIXTURE = fileURLToPath(new URL('./fixtures/record/reach/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'snipexec-reach-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Row {
  readonly name: string;
  readonly program: string;
  /** Tests that must be written and pass. */
  readonly passes: readonly string[];
  /** How many skipped calls the tests run and count inside another call's test. */
  readonly ranInside: number;
  /** A bug planted in the program: in `file`, `from` becomes `to`. */
  readonly bug: { readonly file: string; readonly from: string; readonly to: string };
  /** Tests the bug makes fail. */
  readonly fails: readonly string[];
  /** Calls that must be skipped, as `qualname (call N)`, with the kind of skip. */
  readonly skips?: readonly (readonly [string, string])[];
}

const ROWS: readonly Row[] = [
  {
    name: 'function constructors: new with its arguments, prototype methods on its objects, a static method set on it, objects of a prototype naming no constructor; a class static method',
    program: 'counterMain.cjs',
    passes: ['Counter (call 1)', 'Counter.add (call 2)', 'Counter.double (call 3)', 'Counter.zero (call 4)', 'Counter.add (call 6)', 'Stack (call 7)', 'Stack.push (call 8)', 'Stack.peek (call 9)', 'Temperature.fromFahrenheit (call 10)', 'emptyBag (call 11)', 'Bag (call 12)', 'Bag.add (call 13)'],
    ranInside: 0,
    bug: { file: 'counter.cjs', from: 'this.count += n;', to: 'this.count -= n;' },
    fails: ['Counter.add (call 2)', 'Counter.add (call 6)'],
  },
  {
    name: 'methods an object calls on itself run for real, also on an object a constructor running for real builds',
    program: 'versionsMain.cjs',
    passes: ['Requirement.constructor (call 1)', 'Requirement.parse (call 2)', 'Version.constructor (call 3)', 'Version.format (call 4)'],
    ranInside: 0,
    bug: { file: 'versions.cjs', from: '`${this.major}.${this.minor}`', to: '`${this.minor}.${this.major}`' },
    fails: ['Requirement.constructor (call 1)', 'Version.constructor (call 3)', 'Version.format (call 4)'],
  },
  {
    name: 'a UMD factory: its functions are anonymous, reached through module.exports',
    program: 'umdMain.cjs',
    passes: ['<anonymous>@10 (call 3)', '<anonymous>@7 (call 4)', '<anonymous>@7 (call 5)', '<anonymous>@13 (call 6)', '<anonymous>@13 (call 7)'],
    ranInside: 0,
    bug: { file: 'umd.cjs', from: '`${word}s`', to: '`${word}es`' },
    fails: ['<anonymous>@7 (call 4)'],
  },
  {
    name: 'closures of one factory: each call is tested through the path of the closure its maker call made (rules.twice, rules.square), never the other one',
    program: 'closuresMain.cjs',
    passes: ['triple (call 7)', '<anonymous>@4 (call 3)', '<anonymous>@4 (call 5)'],
    ranInside: 2,
    bug: { file: 'closures.cjs', from: '(cache[n] = make(n))', to: '(cache[n] = make(n) + 1)' },
    fails: ['<anonymous>@4 (call 3)', '<anonymous>@4 (call 5)'],
  },
  {
    name: 'minified code: anonymous functions on one line, told apart by their column',
    program: 'minifiedMain.cjs',
    passes: ['<anonymous>@1:32 (call 2)', '<anonymous>@1:60 (call 3)', '<anonymous>@1:60 (call 4)', '<anonymous>@1:32 (call 5)'],
    ranInside: 0,
    bug: { file: 'minified.cjs', from: 'return x*2', to: 'return x*3' },
    fails: ['<anonymous>@1:60 (call 3)', '<anonymous>@1:60 (call 4)'],
  },
  {
    name: 'anonymous callbacks: run inside the test of the function that calls them, which asserts how often they ran',
    program: 'callbacksMain.mjs',
    passes: ['total (call 1)', 'total (call 6)'],
    ranInside: 4,
    // The same result, but the callbacks no longer run as recorded.
    bug: { file: 'callbacks.mjs', from: 'return items.map(', to: 'if (items.length === 2) return 11; return items.map(' },
    fails: ['total (call 1)'],
  },
  {
    name: 'generators: a test spreads the call and compares the values it yielded, also through yield* (not one that stopped early); the calls its body makes are its own, mocked or replayed by a stand-in',
    program: 'generatorsMain.mjs',
    passes: ['range (call 1)', 'shout (call 2)', 'count (call 3)', 'range (call 4)', 'labels (call 6)', 'mapped (call 9)'],
    ranInside: 0,
    bug: { file: 'generators.mjs', from: 'i < to; i++', to: 'i <= to; i++' },
    fails: ['range (call 1)', 'count (call 3)', 'range (call 4)'],
  },
  {
    name: 'module state: a test sets the module variables its call read (through reach) as the call started; a call reading one its mocked child assigns is skipped',
    program: 'lexerMain.cjs',
    passes: ['peek (call 2)', 'position (call 7)', 'peek (call 8)', 'position (call 16)', 'skipSpaces (call 3)', 'read (call 5)'],
    ranInside: 0,
    bug: { file: 'lexer.cjs', from: 'return source[pos];', to: 'return source[pos + 1];' },
    fails: ['peek (call 2)', 'peek (call 8)'],
    skips: [['skipSpaces (call 9)', 'module-state']],
  },
  {
    name: 'function values: a closure argument or receiver field is a stand-in replaying its calls; a top-level function or a class is passed itself; a function holding state, or a lookup in a WeakMap by a rebuilt object, is skipped',
    program: 'functionValuesMain.cjs',
    passes: ['apply (call 3)', 'each (call 5)', 'Parser.step (call 8)', 'apply (call 10)', 'build (call 12)', 'track (call 18)'],
    ranInside: 0,
    // The same result, but the closure it is given is called twice.
    bug: { file: 'functionValues.cjs', from: 'return fn(x) * 10;', to: 'return fn(x) + fn(x) * 9;' },
    fails: ['apply (call 3)', 'apply (call 10)'],
    skips: [['styled (call 16)', 'function-value'], ['sizeOf (call 19)', 'module-state']],
  },
  {
    name: 'function values in a result and in a mocked child\'s result: the program\'s own function, compared as itself; a call that would mock a method changing its object is skipped',
    program: 'functionValuesMain.cjs',
    passes: ['kindOf (call 20)', 'tagFor (call 21)', 'Cursor.advance (call 25)'],
    ranInside: 0,
    bug: { file: 'functionValues.cjs', from: 'test: isInt };', to: 'test: (n) => isInt(n) };' },
    fails: ['tagFor (call 21)'],
    skips: [['walk (call 24)', 'unmockable-child']],
  },
  {
    name: 'classic inheritance: Base.call(this) inside Child runs for real in Child\'s test, as new would run it',
    program: 'inheritMain.cjs',
    passes: ['Child (call 1)', 'Child.describe (call 3)', 'Base.tag (call 4)'],
    ranInside: 0,
    bug: { file: 'inherit.cjs', from: 'this.name = name;', to: 'this.name = String(name).toUpperCase();' },
    fails: ['Child (call 1)'],
  },
  {
    name: 'closures returned by a call: a test makes that call, then the calls of its closures in the recorded order (a counter\'s state carries from one to the next)',
    program: 'makersMain.cjs',
    passes: ['<anonymous>@5 (call 2)', '<anonymous>@5 (call 3)', '<anonymous>@10 (call 4)', '<anonymous>@10 (call 7)', '<anonymous>@22 (call 9)', '<anonymous>@22 (call 10)', '<anonymous>@22 (call 11)', 'edit.builder.build (call 15)'],
    ranInside: 0,
    bug: { file: 'makers.cjs', from: 'n += 1;', to: 'n += 2;' },
    fails: ['<anonymous>@22 (call 9)', '<anonymous>@22 (call 10)', '<anonymous>@22 (call 11)'],
    skips: [['createEmitter (call 1)', 'function-value']],
  },
  {
    name: 'closures returned by a call: handlers given to one closure (on) are stand-ins the next one (emit) calls as recorded',
    program: 'makersMain.cjs',
    passes: ['<anonymous>@10 (call 4)', '<anonymous>@10 (call 7)'],
    ranInside: 0,
    bug: { file: 'makers.cjs', from: 'handler(value);', to: 'handler(value); handler(value);' },
    fails: ['<anonymous>@10 (call 4)', '<anonymous>@10 (call 7)'],
  },
  {
    name: 'closures returned by a call: a chain of calls on the object it returned replays before the tested one',
    program: 'makersMain.cjs',
    passes: ['edit.builder.build (call 15)'],
    ranInside: 0,
    bug: { file: 'makers.cjs', from: 'source.split(name).join(value)', to: 'source.split(name).join(value.toUpperCase())' },
    fails: ['edit.builder.build (call 15)'],
  },
  {
    name: 'closures returned by a call: a chained call giving back the object the maker returned is compared with it by identity',
    program: 'makersMain.cjs',
    passes: ['edit.builder.replace (call 13)', 'edit.builder.replace (call 14)'],
    ranInside: 0,
    bug: { file: 'makers.cjs', from: 'return builder;', to: 'return { ...builder };' },
    fails: ['edit.builder.replace (call 13)', 'edit.builder.replace (call 14)'],
  },
];

function runTests(dir: string) {
  // Without the parent runner's context, the child reports to its own stdout.
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', `${dir}/`], { encoding: 'utf8', timeout: 60_000, env });
  const names = (re: RegExp) => [...r.stdout.matchAll(re)].map((m) => m[1] as string);
  return { passed: names(/^ok \d+ - (.*)$/gm), failed: names(/^not ok \d+ - (.*)$/gm), output: r.stdout + r.stderr };
}

for (const row of ROWS) {
  test(`record reach: ${row.name}`, { timeout: 90_000 }, async () => {
    const dir = join(work, row.program);
    cpSync(FIXTURE, dir, { recursive: true });
    const trace = readTrace((await recordProgram(row.program, [], { cwd: dir, stdio: 'ignore' })).tracePath);
    const out = join(dir, 'generated_tests');
    const generated = generateTests(trace, { traceDir: dir, outDir: out });
    const before = runTests(out);
    const skipped = generated.skipped.map((s) => `${s.qualname} (call ${s.callId}): ${s.reason}`).join('\n');
    assert.deepEqual(before.failed, [], before.output);
    for (const name of row.passes) assert.ok(before.passed.includes(name), `${name} did not pass; passed: ${before.passed.join(', ')}\nskipped:\n${skipped}`);
    assert.equal(generated.ranInside.size, row.ranInside, skipped);
    for (const [name, kind] of row.skips ?? []) assert.ok(generated.skipped.some((s) => `${s.qualname} (call ${s.callId})` === name && s.kind === kind), `${name} was not skipped as ${kind}:\n${skipped}`);
    const file = join(dir, row.bug.file);
    const source = readFileSync(file, 'utf8');
    assert.ok(source.includes(row.bug.from), `${row.bug.file} holds ${row.bug.from}`);
    writeFileSync(file, source.replace(row.bug.from, row.bug.to));
    const buggy = runTests(out);
    for (const name of row.fails) assert.ok(buggy.failed.includes(name), `${name} did not fail with the planted bug; failed: ${buggy.failed.join(', ')}`);
  });
}
