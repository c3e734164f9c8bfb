/**
 * `npm run gen-config-schema`: writes snipexec.schema.json, the JSON schema of a config file, from the
 * zod schemas (src/cli/configJsonSchema.ts). test/configSpec.test.ts fails when the shipped file differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_SCHEMA_FILE, configJsonSchema } from '../src/cli/configJsonSchema.ts';

const file = join(import.meta.dirname, '..', CONFIG_SCHEMA_FILE);
writeFileSync(file, JSON.stringify(configJsonSchema(), null, 2) + '\n');
process.stdout.write(`wrote ${file}\n`);
