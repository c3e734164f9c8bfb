import type { Command } from 'commander';
import type { CommandContext } from './commandContext.ts';
import { addRunFlags, positiveInteger } from './optionFlags.ts';
import { addReportFlags } from './reportFlags.ts';
import type { RunFlags } from './runAction.ts';

/** `snipexec run [file]`: its flags here, its work in runAction.ts, imported when it runs. */
export function addRunCommand(program: Command, context: CommandContext): void {
  const command = addRunFlags(program.command('run').argument('[files...]', 'snippet files, directories (their .js, .ts, … files) or quoted globs; - or nothing: standard input').description('run a snippet, or each snippet file given'))
    .option('--json', 'print the result as one JSON object')
    .option('--emit <file>', 'write the completed program: definitions, then the snippet (TypeScript when FILE ends in .ts)')
    .option('--scenario <k>', "with --emit: write the kept scenario K's program (1, the first execution, by default)", positiveInteger)
    .option('--emit-dir <dir>', "write every kept scenario's program as DIR/scenario-1.js, scenario-2.js, … (.ts for a TypeScript snippet)")
    .option('--types', 'print TypeScript declarations inferred for the injected elements (in --json: the "types" field)')
    .option('--tests <dir>', "write node:test tests of the snippet's own functions as its completed program called them: DIR/program/ holds the program, which is run once under plain node to record the calls");
  addReportFlags(command, 'file')
    .addHelpText('after', "\nA directory stands for its .js, .mjs, .cjs, .jsx, .ts, .mts, .cts and .tsx files (node_modules and dot-directories left out);\na quoted glob is expanded by snipexec: snipexec run 'snippets/**/*.{js,ts}'. Several files run one after the other, each under\n==> its name <== (with --json: one object per line, its \"file\" first); --emit, --emit-dir, --scenario, --tests and --html take one.")
    .option('--print-config', 'print the options this command would run with (config file, flags, defaults) as JSON, by config key, and exit without running')
    .action(async (files: string[], flags: RunFlags, command: Command) => {
      if (flags.printConfig) (await import('./printConfig.ts')).printConfig(command, flags, context);
      else await (await import('./runAction.ts')).runAction(files, flags, context);
    });
}
