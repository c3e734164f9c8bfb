import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SecretRedactor } from '../src/llm/redactSecrets.ts';
import { numberedSnippet } from '../src/values/llm/buildPrompts.ts';
import { selected } from './helpers.ts';

// Each case: text in, the secret that must be gone, the placeholder kind that replaces it.
const SECRETS = [
  { name: 'AWS access key', text: "const id = 'AKIAIOSFODNN7EXAMPLE';", secret: 'AKIAIOSFODNN7EXAMPLE', kind: 'AWS_KEY' },
  { name: 'GitHub token', text: 'fetch(u, { headers: { Authorization: "token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789" } })', secret: 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', kind: 'GITHUB_TOKEN' },
  { name: 'GitHub fine-grained token', text: 'const t = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz";', secret: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', kind: 'GITHUB_TOKEN' },
  { name: 'OpenAI key', text: 'new OpenAI({ apiKey: "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34" })', secret: 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34', kind: 'OPENAI_KEY' },
  { name: 'private key', text: 'const pem = `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----`;', secret: 'MIIEowIBAAKCAQEA7', kind: 'PRIVATE_KEY' },
  { name: 'JWT', text: "const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';", secret: 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', kind: 'JWT' },
  { name: 'connection string password', text: "mongoose.connect('mongodb://app:hunter22@localhost:27017/db')", secret: 'hunter22', kind: 'PASSWORD' },
  { name: 'high-entropy value of a secret name', text: "const clientSecret = 'q8Zr2LmT9xVb4Nc7';", secret: 'q8Zr2LmT9xVb4Nc7', kind: 'SECRET' },
  { name: 'password of any entropy', text: '{ "password": "letmein" }', secret: 'letmein', kind: 'SECRET' },
  { name: '.env line', text: 'STRIPE_WEBHOOK_SECRET=whsec9aF3kL0pQ7zX\nPORT=3000', secret: 'whsec9aF3kL0pQ7zX', kind: 'SECRET' },
  { name: '.env line after a line number', text: '   3 | STRIPE_WEBHOOK_SECRET=whsec9aF3kL0pQ7zX\n>> 4 | PORT=3000', secret: 'whsec9aF3kL0pQ7zX', kind: 'SECRET' },
  { name: 'YAML key: value', text: 'service:\n  auth_token: 7fQ2kP9zR4mW8xL3\n  port: 8080', secret: '7fQ2kP9zR4mW8xL3', kind: 'SECRET' },
  { name: 'a fallback after ||', text: "const token = process.env.TOKEN || 'dev-9f8e7d6c5b4a';", secret: 'dev-9f8e7d6c5b4a', kind: 'SECRET' },
  { name: 'Bearer in a curl -H line', text: 'curl -H "Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c" https://api.internal/v1', secret: '9f8e7d6c5b4a3f2e1d0c', kind: 'AUTH_HEADER' },
  { name: 'Bearer as a header argument', text: "headers.set('Authorization', 'Bearer 9f8e7d6c5b4a3f2e1d0c');", secret: '9f8e7d6c5b4a3f2e1d0c', kind: 'AUTH_HEADER' },
  { name: 'Bearer in an object literal', text: "fetch(u, { headers: { Authorization: 'Bearer 9f8e7d6c5b4a3f2e1d0c' } })", secret: '9f8e7d6c5b4a3f2e1d0c', kind: 'AUTH_HEADER' },
  { name: 'Basic credentials in a header string', text: "xhr.setRequestHeader('x', 'Authorization: Basic dXNlcjpodW50ZXIy');", secret: 'dXNlcjpodW50ZXIy', kind: 'AUTH_HEADER' },
  { name: 'AWS secret access key as a plain argument', text: "const sig = sign('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', req);", secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', kind: 'TOKEN' },
  { name: 'password in a line comment', text: 'connect(); // password: Tr0ub4dor&3x', secret: 'Tr0ub4dor&3x', kind: 'SECRET' },
  { name: 'password in a block comment', text: 'connect(/* pwd=s3cr3t-Pw */);', secret: 's3cr3t-Pw', kind: 'SECRET' },
  { name: 'password in a # comment', text: '# db password is hunter22\nPORT=3000', secret: 'hunter22', kind: 'SECRET' },
  { name: 'secret split by +', text: "const base = 'sk-proj-T9xQ2mV7bL' +\n  'bL4nR8wZ1cK6yH3pQs5';", secret: 'bL4nR8wZ1cK6yH3pQs5', kind: 'SPLIT_SECRET' },
  { name: 'secret split into template pieces', text: "const k = `sk-proj-${'T9xQ2mV7bL'}bL4nR8wZ1cK6yH3pQs5`;", secret: 'T9xQ2mV7bL', kind: 'SPLIT_SECRET' },
  { name: 'secret split into a joined array', text: "const k = ['sk-proj-T9xQ2mV7bL', 'bL4nR8wZ1cK6yH3pQs5'].join('');", secret: 'T9xQ2mV7bL', kind: 'SPLIT_SECRET' },
  { name: 'base64 of user:password', text: "const c = Buffer.from('YWRtaW46aHVudGVyMjItcHJvZA==', 'base64');", secret: 'YWRtaW46aHVudGVyMjItcHJvZA==', kind: 'ENCODED_SECRET' },
  { name: 'base64 of a token', text: `const t = atob('${btoa('AKIAZ7V3Q9T4XW2LMN5P')}');`, secret: btoa('AKIAZ7V3Q9T4XW2LMN5P'), kind: 'ENCODED_SECRET' },
  { name: 'GitLab token (secretlint)', text: "gitlab.auth('glpat-xY7kP2mQ9vR4tL8wN3zB');", secret: 'glpat-xY7kP2mQ9vR4tL8wN3zB', kind: 'GITLAB' },
];

// Text that must come through unchanged.
const KEPT = [
  { name: 'a key that is a plain word', text: "const key = 'username';" },
  { name: 'an ordinary string', text: "const greeting = 'Hello, world 12345';" },
  { name: 'a URL without password', text: "fetch('https://user@example.com/api/v1/items')" },
  { name: 'a token-named short value', text: "const token = 'abc';" },
  { name: 'a header read, no literal', text: 'const token = req.headers.authorization;' },
  { name: 'a password compared, not given', text: "if (password.length < 8) throw new Error('password too short');" },
  { name: 'plain-word values of key names', text: "const opts = { key: 'name', type: 'string' };" },
  { name: 'a Bearer header built from a variable', text: "headers.set('Authorization', 'Bearer ' + token);" },
  { name: 'a key read from the environment', text: "const apiKey = process.env.API_KEY;\nconsumer_key: process.env['TWITTER_CONSUMER_KEY']," },
  { name: 'TypeScript types of secret-named fields', text: 'interface User {\n  password: string;\n  token?: string\n}' },
  { name: 'a comment about passwords', text: '// the password must be at least 8 characters\n# password is required' },
  { name: 'prose about auth schemes', text: 'Use HTTP Basic authentication or a Bearer token.' },
  { name: 'a git SHA', text: "const sha = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';" },
  { name: 'a member copied, not a literal', text: 'request.withCredentials = !!config.withCredentials;\ntoken = tokens[i];' },
  { name: 'base64 of plain text', text: "const hello = 'aGVsbG8gd29ybGQgYW5kIG1vcmU=';" },
  { name: 'an alphabet for random ids', text: "const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';" },
  { name: 'a query string built around a variable', text: "path: apiPath + '?access_token=' + accessToken, // e.g. '/me/friends'" },
  { name: 'a path and a URL under secret-looking names', text: "var serverKey = require('/Users/john/Apps/node/mhn-app-firebase-adminsdk-bs45c-5ac3770488.json');\nconst siteSignApi = 'http://example.com/api/siteSign';" },
  { name: 'PEM markers stripped in code', text: "const body = pem.replace('-----BEGIN RSA PRIVATE KEY-----', '').replace('-----END RSA PRIVATE KEY-----', '');" },
  { name: 'an object literal ending in a variable', text: 'const userPassword = read();\nconst o = {\n  password: userPassword\n};' },
  { name: 'numbered ordinary code', text: '   1 | const total = price * qty;\n>> 2 | console.log(total.toFixed(2));' },
];

for (const c of selected(SECRETS)) {
  test(`redact: ${c.name}`, () => {
    const r = new SecretRedactor();
    const out = r.redact(c.text);
    assert.ok(!out.includes(c.secret), out);
    assert.match(out, new RegExp(`REDACTED_${c.kind}_1`));
    assert.equal(r.restore(out), c.text, 'the snippet\'s own secret is restored in replies, on the host');
  });
}

for (const c of selected(KEPT)) {
  test(`redact: keeps ${c.name}`, () => {
    assert.equal(new SecretRedactor().redact(c.text), c.text);
  });
}

test('redact: values of secret-named environment variables, wherever they occur, and never restored', () => {
  const r = new SecretRedactor({ DEPLOY_TOKEN: 'plainish-value-42', GITHUB_API_URL: 'x', EDITOR: 'vim-editor-x', DB_PASSWORD: 'correct horse' });
  const out = r.redact('const a = "plainish-value-42"; // also correct horse; vim-editor-x');
  assert.ok(!out.includes('plainish-value-42') && !out.includes('correct horse'), out);
  assert.ok(out.includes('vim-editor-x'), 'EDITOR is not a secret name');
  assert.equal(r.restore(out), out, 'host environment values never go back into a reply');
});

test('redact: one secret, one placeholder, in every prompt of the snippet', () => {
  const r = new SecretRedactor();
  const a = r.redact("k = 'AKIAIOSFODNN7EXAMPLE'");
  const b = r.redact("error: invalid key AKIAIOSFODNN7EXAMPLE; other AKIAJ00000000000EXAM");
  assert.equal(a, "k = 'REDACTED_AWS_KEY_1'");
  assert.equal(b, 'error: invalid key REDACTED_AWS_KEY_1; other REDACTED_AWS_KEY_2');
});

test('redact: redacting again changes nothing, and numbering lines after redaction keeps the placeholders', () => {
  for (const c of SECRETS.filter((c) => !c.text.includes(' | '))) {
    const r = new SecretRedactor();
    const once = r.redact(c.text);
    assert.equal(r.redact(once), once, c.name);
    const numbered = numberedSnippet(once, 1);
    assert.equal(r.redact(numbered), numbered, `${c.name}: numbered after redaction`);
    assert.equal(r.redact(numberedSnippet(c.text, 1)), numbered, `${c.name}: numbered before redaction, the same placeholders`);
  }
});
