import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createLogger } from '../src/cli/createLogger.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { parseLlmOptions } from '../src/llm/llmOptions.ts';
import { LlmEnvironment } from '../src/llm/llmSession.ts';
import { selected } from './helpers.ts';
import { definition, startScriptedLlm } from './llmServer.ts';

/**
 * The secret formats of issues 15 (20) and 28 (26 more), each in a snippet whose missing element (`greet` unless the
 * row says otherwise) makes snipexec ask the LLM. Every row's secret must be absent from every
 * request body, from the --log-file log and from the --llm-cache files, in whole, in every 8-character
 * window and in base64; its requests must carry a REDACTED_ placeholder, so the secret really was
 * in a prompt. `anchor` is a name on the secret's line: seeing it proves the line was sent.
 */
interface Format {
  readonly name: string;
  readonly code: string;
  readonly secret: string;
  readonly anchor: string;
}

const PEM_BODY = [
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo',
].join('\n');
const ENV_TOKEN = 'plainish-value-42';

const FORMATS: readonly Format[] = [
  { name: 'AWS access key id', anchor: 'f01', secret: 'AKIAZ7V3Q9T4XW2LMN5P', code: "const f01 = 'AKIAZ7V3Q9T4XW2LMN5P';" },
  { name: 'AWS secret access key as a plain argument', anchor: 'f02', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', code: "const f02 = sign('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'GET /');" },
  { name: 'GitHub token', anchor: 'f03', secret: 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ1234567', code: "const f03 = { Authorization: 'token ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ1234567' };" },
  { name: 'OpenAI key', anchor: 'f04', secret: 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34', code: "const f04 = new OpenAI({ apiKey: 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34' });" },
  { name: 'Stripe key', anchor: 'f05', secret: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', code: "const f05 = stripe('sk_live_4eC39HqLyjWDarjtT1zdp7dc');" },
  { name: 'Slack token', anchor: 'f06', secret: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', code: "const f06 = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';" },
  { name: 'Google API key', anchor: 'f07', secret: 'AIzaSyD3f8Kq9Lm2Np7Rs4Tv6Wx1Yz0Ab5Cd8Ef', code: "const f07 = 'AIzaSyD3f8Kq9Lm2Np7Rs4Tv6Wx1Yz0Ab5Cd8Ef';" },
  { name: 'private key block', anchor: 'f08', secret: PEM_BODY, code: `const f08 = \`-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----\`;` },
  { name: 'JWT', anchor: 'f09', secret: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbi00MiJ9.x9Qp3LmR7vT2nW8kZ4yB6cD1fG5hJ0sA3eU', code: "const f09 = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbi00MiJ9.x9Qp3LmR7vT2nW8kZ4yB6cD1fG5hJ0sA3eU';" },
  { name: 'connection-string password', anchor: 'f10', secret: 'Zq7pL2vX9wKd', code: "const f10 = 'mongodb://app:Zq7pL2vX9wKd@db.internal:27017/app';" },
  { name: 'secret-named object key', anchor: 'f11', secret: 'q8Zr2LmT9xVb4Nc7Wd', code: "const f11 = { clientSecret: 'q8Zr2LmT9xVb4Nc7Wd' };" },
  { name: 'YAML key: value', anchor: 'f12', secret: '7fQ2kP9zR4mW8xL3', code: 'const f12 = `\nservice:\n  auth_token: 7fQ2kP9zR4mW8xL3\n  port: 8080\n`;' },
  { name: '.env line', anchor: 'f13', secret: 'whsec9aF3kL0pQ7zXv', code: 'const f13 = `\nPORT=3000\nSTRIPE_WEBHOOK_SECRET=whsec9aF3kL0pQ7zXv\n`;' },
  { name: 'secret-named environment variable value', anchor: 'f14', secret: ENV_TOKEN, code: `const f14 = '${ENV_TOKEN}';` },
  { name: 'Authorization: Basic in a curl -H line', anchor: 'f15', secret: 'YWRtaW46czNjcjN0LXB3ZA==', code: "// f15: curl -H 'Authorization: Basic YWRtaW46czNjcjN0LXB3ZA==' https://api.internal/v1" },
  { name: 'Authorization: Bearer header value', anchor: 'f16', secret: '4c1f9a7e2b8d6053e9a1', code: "const f16 = new Headers();\nf16.set('Authorization', 'Bearer 4c1f9a7e2b8d6053e9a1');" },
  { name: 'password in a comment', anchor: 'f17', secret: 'Tr0ub4dor&3x', code: 'let f17 = 0; // password: Tr0ub4dor&3x' },
  { name: 'secret split by string concatenation', anchor: 'f18', secret: 'sk-proj-T9xQ2mV7bLbL4nR8wZ1cK6yH3pQs5', code: "const f18 = 'sk-proj-T9xQ2mV7bL' +\n  'bL4nR8wZ1cK6yH3pQs5';" },
  { name: 'base64-encoded user:password', anchor: 'f19', secret: 'admin:hunter22-prod', code: "const f19 = decode('YWRtaW46aHVudGVyMjItcHJvZA==');" },
  { name: 'GitLab token (maintained rule set)', anchor: 'f20', secret: 'glpat-xY7kP2mQ9vR4tL8wN3zB', code: "const f20 = 'glpat-xY7kP2mQ9vR4tL8wN3zB';" },
  // Issue 28: formats and decoded forms the red team got through.
  { name: 'hex-encoded token', anchor: 'f21', secret: '676c7061742d4878376b50326d5139765234744c38774e337a51', code: "const f21 = Buffer.from('676c7061742d4878376b50326d5139765234744c38774e337a51', 'hex').toString();" },
  { name: 'unicode-escaped token', anchor: 'f22', secret: 'hp_Q4nd0mT0k3nV4lu3F0rT3st1ngXyZ1234567', code: "const f22 = '\\u0067hp_Q4nd0mT0k3nV4lu3F0rT3st1ngXyZ1234567';" },
  { name: 'token split by a line continuation', anchor: 'f23', secret: 'sk-proj-T9xQ2mV7bZ\nbL4nR8wZ1cK6yH3pQs6', code: "const f23 = 'sk-proj-T9xQ2mV7bZ\\\nbL4nR8wZ1cK6yH3pQs6';" },
  { name: 'SQL WITH PASSWORD', anchor: 'f24', secret: 'S3cr3t-Pa55w0rd', code: "const f24 = db.query(\"CREATE USER app WITH PASSWORD 'S3cr3t-Pa55w0rd'\");" },
  { name: 'mysql -p in a comment', anchor: 'f25', secret: 'Hunter2Prod9', code: 'let f25 = 1; // mysql -u root -pHunter2Prod9 shop' },
  { name: 'passphrase key', anchor: 'f26', secret: 'correct-horse-battery-9', code: "const f26 = { key: fs.readFileSync('k.pem'), passphrase: 'correct-horse-battery-9' };" },
  { name: 'nodemailer auth.pass', anchor: 'f27', secret: 'mailPw-99317', code: "const f27 = nodemailer.createTransport({ host: 'smtp.x.io', auth: { user: 'me@x.io', pass: 'mailPw-99317' } });" },
  { name: 'ADO.NET Password=', anchor: 'f28', secret: 'Adm1n!2024x', code: "const f28 = 'Server=db;Database=app;User Id=sa;Password=Adm1n!2024x;';" },
  { name: 'session cookie', anchor: 'f29', secret: 'q8e4f5ceea167a5a36dedd4bea2543zz', code: "const f29 = { Cookie: 'sessionid=q8e4f5ceea167a5a36dedd4bea2543zz; theme=dark' };" },
  { name: 'Mailgun key', anchor: 'f30', secret: 'key-8f14e45fceea167a5a36dedd4bea2543', code: "const f30 = mailgun('key-8f14e45fceea167a5a36dedd4bea2543');" },
  { name: 'Twilio auth token', anchor: 'f31', secret: 'c4ca4238a0b923820dcc509a6f75849b', code: "const f31 = twilio('AC1f0e3dad99908345f7439f8ffabdffc4', 'c4ca4238a0b923820dcc509a6f75849b');" },
  { name: 'password in a JSX value= attribute', anchor: 'f32', secret: 'letmein-77x', code: 'const f32 = <input type="password" value="letmein-77x" />;' },
  { name: 'Azure AccountKey=', anchor: 'f33', secret: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==', code: "const f33 = 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net';" },
  { name: 'pieces in separate variables', anchor: 'f34', secret: 'sk-proj-Q9xQ2mV7bL\nbL4nR8wZ1cK6yH3pQs7', code: "const f34a = 'sk-proj-Q9xQ2mV7bL';\nconst f34b = 'bL4nR8wZ1cK6yH3pQs7';\nconst f34 = new OpenAI({ apiKey: f34a + f34b });" },
  { name: 'Buffer.from of a base64 secret', anchor: 'f35', secret: 'UHIwZCFwdyMyMDI0eA==', code: "const f35 = Buffer.from('UHIwZCFwdyMyMDI0eA==', 'base64').toString();" },
  { name: 'hex-escaped token', anchor: 'f36', secret: 'k_live_4eC39HqLyjWDarjtT1zdp7dX', code: "const f36 = stripe('\\x73k_live_4eC39HqLyjWDarjtT1zdp7dX');" },
  { name: 'hex-encoded user:password', anchor: 'f37', secret: '61646d696e3a68756e74657232322d70726f64', code: "const f37 = Buffer.from('61646d696e3a68756e74657232322d70726f64', 'hex');" },
  { name: 'SQL IDENTIFIED BY', anchor: 'f38', secret: 'Mysq1-Pw-2024', code: "const f38 = \"ALTER USER 'app'@'%' IDENTIFIED BY 'Mysq1-Pw-2024'\";" },
  { name: 'a --password= flag in an argument list', anchor: 'f39', secret: 'Sup3rS3cret9', code: "const f39 = spawn('deploy', ['--password=Sup3rS3cret9']);" },
  { name: 'connect.sid cookie', anchor: 'f40', secret: 's%3AabcDEF123456.Xyz789qwertyUIOP', code: "const f40 = 'connect.sid=s%3AabcDEF123456.Xyz789qwertyUIOP; Path=/';" },
  { name: 'atob of a base64 secret', anchor: 'f41', secret: 'c2VjcmV0UGFzcyE5OTI=', code: "const f41 = atob('c2VjcmV0UGFzcyE5OTI=');" },
  { name: 'escaped AWS key in a template', anchor: 'f42', secret: 'KIAZ7V3Q9T4XW2LMN5Q', code: 'const f42 = `\\u0041KIAZ7V3Q9T4XW2LMN5Q`;' },
  { name: 'Azure SharedAccessKey=', anchor: 'f43', secret: '9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8=', code: "const f43 = 'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8=';" },
  { name: 'PHPSESSID cookie', anchor: 'f44', secret: 'el4ukv0kqbvoirg7nkp4dncpk3', code: "const f44 = fetch(url, { headers: { cookie: 'PHPSESSID=el4ukv0kqbvoirg7nkp4dncpk3' } });" },
  { name: 'JSX defaultValue before type=password', anchor: 'f45', secret: 'hunter2-jsx', code: 'const f45 = <input defaultValue="hunter2-jsx" type="password" />;' },
  { name: 'escaped token split over lines and pieces', anchor: 'f46', secret: 'ghp_W4nd0mT0k3nV4lu3F0rT3st1ngXyZ1234567', code: "const f46 = ['ghp_W4nd0mT0k3nV4lu3F0', 'rT3st1ngXyZ1234567'].join('');" },
];

const tmp = mkdtempSync(join(tmpdir(), 'snipexec-redact-'));
const cacheDir = join(tmp, 'cache');
const logFile = join(tmp, 'llm.log');
let server: Awaited<ReturnType<typeof startScriptedLlm>>;
let llm: LlmEnvironment;

before(async () => {
  // Any element becomes a function, so every snippet completes after one request per element.
  server = await startScriptedLlm(() => ({ reply: definition("ELEMENT = function (...args) { return 'ok:' + args.length; };") }));
  const options = parseLlmOptions({ baseURL: server.url, apiKey: 'test-key', model: 'scripted', retryMinDelayMs: 5, retryMaxDelayMs: 2_000, requestTimeoutMs: 5_000, cacheDir, logFile });
  llm = new LlmEnvironment(options, { env: { DEPLOY_TOKEN: ENV_TOKEN, HOME: '/home/me' }, logger: createLogger(options) });
});
after(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The secret, each of its 8-character windows (one line at a time), and its base64 form. */
function needles(secret: string): string[] {
  const windows = secret.split('\n').flatMap((line) => Array.from({ length: Math.max(0, line.length - 7) }, (_, i) => line.slice(i, i + 8)));
  const forms = [secret, ...windows, Buffer.from(secret).toString('base64').replace(/=+$/, '')];
  // Requests, log and cache are JSON: a needle may appear there escaped.
  return [...new Set(forms.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))];
}

/** Text without the separators a secret may be spelled out with. */
function squeezed(text: string): string {
  return text.replace(/\\[nrt]|[\s\-_.,:;|/\\'"`+]/g, '');
}

for (const f of selected(FORMATS)) {
  test(`redact formats: ${f.name}`, async () => {
    const first = server.requests.length;
    const r = await runSnippet(`${f.code}\nconsole.log(greet('Ada'));`, { mode: 'llm' }, { llm });
    const mine = server.requests.slice(first);
    assert.ok(mine.length > 0, 'the snippet asked the LLM');
    assert.ok(mine.some((q) => q.prompt.includes(f.anchor)), `the secret's line was sent: ${JSON.stringify(r.errors)}`);
    const haystacks: [where: string, text: string][] = [
      ...server.requests.map((q, i): [string, string] => [`request ${i}`, q.raw]),
      ['--log-file', readFileSync(logFile, 'utf8')],
      ...filesUnder(cacheDir).map((p): [string, string] => [`--llm-cache ${p}`, readFileSync(p, 'utf8')]),
    ];
    for (const needle of needles(f.secret)) {
      for (const [where, text] of haystacks) assert.ok(!text.includes(needle), `${JSON.stringify(needle)} of the secret is in the ${where}`);
    }
    // Nor spelled out with separators between its characters.
    for (const [where, text] of haystacks) for (const line of f.secret.split('\n')) assert.ok(!squeezed(text).includes(squeezed(line)), `the secret, spaced out, is in the ${where}`);
    assert.ok(mine.some((q) => q.prompt.includes('REDACTED_')), 'a placeholder took the secret\'s place');
  });
}

test('redact formats: a hostile endpoint that makes a definition throw a secret it was sent, spaced out, gets no secret back in the fix prompt', async () => {
  const secret = 'ghp_S4nd0mT0k3nV4lu3F0rT3st1ngXyZ7654321';
  let thrown = false;
  const hostile = await startScriptedLlm((q) => {
    const placeholder = /REDACTED_[A-Z_]+_\d+/.exec(q.prompt)?.[0];
    if (!thrown && placeholder !== undefined && q.kind === 'generator') {
      thrown = true;
      // Restored on the host into the real secret, which then runs in the isolate and is thrown one character at a time.
      return { reply: definition(`ELEMENT = function () { throw new Error("${placeholder}".split("").join(" ")); };`) };
    }
    return { reply: definition("ELEMENT = function (...args) { return 'ok:' + args.length; };") };
  });
  try {
    const options = parseLlmOptions({ baseURL: hostile.url, apiKey: 'test-key', model: 'scripted', retryMinDelayMs: 5, retryMaxDelayMs: 2_000, requestTimeoutMs: 5_000 });
    const env = new LlmEnvironment(options, { env: {} });
    await runSnippet(`const token = '${secret}';\nconsole.log(greet(token));`, { mode: 'llm' }, { llm: env });
    assert.ok(thrown, 'the hostile definition was sent');
    assert.ok(hostile.requests.length >= 2, 'a fix prompt followed');
    const spaced = [...secret].join(' ');
    for (const [i, q] of hostile.requests.entries()) {
      assert.ok(!q.raw.includes(spaced) && !squeezed(q.raw).includes(squeezed(secret)), `request ${i} carries the secret back: ${q.prompt.slice(0, 300)}`);
    }
  } finally {
    await hostile.close();
  }
});
