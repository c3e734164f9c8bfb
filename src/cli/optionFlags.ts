import { type Command, InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import { InvalidOptions } from '../core/errors.ts';
import { closest } from './suggest.ts';
import { llmOptionsSchema, type LlmOptionsInput } from '../llm/llmOptions.ts';
import { LANGS, MODES, runOptionsSchema, type BatchOptionsInput, type RecordLimitsInput, type RunOptionsInput } from '../core/options.ts';

/** How one schema field is given on the command line. */
interface FlagSpec {
  readonly flag: string;
  /** Name of the flag's value in --help; absent for a switch. */
  readonly value?: string;
  readonly parse?: (value: string) => unknown;
  readonly choices?: readonly string[];
  /** The flag may be given more than once; the field is the list of its values, in order. */
  readonly repeat?: true;
  /** The flag takes a comma-separated list of these names and may be given more than once; the field is the list, in order. */
  readonly list?: readonly string[];
}

export type FlagTable<Input> = { readonly [K in keyof Input]?: FlagSpec };
export type { FlagSpec };

function number(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('expected a number');
  return n;
}

function integer(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
}

/** A flag value that counts something from 1 (`--scenario K`). */
export function positiveInteger(value: string): number {
  const n = integer(value);
  if (n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** A value between 0 and 100 (`--lines 80`). */
export function percent(value: string): number {
  const n = number(value);
  if (n < 0 || n > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100');
  return n;
}

/** `--reporter lcov,html`: the names of a comma-separated list, each one of `choices`; an unknown one is named, with the closest choice. */
export function parseList(value: string, choices: readonly string[]): string[] {
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((n) => !choices.includes(n));
  if (names.length === 0) throw new InvalidArgumentError(`expected one or more of ${choices.join(', ')}, comma-separated`);
  if (unknown.length > 0) {
    const hint = closest(unknown[0] ?? '', choices);
    throw new InvalidArgumentError(`not one of ${choices.join(', ')}: ${unknown.join(', ')}${hint ? ` (did you mean ${hint}?)` : ''}`);
  }
  return names;
}

/**
 * The config key of a field: its flag's name in camelCase, as commander names the flag's value
 * (`timeout` for --timeout, `drive` for --no-drive), or the field's own name when it has no flag.
 */
export function configKey(field: string, spec: FlagSpec | undefined): string {
  return spec ? new Option(spec.flag).attributeName() : field;
}

// The flag tables (flag ↔ field); configKeys.ts derives the config keys from them. Each flag is a field of a config schema, which gives its
// help text, its default and its validation; a validation message names the flag, as the user typed it.

export const RUN_FLAGS = {
  mode: { flag: '--mode', value: 'mode', choices: MODES },
  lang: { flag: '--lang', value: 'lang', choices: LANGS },
  timeoutMs: { flag: '--timeout', value: 'ms', parse: integer },
  totalTimeoutMs: { flag: '--total-timeout', value: 'ms', parse: integer },
  seed: { flag: '--seed', value: 'n', parse: integer },
  memoryLimitMb: { flag: '--memory', value: 'mb', parse: integer },
  drive: { flag: '--no-drive' },
  scenarios: { flag: '--scenarios', value: 'n', parse: integer },
  callUncalled: { flag: '--call-uncalled' },
  environments: { flag: '--no-environments' },
  modulesDirs: { flag: '--modules', value: 'dir', repeat: true },
  projectDir: { flag: '--project', value: 'dir' },
  maxRuns: { flag: '--max-runs', value: 'n', parse: integer },
  maxAttempts: { flag: '--max-attempts', value: 'n', parse: integer },
  maxChecks: { flag: '--max-checks', value: 'n', parse: integer },
  checkTimeoutMs: { flag: '--check-timeout', value: 'ms', parse: integer },
} as const satisfies FlagTable<RunOptionsInput>;

export const LLM_FLAGS = {
  model: { flag: '--model', value: 'name' },
  temperature: { flag: '--temperature', value: 't', parse: number },
  cacheDir: { flag: '--llm-cache', value: 'dir' },
  requestTimeoutMs: { flag: '--llm-timeout', value: 'ms', parse: integer },
  retries: { flag: '--llm-retries', value: 'n', parse: integer },
  maxCallsPerSnippet: { flag: '--llm-max-calls', value: 'n', parse: integer },
  maxTokensPerSnippet: { flag: '--llm-max-tokens', value: 'n', parse: integer },
  maxCompletionTokens: { flag: '--llm-max-completion-tokens', value: 'n', parse: integer },
  maxReplyBytes: { flag: '--llm-max-reply-bytes', value: 'bytes', parse: integer },
  logFile: { flag: '--log-file', value: 'file' },
  logLevel: { flag: '--log-level', value: 'level', choices: llmOptionsSchema.shape.logLevel.unwrap().options },
} as const satisfies FlagTable<LlmOptionsInput>;

export const LLM_BATCH_FLAGS = {
  maxCallsPerBatch: { flag: '--llm-batch-max-calls', value: 'n', parse: integer },
  maxTokensPerBatch: { flag: '--llm-batch-max-tokens', value: 'n', parse: integer },
} as const satisfies FlagTable<LlmOptionsInput>;

export const BATCH_FLAGS = {
  out: { flag: '--out', value: 'file' },
  concurrency: { flag: '--concurrency', value: 'n', parse: integer },
  processes: { flag: '--processes', value: 'n', parse: integer },
  resume: { flag: '--resume' },
  limit: { flag: '--limit', value: 'n', parse: integer },
} as const satisfies FlagTable<BatchOptionsInput>;

export const RECORD_FLAGS = {
  maxCalls: { flag: '--max-calls', value: 'n', parse: integer },
  maxTraceBytes: { flag: '--max-trace-bytes', value: 'bytes', parse: integer },
} as const satisfies FlagTable<RecordLimitsInput>;

type Shape = Record<string, { description?: string | undefined }>;

/** The default a zod field declares, if any. */
export function schemaDefault(field: unknown): unknown {
  return (field as { _zod?: { def?: { defaultValue?: unknown } } } | undefined)?._zod?.def?.defaultValue;
}

/** Adds the flags of `table` to `cmd`, described by `schema`, with the schema's defaults. */
export function addFlags(cmd: Command, table: Record<string, FlagSpec>, schema: { shape: Shape }): Command {
  for (const [field, spec] of Object.entries(table)) {
    const description = schema.shape[field]?.description ?? '';
    const option = new Option(spec.value ? `${spec.flag} <${spec.value}>` : spec.flag, spec.repeat ? `${description} Repeatable.` : description);
    // choices() first: it sets a parser of its own, which a list's or a repeated flag's replaces.
    if (spec.choices) option.choices(spec.choices);
    if (spec.list) {
      const choices = spec.list;
      option.choices(choices).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), ...parseList(value, choices)]);
    }
    if (spec.parse) option.argParser(spec.parse);
    if (spec.repeat) option.argParser((value: string, previous: unknown[] | undefined) => [...(previous ?? []), spec.parse ? spec.parse(value) : value]);
    const fallback = schemaDefault(schema.shape[field]);
    // A repeated flag's default is an empty list, which --help need not show.
    if (spec.value && fallback !== undefined && !spec.repeat) option.default(fallback);
    cmd.addOption(option);
  }
  return cmd;
}

/** The run-option and LLM flags of `run` and `batch`; each is a schema field, described and validated by the schema. */
export function addRunFlags(cmd: Command): Command {
  return addFlags(addFlags(cmd, RUN_FLAGS, runOptionsSchema), LLM_FLAGS, llmOptionsSchema);
}

/**
 * The schema fields given as flags, by field name; flags not given are left out, and so are those
 * whose value is only the default shown in --help (`isDefault`), so a config file's value stands.
 */
export function collectFlags<Input>(opts: Record<string, unknown>, table: FlagTable<Input>, isDefault: (attribute: string) => boolean = () => false): Partial<Input> {
  const out: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(table) as [string, FlagSpec][]) {
    const attribute = configKey(field, spec);
    const value = opts[attribute];
    if (value !== undefined && !isDefault(attribute)) out[field] = value;
  }
  return out as Partial<Input>;
}

/**
 * Validates the fields given as flags against their schema, before anything runs; a failure is an
 * InvalidOptions whose message names each flag and the value given (`--timeout 10: …`), never the
 * schema field or a path into it (`reporters.0`).
 */
export function checkFlags(given: Record<string, unknown>, table: Record<string, FlagSpec>, schema: z.ZodObject): void {
  const result = schema.partial().safeParse(given);
  if (result.success) return;
  const messages = result.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    return `${table[field]?.flag ?? field} ${shownValue(valueAt(given, issue.path))}: ${issue.message}`;
  });
  throw new InvalidOptions(messages.join('; '));
}

/** The value an issue is about: the field's, or its list item's. */
export function valueAt(given: unknown, path: readonly PropertyKey[]): unknown {
  let value = given;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** A value as the user wrote it: a flag's text bare, a list comma-separated, anything else as JSON. */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
  return JSON.stringify(value) ?? String(value);
}
