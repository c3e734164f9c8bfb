import { mkdirSync, readFileSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { runBatch } from '../batch/runBatch.ts';
import type { InvalidLine } from '../batch/readDataset.ts';
import { runSnippet } from '../engine/runSnippet.ts';
import { InvalidOptions, SnipexecError, UnusableFile } from '../core/errors.ts';
import { batchOptionsSchema, runOptionsSchema, type BatchOptionsInput, type RunOptionsInput } from '../core/options.ts';
import { jsonText, terminalLine, terminalText } from '../report/terminalText.ts';
import { formatHuman } from '../report/formatHuman.ts';
import type { RunResult, RunStatus } from '../core/runResult.ts';
import { RUN_STATUSES } from '../report/runStatus.ts';
import { formatBatchSummary } from '../report/formatBatchSummary.ts';
import { colorEnabled } from './colorMode.ts';
import { loadConfig, type SnipexecConfig } from './loadConfig.ts';
import { addReportFlags, ReportOutputs, type ReportFlags } from './reportOutputs.ts';
import { llmOptionsFromEnv, llmOptionsSchema, type LlmFlags } from '../llm/llmOptions.ts';
import { LlmEnvironment } from '../llm/llmSession.ts';
import { createLogger } from './createLogger.ts';
import { checkReadableFile, checkWritableFile, readInputFile } from './inputFiles.ts';
import { addFlags, BATCH_FLAGS, checkFlags, collectFlags, LLM_BATCH_FLAGS, LLM_FLAGS, positiveInteger, RUN_FLAGS } from './optionFlags.ts';
import { exitCodeFor, stopOnSignals } from './stopOnSignal.ts';
import { diffExitCode, runDiff, type DiffReport } from '../diff/runDiff.ts';
import { EDGE_BUDGET } from '../diff/edgeValues.ts';
import { toSarif } from '../diff/toSarif.ts';
import { formatDiff } from '../diff/formatDiff.ts';
import { addRecordCommands, printTestsSummary } from './recordCommands.ts';
import { addQueueFlags, addWorkerCommand, checkQueueFlags, queueBatch, type QueueFlags } from './queueCommands.ts';
import { writeSnippetTests } from '../emit/snippetTests.ts';

/** Commander's parsed options: the flags of optionFlags.ts, by their attribute names, and the command's own switches. */
type Flags = Record<string, unknown>;

/** The run-option and LLM flags; each is a schema field (optionFlags.ts), described and validated by the schema. */
function runFlags(cmd: Command): Command {
  return addFlags(addFlags(cmd, RUN_FLAGS, runOptionsSchema), LLM_FLAGS, llmOptionsSchema);
}

/** The LLM flags given, validated whatever the mode, so a wrong value is named by its flag before anything runs; the config's fill in. */
function llmFlags(flags: Flags): LlmFlags {
  const table = { ...LLM_FLAGS, ...LLM_BATCH_FLAGS };
  const given = collectFlags<LlmFlags>(flags, table, isDefault);
  checkFlags(given, table, llmOptionsSchema);
  return { ...pick(config, Object.keys(table)), ...given };
}

/** The fields of `from` named in `keys`. */
function pick<T extends object>(from: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(from).filter(([k]) => keys.includes(k))) as Partial<T>;
}

/** The LLM environment of `--mode llm`, made before anything runs so a missing endpoint fails first. */
function llmEnvironment(flags: Flags, options: RunOptionsInput): LlmEnvironment | undefined {
  const given = llmFlags(flags);
  if (options.mode !== 'llm') return undefined;
  const llm = llmOptionsFromEnv(process.env, given);
  return new LlmEnvironment(llm, { logger: createLogger(llm) });
}

/** The run options the flags give, validated: a bad value is an error naming its flag. */
function toRunOptions(flags: Flags, fileName?: string): RunOptionsInput {
  const given = { ...pick(config, Object.keys(runOptionsSchema.shape)), ...collectFlags<RunOptionsInput>(flags, RUN_FLAGS, isDefault) } as RunOptionsInput;
  checkFlags(given, RUN_FLAGS, runOptionsSchema);
  if (!fileName) return given;
  // With --project, the file is named relative to the project, where its relative imports are looked up.
  return { ...given, fileName: given.projectDir === undefined ? fileName : relative(given.projectDir, resolve(fileName)) };
}

