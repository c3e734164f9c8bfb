import type { Command } from 'commander';
import { recordLimitsSchema } from '../core/options.ts';
import { llmOptionsSchema } from '../llm/llmOptions.ts';
import { addFlags, LLM_BATCH_FLAGS, LLM_FLAGS, positiveInteger, RECORD_FLAGS } from './optionFlags.ts';
import type { GenTestsFlags, RecordFlags } from './recordActions.ts';

function withAiFlags(cmd: Command): Command {
  const table = { ...LLM_FLAGS, ...LLM_BATCH_FLAGS };
  return addFlags(cmd, table, llmOptionsSchema)
    .option('--ai', 'also ask an LLM (OPENAI_BASE_URL / OPENAI_API_KEY, --model) for more inputs of each function: its names-only signature and recorded calls go out, redacted, never its source; the real function is run on each input and <module>.ai.test.mjs asserts what it did')
    .option('--ai-max <n>', 'with --ai: at most N inputs per function', positiveInteger, 5)
    .option('--verbose', 'list each skipped call with its reason on stderr, instead of one line per kind of skip');
}

/** `snipexec record PROGRAM [-- ARGS…]` and `snipexec gen-tests TRACE`: their flags here, their work in recordActions.ts, imported when they run. */
export function addRecordCommands(program: Command): void {
  addFlags(withAiFlags(program
    .command('record')), RECORD_FLAGS, recordLimitsSchema)
    .argument('<program>', 'a Node program: .js, .cjs, .mjs or .ts (also .cts, .mts)')
    .argument('[args...]', "the program's own arguments (after --)")
    .description("run a Node program as `node PROGRAM ARGS` would, record every call of its own functions into PROGRAM.trace.json, and write node:test tests that replay them into generated_tests/ next to it; exits with the program's exit code")
    .option('--out <dir>', 'write the tests here instead of generated_tests/ next to the program')
    .option('--no-tests', 'only record: write no tests')
    .action(async (programPath: string, args: string[], flags: RecordFlags) => (await import('./recordActions.ts')).recordAction(programPath, args, flags));

  withAiFlags(program
    .command('gen-tests'))
    .argument('<trace>', 'a trace file written by snipexec record (PROGRAM.trace.json)')
    .description('write node:test tests that replay the recorded calls: one .test.mjs per module, child calls mocked')
    .option('--out <dir>', 'where the tests go (default: generated_tests/ next to the program)')
    .option('--program <file>', "the recorded program, when it is no longer where the trace says (its directory is the program's)")
    .action(async (tracePath: string, flags: GenTestsFlags) => (await import('./recordActions.ts')).genTestsAction(tracePath, flags));
}
