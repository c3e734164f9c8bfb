import { PlaceholderRedactor } from '../llm/placeholderRedactor.ts';
import { isSecretName } from '../llm/secretRules.ts';

/** Names that look secret by the rule but hold none. */
export const NOT_SECRET_NAMES: ReadonlySet<string> = new Set(['PWD', 'OLDPWD', 'SSH_AUTH_SOCK']);

/** A string that contains a secret value of at least this many characters is redacted; shorter values only when equal. */
export const MIN_CONTAINED_SECRET = 3;

const CACHE_LIMIT = 10_000;
const CACHED_LENGTH = 256;

/** The values of the environment variables with a secret-looking name (docs/guide/record.md, redaction), longest first. */
export function secretEnvValues(env: NodeJS.ProcessEnv): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => isSecretName(name) && !NOT_SECRET_NAMES.has(name) && typeof value === 'string' && value !== '')
    .map(([, value]) => value as string);
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/** A flag whose value is a secret: `--password=…`, `--api-key …`, `-token=…`. */
const SECRET_FLAG = /^--?([A-Za-z][\w-]*)(?:=([\s\S]*))?$/;

function isSecretFlag(name: string): boolean {
  return isSecretName(name.replace(/-/g, '_')) || /(?:^|-)pass$/i.test(name);
}

/** The values given to secret-named flags in `args`: `--password=v` and `--password v`. */
export function argvSecrets(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const m = SECRET_FLAG.exec(args[i] ?? '');
    if (!m || !isSecretFlag(m[1]!)) continue;
    if (m[2] !== undefined) out.push(m[2]);
    else if (i + 1 < args.length && !(args[i + 1] ?? '').startsWith('-')) out.push(args[i + 1]!);
  }
  return out.filter((v) => v !== '');
}

/**
 * The forms a secret value takes once a program derives it: base64 (padded, unpadded, URL-safe),
 * hex (either case), URL-encoded, JSON-escaped. Each is as much a secret as the value.
 */
export function derivedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const b64 = bytes.toString('base64');
  return [...new Set([
    value, b64, b64.replace(/=+$/, ''), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').toUpperCase(),
    encodeURIComponent(value), JSON.stringify(value).slice(1, -1),
  ])];
}

/** Derived forms only for values this long: a short value's base64 or hex is too likely to occur by chance. */
const MIN_DERIVED = 6;
/** What a program may put between the characters of a secret it spells out: spaces, punctuation, quotes. */
const SEPARATORS = /[\s\-_.,:;|/\\'"`+]/g;

/**
 * Decides which strings the recorder must not write: a string equal to a secret environment value
 * or the value of a secret-named flag of the program's argv, one containing such a value of 3 or
 * more characters or a form derived from it (base64, hex, URL-encoded, spelled out with separators),
 * and one the LLM redaction rules would change. A byte array is checked as the text of its bytes.
 */
export class SecretScanner {
  private readonly envValues: readonly string[];
  private readonly squeezedValues: readonly string[];
  // snipexec's own rules: secretlint's preset would add ~100 KB to the preload every recorded program loads.
  private readonly redactor = new PlaceholderRedactor({});
  private readonly cache = new Map<string, boolean>();

  constructor(env: NodeJS.ProcessEnv, argv: readonly string[] = []) {
    const values = [...new Set([...secretEnvValues(env), ...argvSecrets(argv)])];
    const derived = values.flatMap((v) => (v.length >= MIN_DERIVED ? derivedForms(v) : [v]));
    this.envValues = [...new Set(derived)].sort((a, b) => b.length - a.length);
    this.squeezedValues = values.map((v) => v.replace(SEPARATORS, '')).filter((v) => v.length >= MIN_DERIVED);
  }

  /** argv with the values of secret-named flags (and any secret argument) redacted to `redacted`. */
  redactArgv(args: readonly string[], redacted: string): string[] {
    return args.map((a, i) => {
      const m = SECRET_FLAG.exec(a);
      if (m && isSecretFlag(m[1]!) && m[2] !== undefined && m[2] !== '') return `${a.slice(0, a.indexOf('=') + 1)}${redacted}`;
      const previous = SECRET_FLAG.exec(args[i - 1] ?? '');
      if (previous && isSecretFlag(previous[1]!) && previous[2] === undefined && !a.startsWith('-')) return redacted;
      return this.isSecret(a) ? redacted : a;
    });
  }

  isSecret(s: string): boolean {
    if (s === '') return false;
    const cached = this.cache.get(s);
    if (cached !== undefined) return cached;
    const squeezed = this.squeezedValues.length > 0 ? s.replace(SEPARATORS, '') : '';
    const secret = this.envValues.some((v) => s === v || (v.length >= MIN_CONTAINED_SECRET && s.includes(v)))
      || this.squeezedValues.some((v) => squeezed.includes(v))
      || this.redactor.redact(s) !== s;
    if (s.length <= CACHED_LENGTH) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(s, secret);
    }
    return secret;
  }
}
