import { mkdirSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { InvalidOptions, UnusableFile } from '../core/errors.ts';
import type { RunResult } from '../core/runResult.ts';
import { jsonText, terminalLine, terminalText } from '../report/terminalText.ts';
import { colorEnabled } from './colorMode.ts';
import type { CommandContext } from './commandContext.ts';
import { llmEnvironment, runLogger, toReportOptions, toRunOptions, type Flags } from './commandOptions.ts';
import { expandInputs } from './expandInputs.ts';
import { checkInputFile, checkWritableFile, readInputFile } from './inputFiles.ts';
import type { ReportFlags } from './reportFlags.ts';
import { ReportOutputs } from './reportOutputs.ts';

/** The CLI's output flags of `run`. */
export type EmitFlags = { emit?: string; scenario?: number; emitDir?: string };

/** The output flags checked before anything runs: --scenario goes with --emit; --emit-dir is made when missing. */
function checkEmitFlags(flags: EmitFlags): void {
  if (flags.scenario !== undefined && flags.emit === undefined) throw new InvalidOptions('--scenario: needs --emit FILE (--emit-dir writes every scenario)');
  if (flags.emit) checkWritableFile(flags.emit);
  if (flags.emitDir === undefined) return;
  let stats: Stats | undefined;
  try {
    stats = statSync(flags.emitDir, { throwIfNoEntry: false });
    if (stats === undefined) mkdirSync(flags.emitDir, { recursive: true });
  } catch (error) {
    throw new UnusableFile(`${flags.emitDir}: cannot be made (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (stats !== undefined && !stats.isDirectory()) throw new UnusableFile(`${flags.emitDir}: not a directory`);
}

/** A file's program: JavaScript, unless the file asked for TypeScript; then the snippet's types stay, lowered for Node's type stripping. */
function programFor(result: RunResult, file: string): string | undefined {
  return /\.[cm]?ts$/i.test(file) ? (result.detail?.typedProgram() ?? result.program) : result.program;
}

/** Writes the completed programs: scenario K's to --emit (1, the first execution, by default), every kept scenario's into --emit-dir. */
function emitPrograms(result: RunResult, flags: EmitFlags): void {
  // Scenario 1 is the result itself; its detail holds the kept scenarios 2, 3, … in order.
  const scenarios = [result, ...(result.detail?.scenarios ?? [])];
  if (flags.emit) {
    const k = flags.scenario ?? 1;
    const scenario = scenarios[k - 1];
    if (scenario === undefined) throw new InvalidOptions(`--scenario: ${k}, but this run kept ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} (--scenario 1${scenarios.length > 1 ? ` to ${scenarios.length}` : ''})`);
    const program = programFor(scenario, flags.emit);
    if (program !== undefined) writeFileSync(flags.emit, program);
  }
  if (flags.emitDir !== undefined) {
    // A TypeScript snippet's programs keep its types (.ts), as --emit FILE.ts does.
    const ext = result.lang === 'ts' || result.lang === 'tsx' ? '.ts' : '.js';
    scenarios.forEach((scenario, i) => {
      const file = join(flags.emitDir ?? '', `scenario-${i + 1}${ext}`);
      const program = programFor(scenario, file);
      if (program === undefined) return;
      checkWritableFile(file);
      writeFileSync(file, program);
    });
  }
}

/** `run`'s parsed flags. */
export type RunFlags = Flags & EmitFlags & ReportFlags & { json?: boolean; types?: boolean; tests?: string };

/** The flags that write one snippet's output: a program, a folder of programs or tests, a page. */
function checkSingleFileFlags(flags: RunFlags, count: number): void {
  for (const [flag, given] of [['--emit', flags.emit], ['--emit-dir', flags.emitDir], ['--scenario', flags.scenario], ['--tests', flags.tests], ['--html', flags.html]] as const) {
    if (given !== undefined) throw new InvalidOptions(`${flag}: writes one snippet's output, and ${count} files are given (batch --html DIR writes a page per snippet)`);
  }
}

/** --tests: the snippet's recorded calls as node:test files. Only this flag loads the recorder and the test generator. */
async function writeTests(result: RunResult, file: string, dir: string): Promise<void> {
  const name = file === '-' ? 'snippet' : basename(file).replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '_') || 'snippet';
  const [{ writeSnippetTests }, { printTestsSummary }] = await Promise.all([import('../emit/snippetTests.ts'), import('./testsSummary.ts')]);
  printTestsSummary(await writeSnippetTests(result, dir, name), dir);
}

/**
 * `snipexec run [FILES…]`: runs each snippet (standard input when none is given; directories and globs
 * expand to files), prints its result, writes what the flags ask for; exit 1 unless every one completed.
 * Several files run one after the other, each printed under its name (or with `file` in its JSON line).
 */
export async function runAction(inputs: string[], flags: RunFlags, context: CommandContext): Promise<void> {
  const files = inputs.length === 0 ? ['-'] : expandInputs(inputs);
  const several = files.length > 1;
  if (several) checkSingleFileFlags(flags, files.length);
  const runs = files.map((file) => ({ file, options: toRunOptions(flags, context, file === '-' ? undefined : file) }));
  const llm = await llmEnvironment(flags, runs[0]?.options ?? {}, context);
  checkEmitFlags(flags);
  const reports = await ReportOutputs.open(toReportOptions(flags, context), 'run', runs[0]?.options.mode ?? 'trace');
  for (const { file } of runs) if (file !== '-') checkInputFile(file);
  // The engine is loaded once every input and flag is known to be usable: a usage error costs no engine.
  const [{ runSnippet }, { formatHuman }] = await Promise.all([import('../engine/runSnippet.ts'), import('../report/formatHuman.ts')]);
  const session = llm ? { llm } : { logger: await runLogger(flags, context) };
  let completed = 0;
  for (const [i, { file, options }] of runs.entries()) {
    const input = readInputFile(file);
    const result = await runSnippet(new Uint8Array(input), options, session);
    if (result.status === 'completed') completed++;
    emitPrograms(result, flags);
    if (flags.tests !== undefined) await writeTests(result, file, flags.tests);
    // The programs are written to files, never printed.
    const { program: _program, types, ...json } = result;
    const shown = flags.types ? { ...json, types } : json;
    if (flags.json) process.stdout.write(jsonText(several ? { file, ...shown } : shown) + '\n');
    else {
      // head(1)'s way of naming each file's part of the output.
      if (several) process.stdout.write(`${i === 0 ? '' : '\n'}==> ${terminalLine(file)} <==\n`);
      process.stdout.write(formatHuman(result, decodeForDisplay(input), colorEnabled(process.stdout)));
      if (flags.types) process.stdout.write(`\ninferred types\n${terminalText(types || '  (nothing injected)\n')}`);
    }
    // The text as run: coverage positions are offsets into it (line endings included).
    reports.addRun(file === '-' ? undefined : file, input.toString('utf8'), result);
  }
  const { printed, failures } = reports.finish();
  // With --json, stdout holds the JSON objects: the coverage text goes to stderr.
  if (printed !== '') (flags.json ? process.stderr : process.stdout).write(terminalText(printed));
  for (const f of failures) process.stderr.write(`snipexec: ${terminalLine(f)}\n`);
  process.exitCode = completed === runs.length && failures.length === 0 ? 0 : 1;
}

function decodeForDisplay(input: Buffer): string {
  return input.toString('utf8').replace(/\r\n?/g, '\n');
}
