import { readFileSync, writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import cliProgress from 'cli-progress';
import { runBatch } from '../batch/runBatch.ts';
import { runSnippet } from '../engine/runSnippet.ts';
import { SnipexecError } from '../errors.ts';
import { LANGS, MODES, runOptionsSchema, type RunOptionsInput } from '../options.ts';
import { formatHuman } from '../report/formatHuman.ts';
import { llmOptionsFromEnv, llmOptionsSchema, type LlmFlags } from '../llm/llmOptions.ts';
import { LlmEnvironment } from '../llm/llmSession.ts';
import { createLogger } from './createLogger.ts';
import { runDiff } from '../diff/runDiff.ts';
import { toSarif } from '../diff/toSarif.ts';
import { formatDiff } from '../diff/formatDiff.ts';

const describe = (key: keyof typeof runOptionsSchema.shape) => runOptionsSchema.shape[key].description ?? '';
const describeLlm = (key: keyof typeof llmOptionsSchema.shape) => llmOptionsSchema.shape[key].description ?? '';

function number(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError('expected a number');
  return n;
}

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
}

/** The run-option flags, each described by the options schema so the two cannot drift. */
function runFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--mode <mode>', describe('mode')).choices(MODES).default('trace'))
    .addOption(new Option('--lang <lang>', describe('lang')).choices(LANGS))
    .addOption(new Option('--timeout <ms>', describe('timeoutMs')).argParser(integer))
    .addOption(new Option('--seed <n>', describe('seed')).argParser(integer))
    .addOption(new Option('--memory <mb>', describe('memoryLimitMb')).argParser(integer))
    .addOption(new Option('--call-uncalled', describe('callUncalled')))
    .addOption(new Option('--model <name>', describeLlm('model')))
    .addOption(new Option('--temperature <t>', describeLlm('temperature')).argParser(number))
    .addOption(new Option('--llm-cache <dir>', describeLlm('cacheDir')))
    .addOption(new Option('--llm-timeout <ms>', describeLlm('requestTimeoutMs')).argParser(integer))
    .addOption(new Option('--llm-retries <n>', describeLlm('retries')).argParser(integer))
    .addOption(new Option('--llm-max-calls <n>', describeLlm('maxCallsPerSnippet')).argParser(integer))
    .addOption(new Option('--llm-max-tokens <n>', describeLlm('maxTokensPerSnippet')).argParser(integer))
    .addOption(new Option('--log-file <file>', describeLlm('logFile')))
    .addOption(new Option('--log-level <level>', describeLlm('logLevel')).choices(llmOptionsSchema.shape.logLevel.unwrap().options));
}

interface RunFlags {
  mode: RunOptionsInput['mode']; lang?: RunOptionsInput['lang']; timeout?: number; seed?: number; memory?: number; callUncalled?: boolean;
  model?: string; temperature?: number; llmCache?: string; llmTimeout?: number; llmRetries?: number; llmMaxCalls?: number; llmMaxTokens?: number;
  llmBatchMaxCalls?: number; llmBatchMaxTokens?: number; logFile?: string; logLevel?: LlmFlags['logLevel'];
}

/** The LLM environment of `--mode llm`, made before anything runs so a missing endpoint fails first. */
function llmEnvironment(flags: RunFlags): LlmEnvironment | undefined {
  if (flags.mode !== 'llm') return undefined;
  const given: LlmFlags = {
    model: flags.model, temperature: flags.temperature, cacheDir: flags.llmCache, requestTimeoutMs: flags.llmTimeout, retries: flags.llmRetries,
    maxCallsPerSnippet: flags.llmMaxCalls, maxTokensPerSnippet: flags.llmMaxTokens, maxCallsPerBatch: flags.llmBatchMaxCalls,
    maxTokensPerBatch: flags.llmBatchMaxTokens, logFile: flags.logFile, logLevel: flags.logLevel,
  };
  const options = llmOptionsFromEnv(process.env, Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as LlmFlags);
  return new LlmEnvironment(options, { logger: createLogger(options) });
}

function toRunOptions(flags: RunFlags, fileName?: string): RunOptionsInput {
  const o: RunOptionsInput = { mode: flags.mode };
  if (flags.lang) o.lang = flags.lang;
  if (fileName) o.fileName = fileName;
  if (flags.timeout !== undefined) o.timeoutMs = flags.timeout;
  if (flags.seed !== undefined) o.seed = flags.seed;
  if (flags.memory !== undefined) o.memoryLimitMb = flags.memory;
  if (flags.callUncalled) o.callUncalled = true;
  return o;
}

const program = new Command('snipexec')
  .description('Run partial JavaScript and TypeScript snippets: missing values are injected, coverage is measured.')
  .showHelpAfterError()
  .exitOverride();

