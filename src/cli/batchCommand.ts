import { type Command, InvalidArgumentError } from 'commander';
import { llmOptionsSchema } from '../llm/llmOptions.ts';
import { batchOptionsSchema } from '../core/options.ts';
import type { RunStatus } from '../core/runResult.ts';
import { RUN_STATUSES } from '../report/runStatus.ts';
import type { BatchFlags } from './batchAction.ts';
import type { CommandContext } from './commandContext.ts';
import { addFlags, addRunFlags, BATCH_FLAGS, LLM_BATCH_FLAGS } from './optionFlags.ts';
import { addQueueFlags } from './queueCommands.ts';
import { addReportFlags } from './reportFlags.ts';

/** `snipexec batch <dataset>`: its flags here, its work in batchAction.ts, imported when it runs. */
export function addBatchCommand(program: Command, context: CommandContext): void {
  const command = addRunFlags(program.command('batch')
    .argument('<inputs...>', 'a JSONL dataset (one {"id", "code", "lang"?} object per line), or snippet files, directories and quoted globs (one row per file, its path as id)')
    .description('run every snippet of a dataset, or every snippet file given'));
  addQueueFlags(addReportFlags(addFlags(addFlags(command, BATCH_FLAGS, batchOptionsSchema), LLM_BATCH_FLAGS, llmOptionsSchema), 'dir'))
    .option('--json', 'print the summary as one JSON object')
    .option('--fail-on <statuses>', `exit 1 when any snippet ends with one of these statuses, comma-separated (${RUN_STATUSES.join(', ')}); internal-error always does`, parseStatuses)
    .addHelpText('after', '\nInputs: a file ending in .js, .mjs, .cjs, .jsx, .ts, .mts, .cts or .tsx is a snippet; a directory stands for its snippet files\n(node_modules and dot-directories left out); a quoted glob is expanded by snipexec: snipexec batch \'snippets/**/*.{js,ts}\'.\nAny other file is a JSONL dataset, given alone: {"id": "a", "code": "console.log(x.y)"} per line.\nWith --queue, the snippets are jobs in Redis that `snipexec worker` processes on any machine; the producer writes their rows and the summary.\nSIGINT or SIGTERM: no new snippet starts, the running ones finish and are written, the summary is printed, exit 130 or 143;\na second signal ends at once. --resume does the rest.')
    .option('--print-config', 'print the options this command would run with (config file, flags, defaults) as JSON, by config key, and exit without running')
    .action(async (inputs: string[], flags: BatchFlags, command: Command) => {
      if (flags.printConfig) (await import('./printConfig.ts')).printConfig(command, flags, context);
      else await (await import('./batchAction.ts')).batchAction(inputs, flags, context);
    });
}

/** `--fail-on completed,stopped`: statuses a run can end with. */
function parseStatuses(value: string): RunStatus[] {
  const statuses = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = statuses.filter((s) => !(RUN_STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0 || statuses.length === 0) throw new InvalidArgumentError(`expected statuses among ${RUN_STATUSES.join(', ')}${unknown.length > 0 ? `; not one: ${unknown.join(', ')}` : ''}`);
  return statuses as RunStatus[];
}
