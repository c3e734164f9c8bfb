import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseUnifiedDiff } from '../src/diff/gitChanges.ts';
import { cli, gitRepo } from './helpers.ts';
import { sarifErrors } from './sarifSchema.ts';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const PAD = [
  'function pad(count) {',
  "  return String(count).padStart(3, '0');",
  '}',
  '',
  'function untouched(x) {',
  '  return x.foo.bar;',
  '}',
  '',
  'console.log(pad(7));',
  '',
].join('\n');

const repo = (files: Record<string, string>): string => gitRepo(files);

function diffCli(dir: string, args: string[]) {
  return cli(['diff', ...args], undefined, 120_000, process.env, dir);
}

test('diff: a change to count.padStart is reported at that line as a TypeError, exit 1; the untouched function is not run', () => {
  const dir = repo({ 'pad.js': PAD });
  writeFileSync(join(dir, 'pad.js'), PAD.replace("String(count).padStart(3, '0')", "count.padStart(3, '0')"));
  const r = diffCli(dir, ['--json']);
  assert.equal(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout) as { findings: { file: string; line: number; type: string; function: string; confidence: number }[]; fragments: { function: string }[] };
  assert.equal(report.findings.length, 1);
  assert.deepEqual([report.findings[0]!.file, report.findings[0]!.line, report.findings[0]!.type, report.findings[0]!.function], ['pad.js', 2, 'TypeError', 'pad']);
  assert.ok(report.findings[0]!.confidence >= 0.8);
  assert.deepEqual(report.fragments.map((f) => f.function), ['pad'], 'only the changed function ran');
});

test('diff: a clean change reports nothing and exits 0', () => {
  const dir = repo({ 'pad.js': PAD });
  writeFileSync(join(dir, 'pad.js'), PAD.replace("padStart(3, '0')", 'padStart(4, "0")'));
  const r = diffCli(dir, []);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /no runtime type errors in the changed code/);
  assert.match(r.stdout, /pad\.js:1-3 pad \(function, changed 2\)/);
});

test('diff: a change whose missing values can all be synthesised reports nothing', () => {
  const code = 'function show(user) {\n  return user.profile.name.toUpperCase();\n}\n';
  const dir = repo({ 'show.js': code });
  writeFileSync(join(dir, 'show.js'), code.replace('toUpperCase()', 'toUpperCase().trim()'));
  const r = diffCli(dir, ['--json']);
  assert.equal(r.code, 0, r.stdout);
  assert.deepEqual((JSON.parse(r.stdout) as { findings: unknown[] }).findings, []);
});

test('diff: --sarif writes SARIF 2.1.0 with the finding, valid against the OASIS schema, trackable by its fingerprints', () => {
  const dir = repo({ 'pad.js': PAD });
  writeFileSync(join(dir, 'pad.js'), PAD.replace("String(count).padStart(3, '0')", "count.padStart(3, '0')"));
  const sarifPath = join(dir, 'out.sarif');
  const r = diffCli(dir, ['--sarif', sarifPath]);
  assert.equal(r.code, 1);
  const sarif = JSON.parse(readFileSync(sarifPath, 'utf8')) as {
    version: string; $schema: string;
    runs: {
      tool: { driver: { name: string; rules: { id: string }[] } };
      invocations: { executionSuccessful: boolean; exitCode: number }[];
      results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; partialFingerprints: Record<string, string>; locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } } }[] }[];
    }[];
  };
  assert.deepEqual(sarifErrors(sarif), []);
  assert.equal(sarif.version, '2.1.0');
  assert.match(sarif.$schema, /sarif-schema-2\.1\.0\.json$/);
  const run = sarif.runs[0]!;
  assert.equal(run.tool.driver.name, 'snipexec');
  const result = run.results[0]!;
  assert.equal(result.ruleId, run.tool.driver.rules[result.ruleIndex]!.id, 'the result names a declared rule, by id and by index');
  assert.match(result.partialFingerprints.primaryLocationLineHash ?? '', /^[0-9a-f]+:1$/);
  assert.deepEqual([run.invocations[0]!.executionSuccessful, run.invocations[0]!.exitCode], [true, 1]);
  assert.equal(result.locations[0]!.physicalLocation.artifactLocation.uriBaseId, '%SRCROOT%');
  assert.match(result.message.text, /^TypeError: /);
  assert.deepEqual(result.locations[0]!.physicalLocation.artifactLocation.uri, 'pad.js');
  assert.equal(result.locations[0]!.physicalLocation.region.startLine, 2);
  assert.ok(result.locations[0]!.physicalLocation.region.startColumn >= 1);
});