function toBatchOptions(flags: Flags): BatchOptionsInput {
  const given = { ...pick(config, Object.keys(batchOptionsSchema.shape)), ...collectFlags<BatchOptionsInput>(flags, BATCH_FLAGS, isDefault) } as BatchOptionsInput;
  checkFlags(given, BATCH_FLAGS, batchOptionsSchema);
  return given;
}

const program = new Command('snipexec')
  .description('Run partial JavaScript and TypeScript snippets: missing values are injected, coverage is measured.')
  .version(packageVersion(), '-V, --version', 'print the version')
  .option('--config <file>', 'read options from FILE instead of the first of package.json "snipexec", snipexec.config.json, .js, .mjs found from the working directory up; flags win')
  // A usage error is one line and a hint, never the whole help.
  .showHelpAfterError('(snipexec <command> --help shows the usage)')
  .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'snipexec: ')) })
  .exitOverride();

/** The config file's options (loaded once, before a command runs); flags given on the command line win. */
let config: SnipexecConfig = {};
/** Whether a flag's value is only its --help default (then the config's value stands). */
let isDefault: (attribute: string) => boolean = () => false;
program.hook('preAction', async (_program, action) => {
  config = (await loadConfig(process.cwd(), program.opts<{ config?: string }>().config)).config;
  isDefault = (attribute) => action.getOptionValueSource(attribute) === 'default';
});

/** The CLI's output flags of `run`. */
type EmitFlags = { emit?: string; scenario?: number; emitDir?: string };

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

const runCommand = runFlags(program.command('run').argument('[file]', 'snippet file, or - for stdin', '-').description('run one snippet'))
  .option('--json', 'print the result as one JSON object')
  .option('--emit <file>', 'write the completed program: definitions, then the snippet (TypeScript when FILE ends in .ts)')
  .option('--scenario <k>', "with --emit: write the kept scenario K's program (1, the first execution, by default)", positiveInteger)
  .option('--emit-dir <dir>', "write every kept scenario's program as DIR/scenario-1.js, scenario-2.js, … (.ts for a TypeScript snippet)")
  .option('--types', 'print TypeScript declarations inferred for the injected elements (in --json: the "types" field)')
  .option('--tests <dir>', "write node:test tests of the snippet's own functions as its completed program called them: DIR/program/ holds the program, which is run once under plain node to record the calls");
addReportFlags(runCommand, 'file')
  .action(async (file: string, flags: Flags & EmitFlags & ReportFlags & { json?: boolean; types?: boolean; tests?: string }) => {
    const options = toRunOptions(flags, file === '-' ? undefined : file);
    const llm = llmEnvironment(flags, options);
    checkEmitFlags(flags);
    const reports = new ReportOutputs(flags, 'run', options.mode ?? 'trace');
    const input = readInputFile(file);
    const result = await runSnippet(new Uint8Array(input), options, llm ? { llm } : { logger: createLogger(llmFlags(flags)) });
    // The programs are written to files, never printed.
    const { program: _program, types, ...json } = result;
    emitPrograms(result, flags);
    if (flags.tests !== undefined) {
      const name = file === '-' ? 'snippet' : basename(file).replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '_') || 'snippet';
      const tests = await writeSnippetTests(result, flags.tests, name);
      printTestsSummary(tests, flags.tests);
    }
    if (flags.json) process.stdout.write(jsonText(flags.types ? { ...json, types } : json) + '\n');
    else {
      process.stdout.write(formatHuman(result, decodeForDisplay(input), colorEnabled(process.stdout)));
      if (flags.types) process.stdout.write(`\ninferred types\n${terminalText(types || '  (nothing injected)\n')}`);
    }
    // The text as run: coverage positions are offsets into it (line endings included).
    reports.addRun(file === '-' ? undefined : file, input.toString('utf8'), result);
    const { printed, failures } = reports.finish();
    // With --json, stdout holds the one JSON object: the coverage text goes to stderr.
    if (printed !== '') (flags.json ? process.stderr : process.stdout).write(terminalText(printed));
    for (const f of failures) process.stderr.write(`snipexec: ${terminalLine(f)}\n`);
    process.exitCode = result.status === 'completed' && failures.length === 0 ? 0 : 1;
  });

