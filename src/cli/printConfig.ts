import type { Command } from 'commander';
import { reportOptionsSchema, resolveReportOptions } from '../core/reportOptions.ts';
import { CONFIG_GROUPS, CONFIG_ROWS, givenOptions, type ConfigGroup } from './configKeys.ts';
import type { CommandContext } from './commandContext.ts';
import { checkFlags, schemaDefault } from './optionFlags.ts';

/**
 * `--print-config`: the options `command` would run with (the config file's, the flags' over them,
 * the defaults for the rest), by config key, as JSON on stdout; nothing runs. The output is itself a
 * config file: saved as snipexec.config.json, it gives the same options.
 */
export function printConfig(command: Command, flags: Record<string, unknown>, context: CommandContext): void {
  const offered = new Set(command.options.map((o) => o.long));
  const out: Record<string, unknown> = {};
  for (const { group, schema, flags: table } of CONFIG_GROUPS) {
    if (group === 'batch' && command.name() !== 'batch') continue;
    const given = givenOptions(group, flags, context.config, context.isDefault);
    checkFlags(given, table, schema);
    if (group === 'report') {
      Object.assign(out, reportKeys(given));
      continue;
    }
    for (const row of rowsOf(group)) {
      // A flag this command does not take (--llm-batch-max-calls on run) is not its option.
      if (row.flag !== undefined && !offered.has(row.flag)) continue;
      const value = given[row.field] ?? schemaDefault(row.schema);
      if (value !== undefined) out[row.key] = value;
    }
  }
  if (context.configFile !== undefined) process.stderr.write(`snipexec: options from ${context.configFile}, flags over them\n`);
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}

function rowsOf(group: ConfigGroup) {
  return CONFIG_ROWS.filter((r) => r.group === group);
}

/** The report keys as they resolve: none when no coverage is written; else the directory, the reporters and the thresholds checked. */
function reportKeys(given: Record<string, unknown>): Record<string, unknown> {
  const resolved = resolveReportOptions(reportOptionsSchema.partial().parse(given));
  if (resolved.coverageDir === undefined) return {};
  return {
    coverageDir: resolved.coverageDir,
    reporter: resolved.reporter,
    ...(resolved.thresholds ? { checkCoverage: true, ...resolved.thresholds } : {}),
    ...(resolved.perFile ? { perFile: true } : {}),
  };
}
