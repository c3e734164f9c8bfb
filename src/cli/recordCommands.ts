import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { recordProgram } from '../record/recordProgram.ts';
import { readTrace } from '../testgen/readTrace.ts';
import type { GeneratedTests } from '../testgen/generateTests.ts';
import { generateCheckedTests } from '../testgen/checkTests.ts';
import { formatSkipped } from '../testgen/skipReasons.ts';
import type { CallTrace } from '../record/callTrace.ts';

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
  for (const skipped of generated.skipped) process.stderr.write(`snipexec: ${formatSkipped(skipped)}\n`);
  process.stderr.write(`snipexec: ${generated.summary}${generated.files.length > 0 ? ` (node --test ${outDir})` : ''}\n`);
}

/** `snipexec record PROGRAM [-- ARGS…]` and `snipexec gen-tests TRACE`. */
export function addRecordCommands(program: Command): void {
  program
    .command('record')
    .argument('<program>', 'a Node program: .js, .cjs, .mjs or .ts (also .cts, .mts)')
    .argument('[args...]', "the program's own arguments (after --)")
    .description("run a Node program as `node PROGRAM ARGS` would, record every call of its own functions into PROGRAM.trace.json, and write node:test tests that replay them into generated_tests/ next to it; exits with the program's exit code")
    .option('--out <dir>', 'write the tests here instead of generated_tests/ next to the program')
    .option('--no-tests', 'only record: write no tests')
    .action(async (programPath: string, args: string[], flags: { out?: string; tests: boolean }) => {
      const run = await recordProgram(programPath, args);
      process.stderr.write(`snipexec: recorded ${run.trace.calls.length} call${run.trace.calls.length === 1 ? '' : 's'} into ${run.tracePath}\n`);
      if (flags.tests) {
        const programDir = dirname(resolve(programPath));
        await writeTests(run.trace, dirname(run.tracePath), flags.out ? resolve(flags.out) : join(programDir, GENERATED_TESTS_DIR), programDir);
      }
      process.exitCode = run.exitCode;
    });

  program
    .command('gen-tests')
    .argument('<trace>', 'a trace file written by snipexec record (PROGRAM.trace.json)')
    .description('write node:test tests that replay the recorded calls: one .test.mjs per module, child calls mocked')
    .option('--out <dir>', 'where the tests go (default: generated_tests/ next to the program)')
    .option('--program <file>', "the recorded program, when it is no longer where the trace says (its directory is the program's)")
    .action(async (tracePath: string, flags: { out?: string; program?: string }) => {
      const trace = readTrace(tracePath);
      const traceDir = dirname(resolve(tracePath));
      const programDir = flags.program ? dirname(resolve(flags.program)) : dirname(resolve(traceDir, trace.program));
      await writeTests(trace, traceDir, flags.out ? resolve(flags.out) : join(programDir, GENERATED_TESTS_DIR), programDir);
    });
}
