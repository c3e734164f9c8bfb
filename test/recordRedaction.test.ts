import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { recordProgram } from '../src/record/recordProgram.ts';
import { argvSecrets, SecretScanner } from '../src/record/redactEnvValues.ts';
import { generateTests } from '../src/testgen/generateTests.ts';
import { readTrace } from '../src/testgen/readTrace.ts';
import { selected } from './helpers.ts';

/**
 * `record` writes what a program's own functions were called with. A secret reaches those calls in
 * the forms the program derives from it: each form below is passed to a function of the program,
 * and neither the trace nor the tests generated from it may hold the secret in any of its forms.
 */
const TOKEN = 'tok-9f8e7d6c5b4a-Qx';
const ARGV_PASSWORD = 'hunter22-argv';
const ARGV_TOKEN = 'argvtok-77xQ';

interface DerivedCase {
  readonly name: string;
  /** An expression of the program, from `secret` (the environment value or an argv value). */
  readonly expr: string;
  /** The text that must appear in neither file. */
  readonly form: (secret: string) => string;
  readonly from: 'env' | 'argv-password' | 'argv-token';
}

const source = { env: 'process.env.API_TOKEN', 'argv-password': "process.argv[2].split('=')[1]", 'argv-token': 'process.argv[4]' } as const;
const value = { env: TOKEN, 'argv-password': ARGV_PASSWORD, 'argv-token': ARGV_TOKEN } as const;

const CASES: readonly DerivedCase[] = [
  { name: 'the value itself', expr: 'secret', form: (s) => s, from: 'env' },
  { name: 'base64', expr: "Buffer.from(secret).toString('base64')", form: (s) => Buffer.from(s).toString('base64'), from: 'env' },
  { name: 'base64url', expr: "Buffer.from(secret).toString('base64url')", form: (s) => Buffer.from(s).toString('base64url'), from: 'env' },
  { name: 'hex', expr: "Buffer.from(secret).toString('hex')", form: (s) => Buffer.from(s).toString('hex'), from: 'env' },
  { name: 'upper-case hex', expr: "Buffer.from(secret).toString('hex').toUpperCase()", form: (s) => Buffer.from(s).toString('hex').toUpperCase(), from: 'env' },
  { name: 'spaced out', expr: "secret.split('').join(' ')", form: (s) => s.split('').join(' '), from: 'env' },
  { name: 'dashed out', expr: "secret.split('').join('-')", form: (s) => s.split('').join('-'), from: 'env' },
  { name: 'a byte array', expr: '[...Buffer.from(secret)]', form: (s) => [...Buffer.from(s)].join(','), from: 'env' },
  { name: 'URL-encoded in a query', expr: "'https://api.example/x?k=' + encodeURIComponent(secret)", form: (s) => encodeURIComponent(s), from: 'env' },
  { name: 'inside an Authorization header', expr: "({ headers: { authorization: 'Bearer ' + secret } })", form: (s) => s, from: 'env' },
  { name: 'a --password= argv value', expr: 'secret', form: (s) => s, from: 'argv-password' },
  { name: 'a --token argv value, as the next argument', expr: 'secret', form: (s) => s, from: 'argv-token' },
  { name: 'an argv value in base64', expr: "Buffer.from(secret).toString('base64')", form: (s) => Buffer.from(s).toString('base64'), from: 'argv-password' },
];

const work = mkdtempSync(join(tmpdir(), 'snipexec-record-redaction-'));
after(() => rmSync(work, { recursive: true, force: true }));

for (const c of selected(CASES)) {
  test(`record redaction: ${c.name}`, { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(work, 'p-'));
    const program = join(dir, 'app.js');
    // A second call with a plain value gives a generated test, so the test files are read too.
    writeFileSync(program, `function use(x) { return typeof x === 'string' ? x.length : JSON.stringify(x).length; }\nconst secret = ${source[c.from]};\nconsole.log(use(${c.expr}), use('plain-value'));\n`);
    const args = [`--password=${ARGV_PASSWORD}`, '--token', ARGV_TOKEN];
    const run = await recordProgram(program, args, { env: { ...process.env, API_TOKEN: TOKEN }, stdio: 'ignore' });
    assert.equal(run.exitCode, 0);
    const trace = readTrace(run.tracePath);
    assert.ok(trace.calls.some((call) => call.qualname === 'use'), 'the call was recorded');
    const outDir = join(dir, 'tests');
    generateTests(trace, { traceDir: dirname(run.tracePath), outDir });
    // A call holding a redacted value is skipped, so the tests may be none at all.
    const files = [run.tracePath, ...(existsSync(outDir) ? readdirSync(outDir).map((f) => join(outDir, f)) : [])];
    assert.ok(files.some((f) => f.endsWith('.test.mjs')), `a test was generated: ${files.join(', ')}`);
    const form = c.form(value[c.from]);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of [form, value.env, value['argv-password'], value['argv-token']]) assert.ok(!text.includes(secret), `${JSON.stringify(secret)} is in ${file}`);
    }
    const [password, flag, token] = trace.argv;
    assert.match(password ?? '', /^--password=./, 'the flag stays, its value is redacted');
    assert.equal(flag, '--token');
    assert.equal(token, password?.slice('--password='.length), 'the next argument of a secret flag is redacted the same');
  });
}

test('record redaction: secret-named flags, with = or as the next argument; other flags stay', () => {
  assert.deepEqual(argvSecrets(['--password=a1b2c3', '--token', 'tkn-123', '--api-key=k-9', '--db-pass', 'pw-4', '--verbose', '--name', 'shop', '-p', '8080']), ['a1b2c3', 'tkn-123', 'k-9', 'pw-4']);
  const scanner = new SecretScanner({}, ['--secret', 's3cr3t-value']);
  assert.deepEqual(scanner.redactArgv(['--secret', 's3cr3t-value', '--port', '80'], 'X'), ['--secret', 'X', '--port', '80']);
  assert.equal(scanner.isSecret('prefix ' + Buffer.from('s3cr3t-value').toString('hex')), true);
  assert.equal(scanner.isSecret('shop'), false);
});
