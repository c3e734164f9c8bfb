/** Secret kinds and the patterns that find them; each match is replaced as a whole. */
const PATTERNS: readonly (readonly [kind: string, pattern: RegExp])[] = [
  ['PRIVATE_KEY', /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g],
  ['AWS_KEY', /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g],
  ['GITHUB_TOKEN', /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g],
  ['OPENAI_KEY', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g],
  ['STRIPE_KEY', /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g],
  ['SLACK_TOKEN', /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g],
  ['GOOGLE_KEY', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['JWT', /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g],
];

/** `scheme://user:PASSWORD@host`: only the password goes. */
const CONNECTION_STRING = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`]*:)([^\s@/'"`]+)(@)/gi;

const SECRET_NAME = /(?:key|secret|token|passw(?:or)?d|passwd|pwd|credential|auth|api)/i;
const PASSWORD_NAME = /(?:passw(?:or)?d|passwd|pwd)/i;
/** `name = "value"`, `name: 'value'`, `"name": "value"`, and `NAME=value` lines of .env files. */
const ASSIGNED_STRING = /(["']?)([A-Za-z_$][\w$-]*)\1\s*[:=]\s*(["'`])([^"'`\n\\]{4,200})\3/g;
const ENV_LINE = /^(\s*(?:export\s+)?)([A-Z][A-Z0-9_]*)=([^\s'"#]{6,})/gm;

/** Names of environment variables whose values are secrets by the rule. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function looksSecret(name: string, value: string): boolean {
  if (!SECRET_NAME.test(name) || value.includes('REDACTED_')) return false;
  if (PASSWORD_NAME.test(name)) return value.length >= 4;
  return value.length >= 8 && entropy(value) >= 3 && !/^[a-z]+(?:[ _-][a-z]+)*$/i.test(value);
}

/**
 * Replaces secrets with placeholders like `REDACTED_AWS_KEY_1` before text leaves the machine.
 * One instance per snippet: a secret gets the same placeholder in every prompt, and the mapping
 * never leaves the host. Values of secret-named environment variables are replaced wherever they
 * occur, and are never restored into a reply, since the host's environment must not reach the isolate.
 */
export class SecretRedactor {
  private readonly bySecret = new Map<string, string>();
  private readonly restorable = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly envSecrets: readonly string[];

  constructor(env: NodeJS.ProcessEnv = {}) {
    const values = Object.entries(env)
      .filter(([name, value]) => isSecretName(name) && typeof value === 'string' && value.length >= 6)
      .map(([, value]) => value as string);
    // Longest first, so a secret containing another is replaced whole.
    this.envSecrets = [...new Set(values)].sort((a, b) => b.length - a.length);
  }

  /** How many distinct secrets were replaced so far. */
  get count(): number {
    return this.bySecret.size;
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.envSecrets) if (out.includes(secret)) out = out.split(secret).join(this.placeholder('ENV_SECRET', secret, false));
    for (const [kind, pattern] of PATTERNS) out = out.replace(pattern, (m) => this.placeholder(kind, m, true));
    out = out.replace(CONNECTION_STRING, (_m, head: string, password: string, at: string) => `${head}${this.placeholder('PASSWORD', password, true)}${at}`);
    out = out.replace(ASSIGNED_STRING, (m, q: string, name: string, quote: string, value: string) =>
      looksSecret(name, value) ? `${q}${name}${q}${m.slice(q.length * 2 + name.length, m.length - value.length - 2)}${quote}${this.placeholder('SECRET', value, true)}${quote}` : m,
    );
    out = out.replace(ENV_LINE, (m, head: string, name: string, value: string) => (looksSecret(name, value) ? `${head}${name}=${this.placeholder('SECRET', value, true)}` : m));
    return out;
  }

  /** Puts the snippet's own secrets back into a reply; environment secrets stay placeholders. */
  restore(text: string): string {
    return text.replace(/REDACTED_[A-Z_]+_\d+/g, (p) => this.restorable.get(p) ?? p);
  }

  private placeholder(kind: string, secret: string, restorable: boolean): string {
    const known = this.bySecret.get(secret);
    if (known) return known;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const p = `REDACTED_${kind}_${n}`;
    this.bySecret.set(secret, p);
    if (restorable) this.restorable.set(p, secret);
    return p;
  }
}
