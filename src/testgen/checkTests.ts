import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CallTrace } from '../record/callTrace.ts';
import { writeTests, type GeneratedTests, type GenerateTestsOptions } from './generateTests.ts';
import { skip, type SkipReason } from './skipReasons.ts';

export interface CheckTestsOptions {
  /** How long one `node --test` run may take before its files count as never finishing; default 60 s. */
  readonly timeoutMs?: number;
  /** Runs of the generated tests at most (each after removing what failed in the one before); default 3. */
  readonly rounds?: number;
}

/** Writes the test files of a trace without the excluded calls: writeTests, or a layout beside it (gen-tests --ai). */
export type TestWriter = (trace: CallTrace, options: GenerateTestsOptions, excluded: ReadonlyMap<number, SkipReason>) => GeneratedTests;

/** What one `node --test` run said: the calls whose test failed and why, and whether anything else failed. */
interface RunReport {
  readonly failedCalls: Map<number, string>;
  /** A failure that names no call (a file that fails to load), or the run did not finish. */
  readonly otherFailure: string | undefined;
}

/**
 * generateTests, then runs what it wrote as a user would (`node --test outDir/`) and writes the
 * tests again without the calls whose test failed: a generated test that fails right away is a
 * defect (the replay differs from the recording: a mocked child that changed its arguments or
 * receiver, state the trace does not hold), so such a call is skipped, its reason the failure's
 * first line. A module whose test file fails to load or never finishes (the program keeps running
 * when imported) loses all its tests. The generated tests run the program's code outside any
 * sandbox, as the recording did. `write` writes the files: writeTests, or another layout beside
 * gen-tests' own (gen-tests --ai); the whole directory still runs, and only this trace's calls are skipped.
 */
export async function generateCheckedTests(trace: CallTrace, options: GenerateTestsOptions, check: CheckTestsOptions = {}, write: TestWriter = writeTests): Promise<GeneratedTests> {
  const timeoutMs = check.timeoutMs ?? 60_000;
  const excluded = new Map<number, SkipReason>();
  // Other tests in the directory (gen-tests' own, beside --ai's) run too; only this trace's calls are ours to skip.
  const ours = new Set(trace.calls.map((call) => call.callId));
  let result = write(trace, options, excluded);
  for (let round = 0; round < (check.rounds ?? 3) && result.index !== undefined && result.files.length > 0; round++) {
    const whole = await runNodeTest([`${dirname(result.index)}/`], timeoutMs);
    const reports = whole.otherFailure === undefined ? [{ file: undefined, report: whole }] : await Promise.all(result.files.map(async (file) => ({ file, report: await runNodeTest([file.path], timeoutMs) })));
    let changed = false;
    for (const { file, report } of reports) {
      for (const [callId, message] of report.failedCalls) {
        if (!ours.has(callId)) continue;
        excluded.set(callId, skip('replay-differs', `its generated test failed when run: ${message}`));
        changed = true;
      }
      if (file !== undefined && report.otherFailure !== undefined) {
        for (const call of trace.calls) if (call.module === file.module && !excluded.has(call.callId)) excluded.set(call.callId, skip('replay-differs', `its module's test file ${report.otherFailure}`));
        changed = true;
      }
    }
    if (!changed) break;
    const before = result.files.map((file) => file.path);
    result = write(trace, options, excluded);
    const kept = new Set(result.files.map((file) => file.path));
    for (const path of before) if (!kept.has(path)) rmSync(path, { force: true });
    if (result.index === undefined) rmSync(`${dirname(before[0] ?? '.')}/index.js`, { force: true });
  }
  return result;
}

/** Runs `node --test` (TAP) on `targets` in a child Node 24, killed after `timeoutMs`. */
function runNodeTest(targets: readonly string[], timeoutMs: number): Promise<RunReport> {
  const env = { ...process.env };
  // Set when snipexec itself runs under node:test: the child would report to it instead of to its stdout.
  delete env.NODE_TEST_CONTEXT;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', ...targets], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole group: node --test runs each file in a process of its own.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const report = parseTap(output);
      if (timedOut) done({ ...report, otherFailure: `did not finish within ${Math.round(timeoutMs / 1000)} s (does importing the program leave it running: a server, a timer?)` });
      else if (report.otherFailure === undefined && code !== 0 && report.failedCalls.size === 0) done({ ...report, otherFailure: `failed (exit code ${code})` });
      else done(report);
    });
  });
}

/** The failed tests of a TAP report: those named `… (call N)` by call, anything else as one failure. */
export function parseTap(output: string): RunReport {
  const failedCalls = new Map<number, string>();
  let otherFailure: string | undefined;
  const lines = output.split('\n');
  lines.forEach((line, index) => {
    const title = /^not ok \d+ - (.*)$/.exec(line)?.[1];
    if (title === undefined) return;
    const message = errorMessage(lines, index + 1);
    const callId = /\(call (\d+)\)$/.exec(title)?.[1];
    if (callId !== undefined) failedCalls.set(Number(callId), message);
    else otherFailure ??= `fails when loaded: ${lines.find((l) => /^# \w*Error\b/.test(l))?.slice(2) ?? message}`;
  });
  return { failedCalls, otherFailure };
}

/** The first line of the `error:` of the TAP YAML block starting at `from`. */
function errorMessage(lines: readonly string[], from: number): string {
  for (let i = from; i < lines.length && lines[i] !== '  ...'; i++) {
    const error = /^ {2}error: (.*)$/.exec(lines[i] ?? '')?.[1];
    if (error === undefined) continue;
    // A block (`|-`): its first lines, which say what differed (`Expected values to be strictly deep-equal: 0 !== 2`).
    const block = lines.slice(i + 1, i + 6).filter((l) => l.startsWith('    ') && l.trim() !== '');
    const text = error === '|-' ? block.slice(0, 3).map((l) => l.trim()).join(' ') : error.replace(/^'(.*)'$/, '$1');
    return text.slice(0, 200);
  }
  return 'failed';
}
