import { z } from 'zod';
import { CONFIG_ROWS, configJsonSchemaSource } from './configKeys.ts';

/** The file the JSON schema is shipped as, at the package's root: `"$schema": "./node_modules/snipexec/snipexec.schema.json"`. */
export const CONFIG_SCHEMA_FILE = 'snipexec.schema.json';

/**
 * The JSON schema of a config file (snipexec.config.json, package.json's "snipexec"), from the zod
 * schemas: every key with its description, type, bounds and default, the API names as aliases.
 * What only code can check (a directory exists, a key given under both names) is left to the loader.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configJsonSchemaSource(), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // A key and its API name are one option: not both.
  const notBoth = CONFIG_ROWS.filter((r) => r.field !== r.key).map((r) => ({ not: { required: [r.key, r.field] } }));
  return { ...schema, title: 'snipexec config', allOf: notBoth };
}