test('diff: a type error the changed code catches itself is reported, marked caught, with the message node gives', () => {
  const code = "const DEFAULTS = { server: { port: 8080 } };\nfunction port() {\n  try {\n    return DEFAULTS.server.port.toFixed(0);\n  } catch (e) {\n    return '80';\n  }\n}\nconsole.log(port());\n";
  const dir = repo({ 'conf.js': code });
  writeFileSync(join(dir, 'conf.js'), code.replace('{ server: { port: 8080 } }', '{ port: 8080 }'));
  const r = diffCli(dir, ['--json']);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const findings = (JSON.parse(r.stdout) as { findings: { line: number; type: string; message: string; caught?: boolean }[] }).findings;
  assert.deepEqual(findings.map((f) => [f.line, f.type, f.message, f.caught]), [[4, 'TypeError', "Cannot read properties of undefined (reading 'port')", true]]);
  assert.match(diffCli(dir, []).stdout, /conf\.js:4:\d+ TypeError: Cannot read properties of undefined \(reading 'port'\) \(caught by the code\)/);
});

test('diff: outside a git repository, or with an unknown BASE, it is a usage error (exit 2)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-nogit-'));
  dirs.push(dir);
  const r = diffCli(dir, []);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is not a commit in a git repository .*\[DIFF_FAILED\]/);
  const inRepo = diffCli(repo({ 'a.js': 'x;\n' }), ['no-such-ref']);
  assert.equal(inRepo.code, 2);
});

test('diff: unified diff parsing: added, changed and deleted lines, new and removed files', () => {
  const files = parseUnifiedDiff([
    'diff --git a/a.js b/a.js', '--- a/a.js', '+++ b/a.js', '@@ -3 +3 @@', '-x', '+y', '@@ -10,2 +10,0 @@', '-gone', '-gone',
    '@@ -20,0 +19,3 @@', '+n1', '+n2', '+n3',
    'diff --git a/old.js b/old.js', '--- a/old.js', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-a', '-b',
  ].join('\n'));
  assert.deepEqual(files.map((f) => [f.path, [...f.lines].sort((a, b) => a - b)]), [['a.js', [3, 11, 19, 20, 21]]]);
});

test('diff: an error raised in a call drive made (a nested method called plainly, as a lost this) is no finding', () => {
  const code = "'use strict';\nfunction makeCounter(start) {\n  const counter = { count: start };\n  counter.bump = function () {\n    return this.count + 1;\n  };\n  function label() {\n    return this.count.toFixed(0);\n  }\n  return counter;\n}\n";
  const dir = repo({ 'counter.js': code });
  writeFileSync(join(dir, 'counter.js'), code.replace('{ count: start }', '{ count: start, step: 1 }'));
  const r = diffCli(dir, ['--json']);
  assert.equal(r.code, 0, r.stdout);
  assert.deepEqual((JSON.parse(r.stdout) as { findings: unknown[] }).findings, []);
});

test('diff: a new, untracked file with a type error is found, from a subdirectory too; --no-untracked leaves it out; ignored files are never run', () => {
  const dir = repo({ 'pad.js': PAD, '.gitignore': 'build/\n' });
  mkdirSync(join(dir, 'lib'));
  mkdirSync(join(dir, 'build'));
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  const broken = "function pad(count) {\n  return count.padStart(3, '0');\n}\nconsole.log(pad(7));\n";
  writeFileSync(join(dir, 'lib', 'fresh.js'), broken);
  writeFileSync(join(dir, 'build', 'out.js'), broken);
  writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), broken);
  writeFileSync(join(dir, 'lib', 'notes.txt'), 'not code');
  const r = cli(['diff', '--json'], undefined, 120_000, process.env, join(dir, 'lib'));
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as { findings: { file: string; line: number; type: string }[]; fragments: { file: string; untracked?: boolean }[] };
  assert.deepEqual(report.findings.map((f) => [f.file, f.line, f.type]), [['lib/fresh.js', 2, 'TypeError']]);
  assert.deepEqual([...new Set(report.fragments.map((f) => [f.file, f.untracked].join(' ')))], ['lib/fresh.js true'], 'only the untracked, not ignored source file ran');
  const skipped = diffCli(dir, ['--no-untracked']);
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.match(skipped.stdout, /^0 fragment\(s\) run/m);
});
