import { relative, resolve } from 'node:path';
import type { Logger } from 'pino';
import { batchOptionsSchema, runOptionsSchema, type BatchOptionsInput, type RunOptionsInput } from '../core/options.ts';
import { llmOptionsFromEnv, llmOptionsSchema, type LlmFlags } from '../llm/llmOptions.ts';
import type { LlmEnvironment } from '../llm/llmSession.ts';
import type { CommandContext } from './commandContext.ts';
import { reportOptionsSchema, resolveReportOptions, type ResolvedReportOptions } from '../core/reportOptions.ts';
import { flagTable, givenOptions } from './configKeys.ts';
import { BATCH_FLAGS, checkFlags, RUN_FLAGS } from './optionFlags.ts';
import { REPORT_FLAGS, type ReportFlags } from './reportFlags.ts';

/** Commander's parsed options: the flags of optionFlags.ts, by their attribute names, and the command's own switches. */
export type Flags = Record<string, unknown>;

/** The LLM flags given, validated whatever the mode, so a wrong value is named by its flag before anything runs; the config's fill in. */
export function llmFlags(flags: Flags, context: CommandContext): LlmFlags {
  const given = givenOptions('llm', flags, context.config, context.isDefault);
  checkFlags(given, flagTable('llm'), llmOptionsSchema);
  return given as LlmFlags;
}

/** The LLM environment of `--mode llm`, made before anything runs so a missing endpoint fails first. Only that mode loads the LLM session and the logger. */
export async function llmEnvironment(flags: Flags, options: RunOptionsInput, context: CommandContext): Promise<LlmEnvironment | undefined> {
  const given = llmFlags(flags, context);
  if (options.mode !== 'llm') return undefined;
  const llm = llmOptionsFromEnv(process.env, given);
  const [{ LlmEnvironment }, { createLogger }] = await Promise.all([import('../llm/llmSession.ts'), import('./createLogger.ts')]);
  return new LlmEnvironment(llm, { logger: createLogger(llm) });
}

/** The logger of a run without an LLM environment (createLogger.ts), loaded with the engine. */
export async function runLogger(flags: Flags, context: CommandContext): Promise<Logger> {
  return (await import('./createLogger.ts')).createLogger(llmFlags(flags, context));
}

/** The run options the flags give, validated: a bad value is an error naming its flag. */
export function toRunOptions(flags: Flags, context: CommandContext, fileName?: string): RunOptionsInput {
  const given = givenOptions('run', flags, context.config, context.isDefault) as RunOptionsInput;
  checkFlags(given, RUN_FLAGS, runOptionsSchema);
  if (!fileName) return given;
  return { ...given, fileName: snippetFileName(fileName, given.projectDir) };
}

/** A snippet file's name for the run options: with --project, relative to the project, where its relative imports are looked up. */
export function snippetFileName(file: string, projectDir: string | undefined): string {
  return projectDir === undefined ? file : relative(projectDir, resolve(file));
}

export function toBatchOptions(flags: Flags, context: CommandContext): BatchOptionsInput {
  const given = givenOptions('batch', flags, context.config, context.isDefault) as BatchOptionsInput;
  checkFlags(given, BATCH_FLAGS, batchOptionsSchema);
  return given;
}

/** The coverage report settings, the config's and the flags', with the defaults decided (./coverage when a reporter or a threshold is given); --html stays the flag's. */
export function toReportOptions(flags: Flags & ReportFlags, context: CommandContext): ResolvedReportOptions & { html?: string } {
  const given = givenOptions('report', flags, context.config, context.isDefault);
  checkFlags(given, REPORT_FLAGS, reportOptionsSchema);
  return { ...resolveReportOptions(given), ...(flags.html === undefined ? {} : { html: flags.html }) };
}
