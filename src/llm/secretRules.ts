/**
 * snipexec's own secret rules, beside secretlint's (secretlintRules.ts). Each rule finds the secret
 * part of a match only, so `user:PASSWORD@host` keeps its shape. Where a rule follows gitleaks'
 * default config (config/gitleaks.toml), the comment names the rule id.
 */

/** A secret found in a text: `[start, end)` and the kind its placeholder names. */
export interface Finding {
  readonly start: number;
  readonly end: number;
  readonly kind: string;
}

export type SecretRule = (text: string) => Finding[];

const SECRET_NAME = /(?:key|secret|token|passw(?:or)?d|passwd|pwd|passphrase|credential|creds|auth|api|(?:^|[_-])pass$|[a-z]Pass$)/i;
/** Names whose every value is a password: `password`, `passwd`, `pwd`, `passphrase`, nodemailer's `auth.pass`. */
const PASSWORD_NAME = /(?:passw(?:or)?d|passwd|pwd|passphrase|(?:^|[_-])pass$|[a-z]Pass$)/i;
/** Secret-looking names that hold none: `author`, `keyboard`, `apiVersion`, `keyCode`, `tokenUrl`. */
const NOT_SECRET_NAME = /^(?:author(?!i[sz]ation)\w*|\w*keyboard\w*|api_?(?:version|url|base|host|path|endpoint|docs?)|\w*key_?(?:code|name|path|length)|\w*token_?(?:type|url|endpoint))$/i;

/** Names of environment variables and keys whose values are secrets. */
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

