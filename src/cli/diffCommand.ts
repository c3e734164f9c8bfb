import { type Command, InvalidArgumentError } from 'commander';
import { EDGE_BUDGET } from '../diff/edgeBudget.ts';
import type { CommandContext } from './commandContext.ts';
import type { DiffFlags } from './diffAction.ts';

/** `snipexec diff [base]`: its flags here, its work in diffAction.ts, imported when it runs. */
export function addDiffCommand(program: Command, context: CommandContext): void {
  program
    .command('diff')
    .argument('[base]', 'commit to compare the working tree with, as `git diff BASE`', 'HEAD')
    .description('run the functions and top-level code a git change touched, and their base version on the same values; report the runtime type errors the change introduces')
    .option('--json', 'print { findings, fragments, elapsedMs } as one JSON object')
    .option('--sarif <file>', 'write the findings as SARIF 2.1.0')
    .option('--no-untracked', 'leave out the files git does not track (by default each untracked, not ignored file is run as wholly new)')
    .option('--edges <n>', `edge scenarios per changed file: undefined, null, '', [], {}, 0, NaN for the driven functions' inputs (0: the learnt values only)`, edgeCount, EDGE_BUDGET)
    .option('--repro <dir>', 'write a node:test file per finding into DIR that fails with its error under plain node (CommonJS files)')
    .action(async (base: string, flags: DiffFlags) => (await import('./diffAction.ts')).diffAction(base, flags, context));
}

/** `--edges N`: a whole number from 0 to 1,000. */
function edgeCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 1000) throw new InvalidArgumentError('expected a whole number from 0 to 1000');
  return n;
}
