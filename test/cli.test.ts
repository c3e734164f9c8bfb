import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from './helpers.ts';

test('cli: the README example completes fully executed, with an injection for splitPair', () => {
  const r = cli(['run', '-', '--json'], 'const [first, second] = splitPair("left-right");\nconsole.log(first.toUpperCase(), second.length);\n');
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, '--json prints exactly one object');
  const result = JSON.parse(lines[0] ?? '{}');
  assert.equal(result.status, 'completed');
  assert.equal(result.fullyExecuted, true);
  assert.ok(result.injections.some((i: { element: string }) => i.element === 'splitPair'));
  // trace is the default: the pair's parts are strings, learnt from toUpperCase and length.
  assert.match(result.stdout, /^[A-Z ]+ \d+\n$/);
  const dummy = JSON.parse(cli(['run', '-', '--json', '--mode', 'dummy'], 'const [first, second] = splitPair("left-right");\nconsole.log(first.toUpperCase(), second.length);\n').stdout);
  assert.equal(dummy.fullyExecuted, true);
  assert.equal(dummy.stdout, 'STR 3\n');
});

test('cli: human output marks lines and --emit writes a program that runs with mode none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-'));
  const out = join(dir, 'done.js');
  // Without environments: with them, the server environment's listen calls the callback back, as Express's does.
  const dummy = cli(['run', 'examples/express-hello.js', '--mode', 'dummy', '--no-environments', '--no-drive']);
  assert.equal(dummy.code, 0, dummy.stderr);
  assert.match(dummy.stdout, /✓ +3 \| const app = express\(\);/);
  assert.match(dummy.stdout, /✗ +9 \| {3}console\.log/, 'dummies do not call callbacks');
  assert.match(dummy.stdout, /injected definitions/);
  const traced = cli(['run', 'examples/express-hello.js']);
  assert.equal(traced.code, 0, traced.stderr);
  assert.match(traced.stdout, /✓ +9 \| {3}console\.log/, 'trace mode runs the listen callback');
  assert.match(traced.stdout, /listening on 3000/, 'PORT is a port number by its name');
  const r = cli(['run', 'examples/split-pair.js', '--emit', out]);
  assert.equal(r.code, 0, r.stderr);
  const again = JSON.parse(cli(['run', out, '--json', '--mode', 'none', '--no-drive']).stdout);
  assert.equal(again.fullyExecuted, true);
  assert.deepEqual(again.injections, []);
});

test('cli: --types prints declarations inferred for the injected elements', () => {
  const r = cli(['run', '-', '--types'], 'const { data: { items } } = await axios.get(u);\nitems.forEach(i => console.log(i.name.trim(), i.count > 2));\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /declare const axios: \{ get: \(\.\.\.args: any\[\]\) => Promise<\{ data: \{ items: \{ name: string; count: number \}\[\] \} \}> \};/);
  const json = JSON.parse(cli(['run', '-', '--json', '--types'], 'console.log(items.length > 2);\n').stdout);
  assert.match(json.types, /declare const items: /);
});

test('cli: usage errors exit 2', () => {
  assert.equal(cli(['run', '--mode', 'nonsense', '-'], '1').code, 2);
  assert.equal(cli(['run', '/no/such/file.js']).code, 2);
});

test('cli: batch writes a result per snippet and --resume finishes without redoing any', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-'));
  const data = join(dir, 'd.jsonl');
  const out = join(dir, 'r.jsonl');
  const rows = Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: `s${i}`, code: i === 3 ? 'const = ;' : `console.log(thing${i}.name);` }));
  writeFileSync(data, rows.join('\n') + '\n');
  const first = cli(['batch', data, '--out', out, '--limit', '3', '--json']);
  assert.equal(first.code, 0, first.stderr);
  // a batch killed mid-write leaves a cut line; resume must drop it and redo that snippet only
  writeFileSync(out, readFileSync(out, 'utf8') + '{"id":"s3","sta');
  const second = cli(['batch', data, '--out', out, '--resume', '--json']);
  assert.equal(second.code, 0, second.stderr);
  const ids = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l).id);
  assert.deepEqual([...ids].sort(), ['s0', 's1', 's2', 's3', 's4', 's5']);
  const summary = JSON.parse(second.stdout);
  assert.equal(summary.snippets, 6);
  assert.equal(summary.statusCounts['syntax-error'], 1);
});

test("cli: the human report lists drive's calls, with their arguments and outcomes, and marks an error a driven call raised", () => {
  const r = cli(['run', '-'], "'use strict';\nfunction greet(user) {\n  console.log('hi ' + user.name);\n}\nfunction show() {\n  return this.x;\n}\n");
  assert.equal(r.code, 1, 'the driven call that threw stopped the run: ' + r.stderr);
  assert.match(r.stdout, /called by drive \(defined, never called; --no-drive runs the code as written\)\n {2}2: greet\(_greet_arg0\) {2}→ returned\n {2}5: show\(\) {2}→ threw TypeError: Cannot read properties of undefined \(reading 'x'\)\n/);
  assert.match(r.stdout, /6:15 TypeError: Cannot read properties of undefined \(reading 'x'\) {2}\[snippet, in drive's call of show\]/);
  const off = cli(['run', '-', '--no-drive'], "function greet(user) {\n  console.log('hi ' + user.name);\n}\n");
  assert.doesNotMatch(off.stdout, /called by drive/);
  assert.match(off.stdout, /✗ 2 \|/);
});