/** Template slots, env references, masks, URLs without credentials and paths are no secrets (gitleaks' global allowlist). */
const NOT_A_VALUE = /REDACTED_|\$\{|\{\{|^%\w+%$|^\$\w+$|^<[^>]*>$|^\*+$|^x+$|^\.+$|^(?:true|false|null|undefined|none|string|number|boolean|any|unknown|object|void|required|optional)$|^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$|^(?:~|\.{1,2})?\/[\w.@/-]*$/i;
/** A quoted "value" that is code between two string literals: `'?token=' + token + '&'`. */
const CODE_BETWEEN_LITERALS = /^\s|\s$|\s\+\s/;
const PLAIN_WORDS = /^[a-z]+(?:[ _.-][a-z]+)*$/i;

/** Whether `value`, held by the key `name`, is a secret: any password; otherwise a high-entropy value. */
function looksSecret(name: string, value: string, strict = false): boolean {
  const last = name.split(/[.[\]'"]/).filter(Boolean).pop() ?? name;
  if (!SECRET_NAME.test(last) || NOT_SECRET_NAME.test(last) || NOT_A_VALUE.test(value)) return false;
  if (PASSWORD_NAME.test(last) && !strict) return value.length >= 4;
  return value.length >= 8 && entropy(value) >= 3 && !PLAIN_WORDS.test(value);
}

/** Secrets with a fixed shape, found wherever they occur. */
const TOKENS: readonly (readonly [kind: string, pattern: RegExp])[] = [
  // gitleaks private-key
  // The body may be split over string pieces or JSON-escaped, but holds no code: `.replace('-----BEGIN…', '')` is none.
  ['PRIVATE_KEY', /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\w\s\\"'`+/=:,.-]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g],
  // gitleaks aws-access-token
  ['AWS_KEY', /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g],
  // gitleaks github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat
  ['GITHUB_TOKEN', /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g],
  // gitleaks openai-api-key (and Anthropic's sk-ant-, which shares the prefix)
  ['OPENAI_KEY', /\bsk-(?:proj-|svcacct-|admin-|ant-)?[A-Za-z0-9_-]{20,}/g],
  // gitleaks stripe-access-token
  ['STRIPE_KEY', /\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{16,}\b/g],
  // gitleaks slack-bot-token, slack-user-token, slack-app-token, slack-legacy-token
  ['SLACK_TOKEN', /\bxox[abposre]-[A-Za-z0-9-]{10,}\b/g],
  // gitleaks gcp-api-key
  ['GOOGLE_KEY', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  // gitleaks jwt
  ['JWT', /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g],
  // gitleaks mailgun-private-api-token, mailgun-pub-key; the newer private key form
  ['MAILGUN_KEY', /\b(?:key|pubkey)-[a-f0-9]{32}\b|\b[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}\b/g],
  // gitleaks twilio-api-key (SK…), and an account SID (AC…)
  ['TWILIO_KEY', /\b(?:SK|AC)[0-9a-fA-F]{32}\b/g],
];

function tokens(text: string): Finding[] {
  return TOKENS.flatMap(([kind, pattern]) => [...text.matchAll(pattern)].map((m) => at(m.index, m[0], kind)));
}

/** `scheme://user:PASSWORD@host`: the password only (secretlint's database-connection-string, basicauth). */
const CONNECTION_STRING = /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`]*:([^\s@/'"`]+)@/gi;

function connectionStrings(text: string): Finding[] {
  return [...text.matchAll(CONNECTION_STRING)].flatMap((m) => (NOT_A_VALUE.test(m[1]!) ? [] : [at(m.index + m[0].length - 1 - m[1]!.length, m[1]!, 'PASSWORD')]));
}

/** `Basic …`/`Bearer …` credentials, in a header, a string or a curl -H line (gitleaks curl-auth-header). */
const AUTH_SCHEME = /\b(?:Basic|Bearer)[ \t]+([A-Za-z0-9._~+/-]{8,}=*)/gi;

function authHeaders(text: string): Finding[] {
  return [...text.matchAll(AUTH_SCHEME)].flatMap((m) => {
    const value = m[1]!;
    return PLAIN_WORDS.test(value) || NOT_A_VALUE.test(value) ? [] : [at(m.index + m[0].length - value.length, value, 'AUTH_HEADER')];
  });
}

/** A key's name, from where an identifier starts and at most 64 characters long, so a long run of word characters costs no backtracking. */
const NAME = String.raw`(?<![\w$.-])[A-Za-z_$][\w$.-]{0,63}`;
/**
 * A secret-named key and a quoted value, in any syntax: `name = '…'`, `name: "…"`, `"name": "…"`,
 * `headers['x-api-key'] = '…'`, `token || '…'`, `set('token', '…')` (gitleaks generic-api-key's operators).
 */
const QUOTED_PAIR = new RegExp(String.raw`(["'\x60]?)(${NAME})\1\s*\]?\s*(:=|=>|\|\||\?\?|[:=,])\s*(["'\x60])((?:(?!\4)[^\\\n]|\\.){4,300})\4`, 'g');
/** The same with an unquoted value in a comment: `// password: …`, `/* pwd=… *\/`, `# db password is …`. */
const COMMENT_PAIR = new RegExp(String.raw`(${NAME})\s*(?::=|[:=]|\s+is\s+)\s*([^\s'"\x60,;]{4,300})`, 'g');
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|(?<=^|[ \t])#[^\n]*/gm;
/** …and as the whole rest of a `.env`, YAML or INI line: `API_KEY=…`, `  auth_token: …`; `key: value,` is code. */
const CONFIG_LINE = new RegExp(String.raw`^[ \t]*(?:export[ \t]+)?(${NAME})[ \t]*[:=][ \t]*([^\s'"\x60]{4,300})[ \t]*$`, 'gm');
/** An unquoted value is code, not a secret, when it reads a member, indexes, calls or builds something. */
const CODE_VALUE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|[[\](){}<>;,]|^(?:process|import)\./;

function quotedPairs(text: string): Finding[] {
  return [...text.matchAll(QUOTED_PAIR)].flatMap((m) => {
    const [all, q, name, op, , value] = m as unknown as [string, string, string, string, string, string];
    // A bare name before a comma is an argument, not a key: `login(password, 'admin')`.
    if (op === ',' && q === '') return [];
    if (CODE_BETWEEN_LITERALS.test(value) || !looksSecret(name, value, op === ',')) return [];
    return [at(m.index + all.length - 1 - value.length, value, 'SECRET')];
  });
}

function loosePairs(text: string): Finding[] {
  const inComments = [...text.matchAll(COMMENT)].flatMap((c) => [...c[0].matchAll(COMMENT_PAIR)].map((m) => [c.index + m.index, m, true] as const));
  const inLines = [...text.matchAll(CONFIG_LINE)].map((m) => [m.index, m, false] as const);
  return [...inComments, ...inLines].flatMap(([index, m, comment]) => {
    const name = m[1]!;
    // Prose around a comment's value ends it; a config line's value is the whole rest of the line.
    const value = comment ? m[2]!.replace(/(?:\*\/)?[.,;)]*$/, '') : m[2]!;
    if (CODE_VALUE.test(value) || PLAIN_WORDS.test(value) || !looksSecret(name, value)) return [];
    // A name the text uses elsewhere is a variable: `password: userPassword` ends an object literal.
    if (/^[A-Za-z_$][\w$]*$/.test(value) && text.split(new RegExp(String.raw`(?<![\w$])${value.replace(/\$/g, '\\$')}(?![\w$])`)).length > 2) return [];
    const start = index + m[0].indexOf(m[2]!, m[0].indexOf(name) + name.length);
    return [{ start, end: start + value.length, kind: 'SECRET' }];
  });
}

/**
 * A long random token with no name to go by, like an AWS secret access key passed as an argument:
 * 32+ base64 characters of both cases and digits, at detect-secrets' base64 entropy limit (4.5; 4.4 here).
 */
const RANDOM_TOKEN = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{32,512}={0,2}(?![A-Za-z0-9+/=_-])/g;
const SEQUENCE = /abcdefgh|ABCDEFGH|01234567/;

function isRandomToken(s: string): boolean {
  return /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s) && !SEQUENCE.test(s) && entropy(s.replace(/=+$/, '')) >= 4.4;
}

function randomTokens(text: string): Finding[] {
  // An absolute path or a data: URL's payload is no token.
  return [...text.matchAll(RANDOM_TOKEN)].flatMap((m) => (isRandomToken(m[0]) && !m[0].startsWith('/') && !text.endsWith('base64,', m.index) ? [at(m.index, m[0], 'TOKEN')] : []));
}

/**
 * Passwords in the syntax of other languages and tools, found by what precedes them: SQL's
 * `WITH PASSWORD '…'` and `IDENTIFIED BY '…'`, `mysql -p…` (glued to the flag), a `--password=…`
 * flag, ADO.NET and Azure connection strings (`Password=…;`, `AccountKey=…;`,
 * `SharedAccessKey=…;`), session cookies (`sessionid=…`, `connect.sid=…`, `PHPSESSID=…`), and
 * an `<input type="password" value="…">` in JSX or HTML.
 */
const PRECEDED: readonly RegExp[] = [
  /\b(?:WITH\s+(?:ENCRYPTED\s+)?PASSWORD|IDENTIFIED\s+BY)\s+'((?:[^'\\\n]|\\.){4,200})'/gi,
  /(?<![\w-])mysql(?:dump|admin)?\b[^\n]*?\s-p(?!\s)([^\s'"\x60]{4,200})/g,
  /(?<![\w-])--?[\w-]*(?:passw(?:or)?d|passwd|pwd|passphrase|secret|token|api-?key)[\w-]*=([^\s'"\x60]{4,300})/gi,
  /\b(?:Password|Pwd|AccountKey|SharedAccessKey|SharedAccessSignature|ClientSecret)\s*=\s*([^;'"\x60\s]{3,300})/gi,
  /(?<![\w.-])(?:session(?:[_-]?id)?|sid|connect\.sid|PHPSESSID|JSESSIONID|ASP\.NET_SessionId|remember_token|auth[_-]?token)=([^;\s'"\x60,]{8,400})/gi,
  /<input\b[^>]*\btype=["']password["'][^>]*\b(?:defaultV|v)alue=(?:\{\s*)?["'\x60]([^"'\x60\n]{3,200})["'\x60]/g,
  /<input\b[^>]*\b(?:defaultV|v)alue=(?:\{\s*)?["'\x60]([^"'\x60\n]{3,200})["'\x60][^>]*\btype=["']password["']/g,
];

function precededSecrets(text: string): Finding[] {
  return PRECEDED.flatMap((pattern) => [...text.matchAll(pattern)].flatMap((m) => {
    const value = m[1]!.replace(/\s+$/, '');
    if (NOT_A_VALUE.test(value)) return [];
    return [at(m.index + m[0].lastIndexOf(m[1]!), value, 'PASSWORD')];
  }));
}

/**
 * A Twilio auth token: 32 hex digits with no prefix of their own, told from a hash (a git SHA, an
 * MD5 in code) by the account SID (`AC…`) the same text names.
 */
const TWILIO_SID = /\bAC[0-9a-fA-F]{32}\b/;
const HEX_32 = /(["'\x60])([0-9a-fA-F]{32})\1/g;

function twilioTokens(text: string): Finding[] {
  if (!TWILIO_SID.test(text)) return [];
  return [...text.matchAll(HEX_32)].map((m) => at(m.index + 1, m[2]!, 'TWILIO_TOKEN'));
}

/** The rules applied to the text itself; secretlint's come beside them. */
export const OWN_RULES: readonly SecretRule[] = [tokens, connectionStrings, authHeaders, quotedPairs, loosePairs, precededSecrets, randomTokens, twilioTokens];

function at(start: number, value: string, kind: string): Finding {
  return { start, end: start + value.length, kind };
}
