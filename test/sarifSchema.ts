import { readFileSync } from 'node:fs';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

/**
 * The OASIS SARIF 2.1.0 JSON schema, errata 01 (the official one, JSON Schema draft-04), as
 * oasis-tcs/sarif-spec holds it at sarif-2.1/schema/sarif-schema-2.1.0.json (commit e058381,
 * sha256 c3b4bb2d…682e).
 */
export const sarifSchema = JSON.parse(readFileSync(new URL('./fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as { id: string };

// Both packages are CommonJS whose module.exports also carries itself as `default`.
const ajv = new ajvDraft04.default({ allErrors: true });
ajvFormats.default(ajv);
const validate = ajv.compile(sarifSchema);

/** The schema violations of a SARIF log, as `path message` lines; empty when it is valid. */
export function sarifErrors(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
