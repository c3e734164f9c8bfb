import { dirname, join, resolve } from 'node:path';
import { llmOptionsFromEnv, llmOptionsSchema, type LlmFlags } from '../llm/llmOptions.ts';
import { LlmEnvironment } from '../llm/llmSession.ts';
import { recordLimitsSchema, type RecordLimitsInput } from '../core/options.ts';
import { describeTruncation, type CallTrace } from '../record/callTrace.ts';
import { recordProgram, type RecordedRun } from '../record/recordProgram.ts';
import { terminalLine } from '../report/terminalText.ts';
import { aiSkipLabel, formatAiSkipped } from '../testgen/aiSkips.ts';
import { summarizeSkipKinds } from '../testgen/skipReasons.ts';
import { generateAiTests } from '../testgen/aiTests.ts';
import { generateCheckedTests } from '../testgen/checkTests.ts';
import type { GeneratedTests } from '../testgen/generateTests.ts';
import { readTrace } from '../testgen/readTrace.ts';
import { createLogger } from './createLogger.ts';
import { checkFlags, collectFlags, LLM_BATCH_FLAGS, LLM_FLAGS, RECORD_FLAGS } from './optionFlags.ts';
import { printTestsSummary } from './testsSummary.ts';

/** Where `record` writes its tests: `generated_tests/` next to the program. */
export const GENERATED_TESTS_DIR = 'generated_tests';

/**
 * Writes the tests of a trace, checked by running them once (a test that fails right away is
 * skipped with its reason), and prints the skips by kind (each skipped call with `verbose`) and the
 * summary on stderr.
 */
export async function writeTests(trace: CallTrace, traceDir: string, outDir: string, programDir?: string, verbose = false): Promise<GeneratedTests> {
  const generated = await generateCheckedTests(trace, { traceDir, outDir, ...(programDir ? { programDir } : {}) });
  printTestsSummary(generated, outDir, verbose);
  return generated;
}

/** The `--ai` flags: the LLM's, as `--mode llm` takes them, and how many inputs to ask for per function. */
export type AiFlags = Record<string, unknown> & { ai?: boolean; aiMax?: number; verbose?: boolean };

/** `record`'s parsed flags. */
export type RecordFlags = AiFlags & { out?: string; tests: boolean };

/** `gen-tests`' parsed flags. */
export type GenTestsFlags = AiFlags & { out?: string; program?: string };

/** The LLM environment of `--ai`, made before anything runs so a missing endpoint fails first. */
function aiEnvironment(flags: AiFlags): LlmEnvironment | undefined {
  if (!flags.ai) return undefined;
  const table = { ...LLM_FLAGS, ...LLM_BATCH_FLAGS };
  const given = collectFlags<LlmFlags>(flags, table);
  checkFlags(given, table, llmOptionsSchema);
  const options = llmOptionsFromEnv(process.env, given);
  return new LlmEnvironment(options, { logger: createLogger(options) });
}

/** `--ai`: after the tests of the recorded calls, the tests of the model's inputs (the same directories). */
async function writeAiTests(trace: CallTrace, traceDir: string, outDir: string, programDir: string, llm: LlmEnvironment, max: number, verbose = false): Promise<void> {
  const ai = await generateAiTests(trace, { traceDir, programDir, outDir, max }, llm);
  const lines = verbose ? ai.skipped.map(formatAiSkipped) : summarizeSkipKinds(ai.skipped, aiSkipLabel, 'input').map((line) => line.replace(/^skipped /, 'skipped --ai '));
  for (const line of lines) process.stderr.write(`snipexec: ${terminalLine(line)}\n`);
  process.stderr.write(`snipexec: ${terminalLine(ai.summary)}\n`);
}

/** `snipexec record PROGRAM ARGS`: records the run, writes its tests; exits with the program's exit code. */
export async function recordAction(programPath: string, args: string[], flags: RecordFlags): Promise<void> {
  const llm = aiEnvironment(flags);
  const limits = collectFlags<RecordLimitsInput>(flags, RECORD_FLAGS);
  checkFlags(limits, RECORD_FLAGS, recordLimitsSchema);
  const run = await recordProgram(programPath, args, limits);
  process.stderr.write(`snipexec: ${terminalLine(recordedLine(run))}\n`);
  if (flags.tests) {
    const trace = readTrace(run.tracePath);
    const programDir = dirname(resolve(programPath));
    const outDir = flags.out ? resolve(flags.out) : join(programDir, GENERATED_TESTS_DIR);
    await writeTests(trace, dirname(run.tracePath), outDir, programDir, flags.verbose);
    if (llm) await writeAiTests(trace, dirname(run.tracePath), outDir, programDir, llm, flags.aiMax ?? 5, flags.verbose);
  }
  process.exitCode = run.exitCode;
}

/** `recorded 2 calls into shop.js.trace.json`, and what a limit or a kill cut from the trace. */
function recordedLine(run: RecordedRun): string {
  const notes = [
    ...(run.truncated ? [describeTruncation(run.truncated)] : []),
    ...(run.interrupted ? ['the recorder was killed before it ended the trace: its last calls are lost'] : []),
  ];
  return `recorded ${run.calls} call${run.calls === 1 ? '' : 's'} into ${run.tracePath}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`;
}

/** `snipexec gen-tests TRACE`: writes the tests of a recorded trace. */
export async function genTestsAction(tracePath: string, flags: GenTestsFlags): Promise<void> {
  const llm = aiEnvironment(flags);
  const trace = readTrace(tracePath);
  if (trace.truncated) process.stderr.write(`snipexec: ${terminalLine(`the trace was ${describeTruncation(trace.truncated)} when recorded`)}\n`);
  const traceDir = dirname(resolve(tracePath));
  const programDir = flags.program ? dirname(resolve(flags.program)) : dirname(resolve(traceDir, trace.program));
  const outDir = flags.out ? resolve(flags.out) : join(programDir, GENERATED_TESTS_DIR);
  await writeTests(trace, traceDir, outDir, programDir, flags.verbose);
  if (llm) await writeAiTests(trace, traceDir, outDir, programDir, llm, flags.aiMax ?? 5, flags.verbose);
}
