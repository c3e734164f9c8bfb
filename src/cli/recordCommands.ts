import { terminalLine } from '../report/terminalText.ts';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { recordProgram } from '../record/recordProgram.ts';
import { readTrace } from '../testgen/readTrace.ts';
import type { GeneratedTests } from '../testgen/generateTests.ts';
import { generateCheckedTests } from '../testgen/checkTests.ts';
import { formatSkipped } from '../testgen/skipReasons.ts';
import type { CallTrace } from '../record/callTrace.ts';
import { generateAiTests } from '../testgen/aiTests.ts';
import { formatAiSkipped } from '../testgen/aiSkips.ts';
import { llmOptionsFromEnv, llmOptionsSchema, type LlmFlags } from '../llm/llmOptions.ts';
import { LlmEnvironment } from '../llm/llmSession.ts';
import { createLogger } from './createLogger.ts';
import { addFlags, checkFlags, collectFlags, LLM_BATCH_FLAGS, LLM_FLAGS, positiveInteger } from './optionFlags.ts';

/** Where `record` writes its tests: `generated_tests/` next to the program. */
export const GENERATED_TESTS_DIR = 'generated_tests';

/**
 * Writes the tests of a trace, checked by running them once (a test that fails right away is
 * skipped with its reason), and prints each skipped call's reason and the summary on stderr.
 */
export async function writeTests(trace: CallTrace, traceDir: string, outDir: string, programDir?: string): Promise<GeneratedTests> {
  const generated = await generateCheckedTests(trace, { traceDir, outDir, ...(programDir ? { programDir } : {}) });
  printTestsSummary(generated, outDir);
  return generated;
}

/** Each skipped call's one-line reason, then the summary, on stderr. */
export function printTestsSummary(generated: GeneratedTests, outDir: string): void {
  for (const skipped of generated.skipped) process.stderr.write(`snipexec: ${terminalLine(formatSkipped(skipped))}\n`);
  process.stderr.write(`snipexec: ${terminalLine(`${generated.summary}${generated.files.length > 0 ? ` (node --test ${outDir})` : ''}`)}\n`);
}

/** The `--ai` flags: the LLM's, as `--mode llm` takes them, and how many inputs to ask for per function. */
type AiFlags = Record<string, unknown> & { ai?: boolean; aiMax?: number };

function withAiFlags(cmd: Command): Command {
  const table = { ...LLM_FLAGS, ...LLM_BATCH_FLAGS };
  return addFlags(cmd, table, llmOptionsSchema)
    .option('--ai', 'also ask an LLM (OPENAI_BASE_URL / OPENAI_API_KEY, --model) for more inputs of each function: its names-only signature and recorded calls go out, redacted, never its source; the real function is run on each input and <module>.ai.test.mjs asserts what it did')
    .option('--ai-max <n>', 'with --ai: at most N inputs per function', positiveInteger, 5);
}

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
async function writeAiTests(trace: CallTrace, traceDir: string, outDir: string, programDir: string, llm: LlmEnvironment, max: number): Promise<void> {
  const ai = await generateAiTests(trace, { traceDir, programDir, outDir, max }, llm);
  for (const skipped of ai.skipped) process.stderr.write(`snipexec: ${terminalLine(formatAiSkipped(skipped))}\n`);
  process.stderr.write(`snipexec: ${terminalLine(ai.summary)}\n`);
}

/** `snipexec record PROGRAM [-- ARGS…]` and `snipexec gen-tests TRACE`. */
export function addRecordCommands(program: Command): void {
  withAiFlags(program
    .command('record'))
    .argument('<program>', 'a Node program: .js, .cjs, .mjs or .ts (also .cts, .mts)')
    .argument('[args...]', "the program's own arguments (after --)")
    .description("run a Node program as `node PROGRAM ARGS` would, record every call of its own functions into PROGRAM.trace.json, and write node:test tests that replay them into generated_tests/ next to it; exits with the program's exit code")
    .option('--out <dir>', 'write the tests here instead of generated_tests/ next to the program')
    .option('--no-tests', 'only record: write no tests')
    .action(async (programPath: string, args: string[], flags: AiFlags & { out?: string; tests: boolean }) => {
      const llm = aiEnvironment(flags);
      const run = await recordProgram(programPath, args);
      process.stderr.write(`snipexec: recorded ${run.trace.calls.length} call${run.trace.calls.length === 1 ? '' : 's'} into ${terminalLine(run.tracePath)}\n`);
      if (flags.tests) {
        const programDir = dirname(resolve(programPath));
        const outDir = flags.out ? resolve(flags.out) : join(programDir, GENERATED_TESTS_DIR);
        await writeTests(run.trace, dirname(run.tracePath), outDir, programDir);
        if (llm) await writeAiTests(run.trace, dirname(run.tracePath), outDir, programDir, llm, flags.aiMax ?? 5);
      }
      process.exitCode = run.exitCode;
    });

  withAiFlags(program
    .command('gen-tests'))
    .argument('<trace>', 'a trace file written by snipexec record (PROGRAM.trace.json)')
    .description('write node:test tests that replay the recorded calls: one .test.mjs per module, child calls mocked')
    .option('--out <dir>', 'where the tests go (default: generated_tests/ next to the program)')
    .option('--program <file>', "the recorded program, when it is no longer where the trace says (its directory is the program's)")
    .action(async (tracePath: string, flags: AiFlags & { out?: string; program?: string }) => {
      const llm = aiEnvironment(flags);
      const trace = readTrace(tracePath);
      const traceDir = dirname(resolve(tracePath));
      const programDir = flags.program ? dirname(resolve(flags.program)) : dirname(resolve(traceDir, trace.program));
      const outDir = flags.out ? resolve(flags.out) : join(programDir, GENERATED_TESTS_DIR);
      await writeTests(trace, traceDir, outDir, programDir);
      if (llm) await writeAiTests(trace, traceDir, outDir, programDir, llm, flags.aiMax ?? 5);
    });
}
