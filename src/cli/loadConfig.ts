import { lilconfig, type LilconfigResult } from 'lilconfig';
import { z } from 'zod';
import { InvalidOptions } from '../core/errors.ts';
import { llmOptionsSchema } from '../llm/llmOptions.ts';
import { batchOptionsSchema, runOptionsSchema } from '../core/options.ts';

/** Where a config is looked for, from the working directory up: the `"snipexec"` key of package.json, then these files. */
export const CONFIG_FILES = ['package.json', 'snipexec.config.json', 'snipexec.config.js', 'snipexec.config.mjs'] as const;

/**
 * A config file holds the same fields the flags set, by their API names (`timeoutMs`, `concurrency`,
 * `model`…), validated by the same schemas. The endpoint and the key stay in the environment
 * (OPENAI_BASE_URL, OPENAI_API_KEY): a key in a committed file is a leak waiting to happen.
 */
const { baseURL: _baseURL, apiKey: _apiKey, ...llmFields } = llmOptionsSchema.shape;
export const configSchema = z.object({ ...runOptionsSchema.partial().shape, ...batchOptionsSchema.partial().shape, ...z.object(llmFields).partial().shape }).strict();
export type SnipexecConfig = z.infer<typeof configSchema>;

export interface LoadedConfig {
  /** The file it came from; undefined when none was found. */
  readonly file: string | undefined;
  readonly config: SnipexecConfig;
}

/**
 * Finds and validates the config (lilconfig: package.json's `"snipexec"` key, snipexec.config.json,
 * .js or .mjs, from `cwd` up to the home directory). `explicit` is a file named with --config. An
 * unknown key, or a value the schema refuses, is an InvalidOptions naming the file and the key.
 */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig> {
  // The asynchronous explorer: .js and .mjs configs are ES modules, imported.
  const explorer = lilconfig('snipexec', { searchPlaces: [...CONFIG_FILES] });
  let found: LilconfigResult;
  try {
    found = explicit === undefined ? await explorer.search(cwd) : await explorer.load(explicit);
  } catch (error) {
    throw new InvalidOptions(`${explicit ?? 'config'}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (found === null) return { file: undefined, config: {} };
  return { file: found.filepath, config: validate(found.filepath, found.config) };
}

export function validate(file: string, raw: unknown): SnipexecConfig {
  const result = configSchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    return `${issue.path.join('.') || '(root)'}: ${issue.message}`;
  });
  throw new InvalidOptions(`${file}: ${messages.join('; ')}`);
}
