import { PlaceholderRedactor } from '../llm/placeholderRedactor.ts';
import { isSecretName } from '../llm/secretRules.ts';

/** Names that look secret by the rule but hold none. */
export const NOT_SECRET_NAMES: ReadonlySet<string> = new Set(['PWD', 'OLDPWD', 'SSH_AUTH_SOCK']);

/** A string that contains a secret value of at least this many characters is redacted; shorter values only when equal. */
export const MIN_CONTAINED_SECRET = 3;

const CACHE_LIMIT = 10_000;
const CACHED_LENGTH = 256;

/** The values of the environment variables with a secret-looking name (README "record", redaction), longest first. */
export function secretEnvValues(env: NodeJS.ProcessEnv): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => isSecretName(name) && !NOT_SECRET_NAMES.has(name) && typeof value === 'string' && value !== '')
    .map(([, value]) => value as string);
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/**
 * Decides which strings the recorder must not write: a string equal to a secret environment value,
 * one containing such a value of 3 or more characters, and one the LLM redaction rules would change.
 */
export class SecretScanner {
  private readonly envValues: readonly string[];
  // snipexec's own rules: secretlint's preset would add ~100 KB to the preload every recorded program loads.
  private readonly redactor = new PlaceholderRedactor({});
  private readonly cache = new Map<string, boolean>();

  constructor(env: NodeJS.ProcessEnv) {
    this.envValues = secretEnvValues(env);
  }

  isSecret(s: string): boolean {
    if (s === '') return false;
    const cached = this.cache.get(s);
    if (cached !== undefined) return cached;
    const secret = this.envValues.some((v) => s === v || (v.length >= MIN_CONTAINED_SECRET && s.includes(v))) || this.redactor.redact(s) !== s;
    if (s.length <= CACHED_LENGTH) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(s, secret);
    }
    return secret;
  }
}
