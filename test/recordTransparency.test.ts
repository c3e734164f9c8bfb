import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { CallTrace } from '../src/record/callTrace.ts';
import { readTrace } from '../src/testgen/readTrace.ts';
import { selected } from './helpers.ts';

// Each case is a small program run with plain node and under record: stdout, stderr and exit code must be the same bytes.
const FIXTURES = fileURLToPath(new URL('./fixtures/record/', import.meta.url));
const PROBE = join(FIXTURES, 'probes', 'recordProbe.ts');
const work = mkdtempSync(join(tmpdir(), 'snipexec-transparent-'));
cpSync(join(FIXTURES, 'transparent'), work, { recursive: true });
after(() => rmSync(work, { recursive: true, force: true }));

function run(argv: string[]) {
  const r = spawnSync(process.execPath, argv, { cwd: work, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CASES: { name: string; program: string; check: (stdout: string, trace: CallTrace) => void }[] = [
  {
    name: 'a returned, awaited or iterated sequence expression stays one value; minified code keeps its keywords',
    program: 'sequences.mjs',
    check: (stdout, trace) => {
      assert.equal(stdout, "[ 'a', 'b' ] 3 20 5 >xy 8\n{ a: 1 } [ 2 ] 12\n");
      assert.deepEqual(trace.calls.find((c) => c.qualname === 'parseKey')?.returnValue, ['a', 'b']);
    },
  },
  {
    name: 'sloppy mode: arguments, this, new.target, length, name, an own __proto__ key, hoisting',
    program: 'sloppy.cjs',
    check: (stdout) => assert.match(stdout, /\[ 1, 5, 'function' \] \[ 3, 5, 'function' \] true Made \{ x: 3, made: true \}/),
  },
  {
    name: 'no getter, toJSON or Proxy trap runs when arguments, results and exceptions are snapshotted',
    program: 'objects.mjs',
    check: (stdout, trace) => {
      assert.match(stdout, /\n\[\]\n$/, 'a getter or trap ran');
      assert.deepEqual(trace.calls.find((c) => c.qualname === 'thrower')?.exception, { name: 'Proxy' });
    },
  },
  {
    name: 'yield* passes next, throw and return on; a generator keeps its finally, return value and early end',
    program: 'generators.mjs',
    check: (stdout, trace) => {
      assert.match(stdout, /caught boom/);
      // inner ran to its end twice (a; b after its catch); outer gave values through yield* of an array too, which the recorder does not see.
      const values = (qualname: string) => trace.calls.filter((c) => c.qualname === qualname && c.yields !== undefined).map((c) => c.yields?.map((s) => s.value));
      assert.deepEqual(values('inner'), [[1, 2], [1, 'recovered']]);
      assert.deepEqual(values('outer'), []);
    },
  },
  {
    name: 'closures name the call that made them: its result is searched without running a getter or Proxy trap; default parameters, nested levels and block functions keep their scopes',
    program: 'closures.cjs',
    check: (stdout, trace) => {
      assert.equal(stdout, "2 3 8 [ 'undefined', 5 ] deep\n#1\n[]\n");
      const made = (qualname: string) => trace.calls.filter((c) => c.qualname === qualname).map((c) => c.made);
      assert.deepEqual(made('make.inc'), [{ callId: 1, path: ['inc'] }, { callId: 1, path: ['inc'] }]);
      assert.deepEqual(made('make.result.nested.twice'), [{ callId: 1, path: ['nested', 'twice'] }]);
      // A closure a closure returned: made by the call of middle, itself made by outer's call.
      const middle = trace.calls.find((c) => c.qualname === 'outer.middle');
      assert.deepEqual(middle?.made, { callId: trace.calls.find((c) => c.qualname === 'outer')?.callId, path: [] });
      assert.deepEqual(made('<anonymous>@19'), [{ callId: middle?.callId, path: [] }]);
    },
  },
];

for (const c of selected(CASES)) {
  test(`record is transparent: ${c.name}`, { timeout: 90_000 }, () => {
    const plain = run([c.program]);
    const recorded = run([PROBE, c.program]);
    assert.deepEqual(recorded, plain);
    assert.equal(plain.status, 0, plain.stderr);
    c.check(plain.stdout, readTrace(join(work, `${c.program}.trace.json`)));
  });
}
