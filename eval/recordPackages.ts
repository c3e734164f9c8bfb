/**
 * `node eval/recordPackages.ts [--keep DIR] [NAME…]`: records each example of test/fixtures/record-packages
 * (the packages copied next to it, so they are instrumented), writes its tests with gen-tests
 * (checked: a test that fails when first run is skipped as replay-differs), runs them once more,
 * and prints per package and in all: calls recorded, tests written, tests passing on the rerun,
 * calls run and counted inside another call's test, and skips by kind. Run `npm run record-packages` first.
 * `--keep DIR`: the recordings and their tests stay in DIR (one folder per package, with `skipped.json`: every skip) instead of a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordProgram } from '../src/record/recordProgram.ts';
import { readTrace } from '../src/testgen/readTrace.ts';
import { generateCheckedTests } from '../src/testgen/checkTests.ts';
import { SKIP_KINDS, type SkipKind } from '../src/testgen/skipReasons.ts';
import { layOutExample, PACKAGE_EXAMPLES } from '../test/recordPackages.ts';

const argv = process.argv.slice(2);
const keepAt = argv.indexOf('--keep');
const keep = keepAt >= 0 ? argv.splice(keepAt, 2)[1] : undefined;
const only = argv;
const work = keep === undefined ? mkdtempSync(join(tmpdir(), 'snipexec-record-packages-')) : (rmSync(keep, { recursive: true, force: true }), mkdirSync(keep, { recursive: true }), keep);
const total = { calls: 0, tests: 0, ranInside: 0, passed: 0, failed: 0, skips: new Map<SkipKind, number>() };
const verbose = process.env.VERBOSE === '1';
try {
  for (const example of PACKAGE_EXAMPLES.filter((e) => only.length === 0 || only.includes(e.name))) {
    const dir = layOutExample(example, work);
    const trace = readTrace((await recordProgram(example.file, [], { cwd: dir, stdio: 'ignore' })).tracePath);
    const out = join(dir, 'generated_tests');
    const generated = await generateCheckedTests(trace, { traceDir: dir, outDir: out });
    const tests = generated.files.reduce((n, f) => n + f.tests, 0);
    const rerun = generated.index === undefined ? undefined : spawnSync(process.execPath, ['--test', '--test-reporter=tap', `${out}/`], { encoding: 'utf8', timeout: 120_000 });
    const passed = Number(/^# pass (\d+)/m.exec(rerun?.stdout ?? '')?.[1] ?? 0);
    const failed = Number(/^# fail (\d+)/m.exec(rerun?.stdout ?? '')?.[1] ?? 0);
    const kinds = new Map<SkipKind, number>();
    for (const s of generated.skipped) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
    total.calls += trace.calls.length;
    total.tests += tests;
    total.ranInside += generated.ranInside.size;
    total.passed += passed;
    total.failed += failed;
    for (const [k, n] of kinds) total.skips.set(k, (total.skips.get(k) ?? 0) + n);
    const byKind = [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join(', ');
    console.log(`${example.name.padEnd(16)} calls ${String(trace.calls.length).padStart(5)}  tests ${String(tests).padStart(4)} +${String(generated.ranInside.size).padStart(4)} run inside  rerun ${passed}/${passed + failed}  skipped: ${byKind || 'none'}`);
    if (keep !== undefined) writeFileSync(join(dir, 'skipped.json'), JSON.stringify(generated.skipped, null, 1));
    if (verbose) for (const s of generated.skipped) console.log(`    ${s.kind}: ${s.qualname} (call ${s.callId}): ${s.reason.slice(0, 160)}`);
  }
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);
  console.log(`\nall: ${total.calls} calls, ${total.tests} tests (${pct(total.tests, total.calls)} of the calls), rerun ${total.passed}/${total.passed + total.failed} passing (${pct(total.passed, total.passed + total.failed)})`);
  console.log(`calls run inside a test that asserts their number (anonymous and nested functions): ${total.ranInside}; calls with a test of their own or run and counted inside one: ${total.tests + total.ranInside} (${pct(total.tests + total.ranInside, total.calls)})`);
  const replayDiffers = total.skips.get('replay-differs') ?? 0;
  console.log(`first run of the written tests: ${total.tests}/${total.tests + replayDiffers} passing (${pct(total.tests, total.tests + replayDiffers)})`);
  console.log(`skips: ${[...total.skips].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${SKIP_KINDS[k]} (${k})`).join('; ')}`);
} finally {
  if (keep === undefined) rmSync(work, { recursive: true, force: true });
}
