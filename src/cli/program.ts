import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { CommandContext } from './commandContext.ts';
import { addBatchCommand } from './batchCommand.ts';
import { addDiffCommand } from './diffCommand.ts';
import { addWorkerCommand } from './queueCommands.ts';
import { addRecordCommands } from './recordCommands.ts';
import { addRunCommand } from './runCommand.ts';

/**
 * The command table: every command, flag, default and help text. Its modules import commander and
 * the option schemas only; each action imports its implementation when it runs, so --help and a
 * usage error load no engine.
 */
export function buildProgram(): Command {
  const version = packageVersion();
  const program = new Command('snipexec')
    .description('Run partial JavaScript and TypeScript snippets: missing values are injected, coverage is measured.')
    .version(version, '-V, --version', 'print the version')
    .option('--config <file>', 'read options from FILE instead of the first of package.json "snipexec", snipexec.config.json, .js, .mjs found from the working directory up; its keys are the flags in camelCase (--total-timeout: totalTimeout); flags win')
    // A usage error is one line and a hint, never the whole help.
    .showHelpAfterError('(snipexec <command> --help shows the usage)')
    // An unknown flag or command: "(Did you mean --timeout?)" (commander's default, kept on for every command).
    .showSuggestionAfterError(true)
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'snipexec: ')) })
    .exitOverride();
  const context: CommandContext = { config: {}, isDefault: () => false, version };
  program.hook('preAction', async (_program, action) => {
    const { loadConfig } = await import('./loadConfig.ts');
    const loaded = await loadConfig(process.cwd(), program.opts<{ config?: string }>().config);
    context.config = loaded.config;
    context.configFile = loaded.file;
    context.isDefault = (attribute) => action.getOptionValueSource(attribute) === 'default';
  });
  addRunCommand(program, context);
  addBatchCommand(program, context);
  addDiffCommand(program, context);
  addRecordCommands(program);
  addWorkerCommand(program);
  return program;
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