const batchCommand = runFlags(program.command('batch').argument('<dataset>', 'JSONL file of {id, code, lang?}').description('run every snippet of a dataset'));
addQueueFlags(addReportFlags(addFlags(addFlags(batchCommand, BATCH_FLAGS, batchOptionsSchema), LLM_BATCH_FLAGS, llmOptionsSchema), 'dir'))
  .option('--json', 'print the summary as one JSON object')
  .option('--fail-on <statuses>', `exit 1 when any snippet ends with one of these statuses, comma-separated (${RUN_STATUSES.join(', ')}); internal-error always does`, parseStatuses)
  .addHelpText('after', '\nWith --queue, the snippets are jobs in Redis that `snipexec worker` processes on any machine; the producer writes their rows and the summary.\nSIGINT or SIGTERM: no new snippet starts, the running ones finish and are written, the summary is printed, exit 130 or 143;\na second signal ends at once. --resume does the rest.')
  .action(async (dataset: string, flags: Flags & ReportFlags & QueueFlags & { json?: boolean; failOn?: RunStatus[] }) => {
    const options = toRunOptions(flags);
    const batchOptions = toBatchOptions(flags);
    checkQueueFlags(flags);
    // A queued run's LLM environment is each worker's own (its endpoint, its cache).
    const llm = flags.queue === undefined ? llmEnvironment(flags, options) : undefined;
    checkReadableFile(dataset);
    if (batchOptions.out) checkWritableFile(batchOptions.out, batchOptions.resume === true);
    const reports = new ReportOutputs(flags, 'batch', options.mode ?? 'trace', batchOptions.resume === true);
    const bar = process.stderr.isTTY
      ? new cliProgress.SingleBar({ stream: process.stderr, format: 'batch [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted} | {skipped} resumed | {status}', etaBuffer: 50 }, cliProgress.Presets.shades_classic)
      : undefined;
    const stop = stopOnSignals((signal) => {
      bar?.stop();
      process.stderr.write(`snipexec: ${signal}: starting no more snippets; the running ones finish and are written (${signal} again to stop at once)\n`);
    });
    // The total is what this batch will run: the dataset's lines, at most --limit (resumed ones count as done).
    const lines = countLines(dataset);
    bar?.start(batchOptions.limit === undefined ? lines : Math.min(lines, batchOptions.limit), 0, { skipped: 0, status: '' });
    let batch: Awaited<ReturnType<typeof runBatch>>;
    const onInvalid = (invalid: InvalidLine) => process.stderr.write(`snipexec: ${terminalLine(`${invalid.file}:${invalid.line}: skipped${invalid.id === undefined ? '' : ` (id ${invalid.id})`}: ${invalid.message}`)}\n`);
    try {
      if (flags.queue !== undefined) {
        batch = await queueBatch(dataset, options, batchOptions, flags, { version: packageVersion(), llm: options.mode === 'llm' ? llmFlags(flags) : undefined, signal: stop.signal, onInvalid },
          (p) => bar?.update(p.done + p.skipped, { skipped: p.skipped, status: terminalLine(`${p.last.id}: ${p.last.status}`) }));
      } else batch = await runBatch(
        dataset,
        options,
        batchOptions,
        (p) => bar?.update(p.done + p.skipped, { skipped: p.skipped, status: terminalLine(`${p.last.id}: ${p.last.status}`) }),
        {
          ...(llm ? { llm } : { logger: createLogger(llmFlags(flags)) }),
          signal: stop.signal,
          onResult: (item, result) => reports.addSnippet(item.id, item.code, result),
          onInvalid,
        },
      );
    } finally {
      stop.dispose();
    }
    bar?.stop();
    const { summary } = batch;
    const received = stop.received();
    if (received) process.exitCode = exitCodeFor(received);
    process.stdout.write(flags.json ? jsonText(summary) + '\n' : formatBatchSummary(summary));
    // Written after an interrupted batch too: what ran is reported.
    const { printed, failures } = reports.finish();
    if (printed !== '') (flags.json ? process.stderr : process.stdout).write(terminalText(printed));
    for (const f of failures) process.stderr.write(`snipexec: ${terminalLine(f)}\n`);
    if (!stop.received() && failures.length > 0) process.exitCode = 1;
    // A snippet snipexec failed on, or one with a status the user named: exit 1 (a signal's code stands).
    const failing = new Set<RunStatus>(['internal-error', ...(flags.failOn ?? [])]);
    const failed = Object.entries(summary.statusCounts).filter(([status, n]) => failing.has(status as RunStatus) && (n ?? 0) > 0);
    if (!received && failed.length > 0) {
      process.stderr.write(`snipexec: ${failed.map(([status, n]) => `${n} snippet${n === 1 ? '' : 's'} ended as ${status}`).join(', ')}\n`);
      process.exitCode = 1;
    }
  });