runFlags(program.command('run').argument('[file]', 'snippet file, or - for stdin', '-').description('run one snippet'))
  .option('--json', 'print the result as one JSON object')
  .option('--emit <file>', 'write the completed program: definitions, then the snippet')
  .option('--types', 'print TypeScript declarations inferred for the injected elements (in --json: the "types" field)')
  .action(async (file: string, flags: RunFlags & { json?: boolean; emit?: string; types?: boolean }) => {
    const llm = llmEnvironment(flags);
    const input = file === '-' ? readFileSync(0) : readFileSync(file);
    const result = await runSnippet(new Uint8Array(input), toRunOptions(flags, file === '-' ? undefined : file), llm ? { llm } : { logger: createLogger(flags) });
    const { program: completed, types, ...json } = result;
    // JavaScript, unless the file asked for TypeScript: then the snippet's types stay, lowered for Node's type stripping.
    if (flags.emit && completed !== undefined) writeFileSync(flags.emit, /\.[cm]?ts$/i.test(flags.emit) ? (result.typedProgram ?? completed) : completed);
    if (flags.json) process.stdout.write(JSON.stringify(flags.types ? { ...json, types } : json) + '\n');
    else {
      process.stdout.write(formatHuman(result, decodeForDisplay(input), process.stdout.isTTY === true));
      if (flags.types) process.stdout.write(`\ninferred types\n${types || '  (nothing injected)\n'}`);
    }
    process.exitCode = result.status === 'completed' ? 0 : 1;
  });

runFlags(program.command('batch').argument('<dataset>', 'JSONL file of {id, code, lang?}').description('run every snippet of a dataset'))
  .option('--out <file>', 'append one result per line to this JSONL file')
  .addOption(new Option('--concurrency <n>', 'snippets at once').argParser(integer).default(2))
  .option('--resume', 'skip the ids already in --out')
  .addOption(new Option('--limit <n>', 'run at most this many snippets').argParser(integer))
  .option('--json', 'print the summary as one JSON object')
  .addOption(new Option('--llm-batch-max-calls <n>', describeLlm('maxCallsPerBatch')).argParser(integer))
  .addOption(new Option('--llm-batch-max-tokens <n>', describeLlm('maxTokensPerBatch')).argParser(integer))
  .action(async (dataset: string, flags: RunFlags & { out?: string; concurrency: number; resume?: boolean; limit?: number; json?: boolean }) => {
    const llm = llmEnvironment(flags);
    const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ stream: process.stderr, format: 'batch [{bar}] {value} done, {skipped} skipped | {status}' }, cliProgress.Presets.shades_classic) : undefined;
    bar?.start(countLines(dataset), 0, { skipped: 0, status: '' });
    const { summary } = await runBatch(
      dataset,
      toRunOptions(flags),
      { concurrency: flags.concurrency, resume: flags.resume === true, ...(flags.out ? { out: flags.out } : {}), ...(flags.limit ? { limit: flags.limit } : {}) },
      (p) => bar?.update(p.done + p.skipped, { skipped: p.skipped, status: `${p.last.id}: ${p.last.status}` }),
      llm ? { llm } : { logger: createLogger(flags) },
    );
    bar?.stop();
    if (flags.json) process.stdout.write(JSON.stringify(summary) + '\n');
    else {
      const lines = Object.entries(summary).map(([k, v]) => `${k.padEnd(18)} ${typeof v === 'object' ? JSON.stringify(v) : typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4) : v}`);
      process.stdout.write(lines.join('\n') + '\n');
    }
  });

program
  .command('diff')
  .argument('[base]', 'commit to compare the working tree with, as `git diff BASE`', 'HEAD')
  .description('run the functions and top-level code a git change touched; report the runtime type errors their own values cause')
  .option('--json', 'print { findings, fragments, elapsedMs } as one JSON object')
  .option('--sarif <file>', 'write the findings as SARIF 2.1.0')
  .action(async (base: string, flags: { json?: boolean; sarif?: string }) => {
    const report = await runDiff({ cwd: process.cwd(), base });
    if (flags.sarif) writeFileSync(flags.sarif, JSON.stringify(toSarif(report, packageVersion()), null, 2) + '\n');
    process.stdout.write(flags.json ? JSON.stringify(report) + '\n' : formatDiff(report, process.stdout.isTTY === true));
    process.exitCode = report.findings.length > 0 ? 1 : 0;
  });

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
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
    process.stderr.write(`snipexec: ${error.message} [${error.code}]\n`);
    process.exitCode = 2;
  } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    process.stderr.write(`snipexec: ${(error as Error).message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`snipexec: Unhandled Error\n${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 3;
  }
}
