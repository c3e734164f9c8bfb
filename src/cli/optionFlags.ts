import { type Command, InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import { InvalidOptions } from '../core/errors.ts';
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
}

type FlagTable<Input> = { readonly [K in keyof Input]?: FlagSpec };

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

// The one home of the flag ↔ field mapping. Each flag is a field of a config schema, which gives its
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
  resume: { flag: '--resume' },
  limit: { flag: '--limit', value: 'n', parse: integer },
} as const satisfies FlagTable<BatchOptionsInput>;

export const RECORD_FLAGS = {
  maxCalls: { flag: '--max-calls', value: 'n', parse: integer },
  maxTraceBytes: { flag: '--max-trace-bytes', value: 'bytes', parse: integer },
} as const satisfies FlagTable<RecordLimitsInput>;

type Shape = Record<string, { description?: string | undefined }>;

/** The default a zod field declares, if any. */
function schemaDefault(field: unknown): unknown {
  return (field as { _zod?: { def?: { defaultValue?: unknown } } } | undefined)?._zod?.def?.defaultValue;
}

/** Adds the flags of `table` to `cmd`, described by `schema`, with the schema's defaults. */
export function addFlags(cmd: Command, table: Record<string, FlagSpec>, schema: { shape: Shape }): Command {
  for (const [field, spec] of Object.entries(table)) {
    const description = schema.shape[field]?.description ?? '';
    const option = new Option(spec.value ? `${spec.flag} <${spec.value}>` : spec.flag, spec.repeat ? `${description} Repeatable.` : description);
    if (spec.parse) option.argParser(spec.parse);
    if (spec.repeat) option.argParser((value: string, previous: unknown[] | undefined) => [...(previous ?? []), spec.parse ? spec.parse(value) : value]);
    if (spec.choices) option.choices(spec.choices);
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
    const attribute = new Option(spec.flag).attributeName();
    const value = opts[attribute];
    if (value !== undefined && !isDefault(attribute)) out[field] = value;
  }
  return out as Partial<Input>;
}

/**
 * Validates the fields given as flags against their schema, before anything runs; a failure is an
 * InvalidOptions whose message names each flag (`--timeout: …`), never the schema field.
 */
export function checkFlags(given: Record<string, unknown>, table: Record<string, FlagSpec>, schema: z.ZodObject): void {
  const result = schema.partial().safeParse(given);
  if (result.success) return;
  const messages = result.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    return `${table[field]?.flag ?? field}: ${issue.message}`;
  });
  throw new InvalidOptions(messages.join('; '));
}