program
  .command('diff')
  .argument('[base]', 'commit to compare the working tree with, as `git diff BASE`', 'HEAD')
  .description('run the functions and top-level code a git change touched, and their base version on the same values; report the runtime type errors the change introduces')
  .option('--json', 'print { findings, fragments, elapsedMs } as one JSON object')
  .option('--sarif <file>', 'write the findings as SARIF 2.1.0')
  .option('--no-untracked', 'leave out the files git does not track (by default each untracked, not ignored file is run as wholly new)')
  .option('--edges <n>', `edge scenarios per changed file: undefined, null, '', [], {}, 0, NaN for the driven functions' inputs (0: the learnt values only)`, edgeCount, EDGE_BUDGET)
  .option('--repro <dir>', 'write a node:test file per finding into DIR that fails with its error under plain node (CommonJS files)')
  .action(async (base: string, flags: { json?: boolean; sarif?: string; untracked: boolean; edges: number; repro?: string }) => {
    if (flags.sarif) checkWritableFile(flags.sarif);
    let report = await runDiff({ cwd: process.cwd(), base, untracked: flags.untracked, edgeBudget: flags.edges, reproductions: flags.repro !== undefined });
    if (flags.repro !== undefined) report = writeReproductions(report, flags.repro);
    if (flags.sarif) writeFileSync(flags.sarif, JSON.stringify(toSarif(report, packageVersion()), null, 2) + '\n');
    process.stdout.write(flags.json ? jsonText(report) + '\n' : formatDiff(report, colorEnabled(process.stdout)));
    process.exitCode = diffExitCode(report);
  });

/** `--edges N`: a whole number from 0 to 1,000. */
function edgeCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 1000) throw new InvalidArgumentError('expected a whole number from 0 to 1000');
  return n;
}

/** Writes each finding's reproduction into `dir` (`lib__qs.js-6-1.test.cjs`: file, line, finding number); the report names the files instead of holding their source. */
function writeReproductions(report: DiffReport, dir: string): DiffReport {
  mkdirSync(dir, { recursive: true });
  const findings = report.findings.map((f, i) => {
    if (f.reproduction === undefined) return f;
    const file = join(dir, `${f.file.replace(/[^\w.-]+/g, '__')}-${f.line}-${i + 1}.test.cjs`);
    writeFileSync(file, f.reproduction);
    return { ...f, reproduction: file };
  });
  return { ...report, findings };
}

addRecordCommands(program);
addWorkerCommand(program);

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** `--fail-on completed,stopped`: statuses a run can end with. */
function parseStatuses(value: string): RunStatus[] {
  const statuses = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = statuses.filter((s) => !(RUN_STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0 || statuses.length === 0) throw new InvalidArgumentError(`expected statuses among ${RUN_STATUSES.join(', ')}${unknown.length > 0 ? `; not one: ${unknown.join(', ')}` : ''}`);
  return statuses as RunStatus[];
}

function countLines(file: string): number {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
  } catch {
    return 0;
  }
}

function decodeForDisplay(input: Buffer): string {
  return input.toString('utf8').replace(/\r\n?/g, '\n');
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const e = error as { code?: string; exitCode?: number };
  if (typeof e.code === 'string' && e.code.startsWith('commander.')) process.exitCode = e.exitCode === 0 ? 0 : 2;
  else if (error instanceof SnipexecError) {
    process.stderr.write(`snipexec: ${terminalText(error.message)} [${error.code}]\n`);
    process.exitCode = 2;
  } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    process.stderr.write(`snipexec: ${terminalText((error as Error).message)}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`snipexec: Unhandled Error\n${terminalText((error as Error).stack ?? String(error))}\n`);
    process.exitCode = 3;
  }
}
