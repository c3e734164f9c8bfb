import { basename } from 'node:path';
import { z } from 'zod';
import { InvalidOptions } from '../core/errors.ts';
import { batchOptionsSchema, runOptionsSchema } from '../core/options.ts';
import { reportOptionsSchema } from '../core/reportOptions.ts';
import { llmOptionsSchema } from '../llm/llmOptions.ts';
import { BATCH_FLAGS, collectFlags, configKey, LLM_BATCH_FLAGS, LLM_FLAGS, RUN_FLAGS, shownValue, valueAt, type FlagSpec } from './optionFlags.ts';
import { REPORT_FLAGS } from './reportFlags.ts';
import { closest } from './suggest.ts';

/**
 * The endpoint and the key stay in the environment (OPENAI_BASE_URL, OPENAI_API_KEY): a key in a
 * committed file is a leak waiting to happen.
 */
const { baseURL: _baseURL, apiKey: _apiKey, ...llmFields } = llmOptionsSchema.shape;
const llmConfigSchema = z.object(llmFields);

export type ConfigGroup = 'run' | 'llm' | 'batch' | 'report';

/** The option groups a config file sets: each a schema and its flags, keyed by the schema's field names. */
export const CONFIG_GROUPS: readonly { readonly group: ConfigGroup; readonly schema: z.ZodObject; readonly flags: Readonly<Record<string, FlagSpec>> }[] = [
  { group: 'run', schema: runOptionsSchema, flags: RUN_FLAGS },
  { group: 'llm', schema: llmConfigSchema, flags: { ...LLM_FLAGS, ...LLM_BATCH_FLAGS } },
  { group: 'batch', schema: batchOptionsSchema, flags: BATCH_FLAGS },
  { group: 'report', schema: reportOptionsSchema, flags: REPORT_FLAGS },
];

/** One option: its config key, its API name, its flag. */
export interface ConfigRow {
  /** The config key: the flag's name in camelCase (`timeout` for --timeout); the field's name when it has no flag. */
  readonly key: string;
  /** The API name (runSnippet's `timeoutMs`); a config file may use it instead of the key. */
  readonly field: string;
  readonly group: ConfigGroup;
  /** The long flag, as --help shows it (`--no-drive` for `drive`); undefined for an option without one. */
  readonly flag?: string;
  readonly schema: z.ZodType;
}

/** Every config key, derived from the flag tables and the schemas: the one home of key ↔ flag ↔ API name. */
export const CONFIG_ROWS: readonly ConfigRow[] = CONFIG_GROUPS.flatMap(({ group, schema, flags }) =>
  Object.entries(schema.shape).map(([field, fieldSchema]) => {
    const spec = flags[field];
    return { key: configKey(field, spec), field, group, ...(spec ? { flag: spec.flag } : {}), schema: fieldSchema as z.ZodType };
  }),
);

const BY_KEY = new Map(CONFIG_ROWS.map((r) => [r.key, r]));
const BY_ALIAS = new Map(CONFIG_ROWS.filter((r) => r.field !== r.key).map((r) => [r.field, r]));
/** `$schema` names the JSON schema for editors; the loader ignores it. */
const SCHEMA_KEY = '$schema';

/** The config file's schema by keys, every key optional: what a config file is checked against, after aliases are renamed. */
export const configSchema = z.object(Object.fromEntries(CONFIG_ROWS.map((r) => [r.key, r.schema]))).partial();

/** The options a config file gives, by API name (`timeoutMs`), only those it sets. */
export type SnipexecConfig = Record<string, unknown>;

/**
 * Checks a config file's object and returns its options by API name. Every problem names the file and
 * the key: an unknown key (with the closest one), a key given under both its names, a bad value (with
 * the value), the package.json form pasted into a config file.
 */
export function readConfig(file: string, raw: unknown): SnipexecConfig {
  const fail = (problems: readonly string[]): never => {
    throw new InvalidOptions(`${file}: ${problems.join('; ')}`);
  };
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return fail([`expected an object of options, got ${Array.isArray(raw) ? 'a list' : typeof raw}`]);
  const entries = Object.entries(raw).filter(([name]) => name !== SCHEMA_KEY);
  if (entries.some(([name]) => name === 'snipexec') && basename(file) !== 'package.json') {
    return fail(['this is the package.json form ({ "snipexec": { … } }); in a config file of its own put the keys at the top level']);
  }
  const problems: string[] = [];
  const keyed: Record<string, unknown> = {};
  /** The name each key was given under, to name it as the file does. */
  const written = new Map<string, string>();
  for (const [name, value] of entries) {
    const row = BY_KEY.get(name) ?? BY_ALIAS.get(name);
    if (row === undefined) {
      const hint = closest(name, [...BY_KEY.keys(), ...BY_ALIAS.keys()]);
      problems.push(`unknown key "${name}"${hint === undefined ? '' : ` (did you mean "${BY_ALIAS.get(hint)?.key ?? hint}"?)`}`);
      continue;
    }
    const other = written.get(row.key);
    if (other !== undefined) {
      problems.push(`"${row.key}" and "${row.field}" are the same option (${row.field} is its API name); give one`);
      continue;
    }
    written.set(row.key, name);
    keyed[row.key] = value;
  }
  const result = configSchema.safeParse(keyed);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '');
      problems.push(`${written.get(key) ?? key} ${shownValue(valueAt(keyed, issue.path))}: ${issue.message}`);
    }
  }
  if (problems.length > 0) fail(problems);
  const parsed = result.data as Record<string, unknown>;
  return Object.fromEntries([...written.keys()].map((key) => [BY_KEY.get(key)?.field ?? key, parsed[key]]));
}

/** What the JSON schema of a config file describes: every key, its API name as an alias, and `$schema`. */
export function configJsonSchemaSource(): z.ZodObject {
  const aliases = CONFIG_ROWS.filter((r) => r.field !== r.key).map((r) => [r.field, r.schema.describe(`Alias of "${r.key}" (its API name); give one of the two.`)]);
  return z
    .object({
      [SCHEMA_KEY]: z.string().describe('The JSON schema of this file, for editors; snipexec ignores it.'),
      ...Object.fromEntries(CONFIG_ROWS.map((r) => [r.key, r.schema])),
      ...Object.fromEntries(aliases),
    })
    .partial()
    .strict()
    .describe('snipexec config: the keys are the flags of run and batch in camelCase (--total-timeout is totalTimeout, --no-drive is drive: false); flags given on the command line win. In snipexec.config.json the keys are at the top level; in package.json they go under "snipexec".');
}

/** The flags that set `group`'s options. */
export function flagTable(group: ConfigGroup): Readonly<Record<string, FlagSpec>> {
  return CONFIG_GROUPS.find((g) => g.group === group)?.flags ?? {};
}

/** The options of `group` a command is given: the config's, then the flags given on the command line over them (not their --help defaults). */
export function givenOptions(group: ConfigGroup, flags: Record<string, unknown>, config: SnipexecConfig, isDefault: (attribute: string) => boolean): Record<string, unknown> {
  const fields = CONFIG_ROWS.filter((r) => r.group === group).map((r) => r.field);
  const table = flagTable(group);
  const fromConfig = Object.fromEntries(Object.entries(config).filter(([field]) => fields.includes(field)));
  return { ...fromConfig, ...collectFlags(flags, table, isDefault) };
}
