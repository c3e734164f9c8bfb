import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, dirname, extname, resolve } from 'node:path';
import { CorruptTrace, UnusableProgram } from '../core/errors.ts';
import { TRACE_VERSION, traceFileFor, type CallTrace } from './callTrace.ts';
import { formatTrace } from './formatTrace.ts';
import { PROGRAM_EXTENSIONS, programDirectory } from './programHooks.ts';
import { SecretScanner } from './redactEnvValues.ts';
import { REDACTED } from './snapshotValue.ts';
import { RECORD_ENV, type RecordConfig } from './recordConfig.ts';
import { recordPreload } from './recordPreload.ts';

export interface RecordOptions {
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
  /** `PROGRAM.trace.json`, next to the program. */
  readonly tracePath: string;
  readonly trace: CallTrace;
}

/**
 * Runs `programPath` with `args` as `node PROGRAM ARGS` would (the Node running snipexec, inherited
 * stdio, the same argv, exit code and output), recording every call of the program's own functions
 * into `PROGRAM.trace.json` next to it, also when it throws or exits non-zero.
 * Throws UnusableProgram when the program does not exist or is not JavaScript or TypeScript, and
 * BundleFailed when the recorder's own preload cannot be bundled (recordPreload.ts).
 */
export async function recordProgram(programPath: string, args: readonly string[] = [], options: RecordOptions = {}): Promise<RecordedRun> {
  const program = resolve(options.cwd ?? process.cwd(), programPath);
  if (!existsSync(program) || !statSync(program).isFile()) throw new UnusableProgram(`record: no such program file: ${programPath}`);
  if (!PROGRAM_EXTENSIONS.includes(extname(program))) {
    throw new UnusableProgram(`record: ${programPath} is not JavaScript or TypeScript (expected ${PROGRAM_EXTENSIONS.join(' ')})`);
  }
  const tracePath = traceFileFor(program);
  rmSync(tracePath, { force: true }); // a stale trace must not pass for this run's
  const preload = await recordPreload();
  const config: RecordConfig = { programDir: programDirectory(dirname(program)), tracePath, program: basename(program), preload };
  const env = { ...(options.env ?? process.env), [RECORD_ENV]: JSON.stringify(config) };
  const exitCode = await new Promise<number>((done, fail) => {
    const child = spawn(process.execPath, ['--require', preload, program, ...args], { stdio: options.stdio ?? 'inherit', env, ...(options.cwd ? { cwd: options.cwd } : {}) });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
  if (!existsSync(tracePath)) {
    // Killed before its exit handler ran (a signal): what it recorded is lost; the trace says how it ended.
    const scanner = new SecretScanner(options.env ?? process.env, args);
    const argv = scanner.redactArgv(args, String(REDACTED.value));
    writeFileSync(tracePath, formatTrace({ version: TRACE_VERSION, program: config.program, argv, exitCode, calls: [] }));
  }
  return { exitCode, tracePath, trace: readTrace(tracePath) };
}

function readTrace(tracePath: string): CallTrace {
  try {
    return JSON.parse(readFileSync(tracePath, 'utf8')) as CallTrace;
  } catch (e) {
    throw new CorruptTrace(`record: the trace ${tracePath} could not be read: ${(e as Error).message}`, undefined, { cause: e });
  }
}
