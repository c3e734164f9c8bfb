import { spawn } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, dirname, extname, resolve } from 'node:path';
import { UnusableProgram } from '../core/errors.ts';
import { parseRecordLimits, type RecordLimitsInput } from '../core/options.ts';
import { traceFileFor, type Truncation } from './callTrace.ts';
import { finishTrace } from './finishTrace.ts';
import { PROGRAM_EXTENSIONS, programDirectory } from './programHooks.ts';
import { SecretScanner } from './redactEnvValues.ts';
import { REDACTED } from './snapshotValue.ts';
import { RECORD_ENV, type RecordConfig } from './recordConfig.ts';
import { recordPreload } from './recordPreload.ts';

export interface RecordOptions extends RecordLimitsInput {
  /** The program's working directory; default: this process's. */
  readonly cwd?: string;
  /** The program's environment; default: this process's. Secret-named variables' values are redacted from the trace. */
  readonly env?: NodeJS.ProcessEnv;
  /** `inherit` (default): the program reads and writes this process's terminal, as `node PROGRAM` would; `ignore`: its input is empty and its output dropped (`run --tests`, whose own output is the run's). */
  readonly stdio?: 'inherit' | 'ignore';
}

export interface RecordedRun {
  /** The program's exit code (128 + the signal's number when a signal ended it), as `node PROGRAM ARGS` would give. */
  readonly exitCode: number;
  /** `PROGRAM.trace.json`, next to the program: read it with readTrace. */
  readonly tracePath: string;
  /** How many calls the trace holds. */
  readonly calls: number;
  /** Set when `maxCalls` or `maxTraceBytes` dropped calls. */
  readonly truncated?: Truncation;
  /** The recorder was killed before it ended the trace (SIGKILL): the calls it had not written yet are lost. */
  readonly interrupted?: true;
}

/**
 * Runs `programPath` with `args` as `node PROGRAM ARGS` would (the Node running snipexec, inherited
 * stdio, the same argv, exit code and output), recording every call of the program's own functions
 * into `PROGRAM.trace.json` next to it as the program runs, also when it throws, exits non-zero
 * or is ended by a signal; `maxCalls` and `maxTraceBytes` bound the trace (InvalidOptions when
 * out of range). Throws UnusableProgram when the program does not exist or is not JavaScript or TypeScript, and
 * BundleFailed when the recorder's own preload cannot be bundled (recordPreload.ts).
 */
export async function recordProgram(programPath: string, args: readonly string[] = [], options: RecordOptions = {}): Promise<RecordedRun> {
  const limits = parseRecordLimits({ maxCalls: options.maxCalls, maxTraceBytes: options.maxTraceBytes });
  const program = resolve(options.cwd ?? process.cwd(), programPath);
  if (!existsSync(program) || !statSync(program).isFile()) throw new UnusableProgram(`record: no such program file: ${programPath}`);
  if (!PROGRAM_EXTENSIONS.includes(extname(program))) {
    throw new UnusableProgram(`record: ${programPath} is not JavaScript or TypeScript (expected ${PROGRAM_EXTENSIONS.join(' ')})`);
  }
  const tracePath = traceFileFor(program);
  rmSync(tracePath, { force: true }); // a stale trace must not pass for this run's
  const preload = await recordPreload();
  const config: RecordConfig = { programDir: programDirectory(dirname(program)), tracePath, program: basename(program), preload, limits };
  const env = { ...(options.env ?? process.env), [RECORD_ENV]: JSON.stringify(config) };
  const exitCode = await new Promise<number>((done, fail) => {
    const child = spawn(process.execPath, ['--require', preload, program, ...args], { stdio: options.stdio ?? 'inherit', env, ...(options.cwd ? { cwd: options.cwd } : {}) });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
  // Killed before its exit handler ran (SIGKILL): the trace gets the end line its recorder could not write.
  const argv = new SecretScanner(options.env ?? process.env, args).redactArgv(args, String(REDACTED.value));
  const end = finishTrace(tracePath, { program: config.program, argv }, exitCode);
  return { exitCode, tracePath, calls: end.calls, ...(end.truncated ? { truncated: end.truncated } : {}), ...(end.interrupted ? { interrupted: true } : {}) };
}
