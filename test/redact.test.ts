import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SecretRedactor } from '../src/llm/redactSecrets.ts';
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
];

// Text that must come through unchanged.
const KEPT = [
  { name: 'a key that is a plain word', text: "const key = 'username';" },
  { name: 'an ordinary string', text: "const greeting = 'Hello, world 12345';" },
  { name: 'a URL without password', text: "fetch('https://user@example.com/api/v1/items')" },
  { name: 'a token-named short value', text: "const token = 'abc';" },
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
