import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cli } from './helpers.ts';
import { COVERAGE_REPORTERS } from '../src/core/reportOptions.ts';

/** Flags and config files as a user meets them: the real bin, spawned in a directory of its own. The option layer alone is test/configSpec.test.ts. */

const tmp = mkdtempSync(join(tmpdir(), 'snipexec-flags-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** 75 % of its lines run: line 3 never does. */
const HALF = 'const n = 1;\nif (n > 2) {\n  console.log("big");\n}\nconsole.log(n);\n';
/** Every line runs; one line holds three statements, of which the last two never run: lines 100 %, statements 4 of 6. */
const STATEMENTS = 'const n = 1;\ntry {\n  console.log(n); JSON.parse("{"); console.log("after");\n} catch (e) {\n  console.log("caught");\n}\n';
const FAST = ['--no-drive', '--scenarios', '1'];

/** A fresh directory holding `files`, the working directory of the run. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmp, 'p-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
const run = (dir: string, args: string[]) => cli(args, undefined, 60_000, process.env, dir);

const USAGE_CASES: { name: string; files?: Record<string, string>; args: string[]; stderr: RegExp }[] = [
  { name: 'an unknown flag suggests the closest', args: ['run', 'half.js', '--timout', '100'], stderr: /^snipexec: unknown option '--timout'\n\(Did you mean --timeout\?\)$/m },
  { name: "an API name as a flag suggests the flag", args: ['run', 'half.js', '--timeoutMs', '100'], stderr: /\(Did you mean --timeout\?\)/ },
  { name: 'an unknown command suggests the closest', args: ['rnu', 'half.js'], stderr: /^snipexec: unknown command 'rnu'\n\(Did you mean run\?\)$/m },
  { name: 'an unknown report flag suggests too', args: ['run', 'half.js', '--check-coverag'], stderr: /\(Did you mean --check-coverage\?\)/ },
  { name: 'a bad reporter in a list names the flag, the value and the closest', args: ['run', 'half.js', '--reporter', 'lcov,htm'], stderr: /^snipexec: option '--reporter <names>' argument 'lcov,htm' is invalid\. not one of text, .*, cobertura, clover: htm \(did you mean html\?\)$/m },
  { name: 'a value out of bounds names the flag and the value', args: ['run', 'half.js', '--timeout', '10'], stderr: /^snipexec: --timeout 10: Too small: expected number to be >=50 \[INVALID_OPTIONS\]$/m },
  { name: 'a missing directory names the flag', args: ['run', 'half.js', '--modules', 'nowhere'], stderr: /^snipexec: --modules nowhere: not a directory: nowhere \[INVALID_OPTIONS\]$/m },
  { name: 'a coverage directory that is a file names the flag', args: ['run', 'half.js', '--coverage-dir', 'half.js'], stderr: /^snipexec: --coverage-dir half\.js: not a directory \[INVALID_OPTIONS\]$/m },
  { name: 'a percentage above 100', args: ['run', 'half.js', '--statements', '120'], stderr: /option '--statements <pct>' argument '120' is invalid\. expected a percentage from 0 to 100/ },
  { name: 'coverage flags with --queue, thresholds included', args: ['batch', 'set.jsonl', '--queue', 'redis://127.0.0.1:1', '--lines', '80', '--reporter', 'lcov'], stderr: /^snipexec: --reporter, --lines: not with --queue / },
  { name: 'config: not JSON, named by file, line and column', files: { 'snipexec.config.json': '{\n  "timeout": 100,\n}\n' }, args: ['run', 'half.js'], stderr: /^snipexec: \/.*\/snipexec\.config\.json:3:1: not valid JSON: .* \[INVALID_OPTIONS\]$/m },
  { name: 'config: the package.json form', files: { 'snipexec.config.json': '{"snipexec": {"timeout": 100}}' }, args: ['run', 'half.js'], stderr: /snipexec\.config\.json: this is the package\.json form .*put the keys at the top level/ },
  { name: 'config: a typo', files: { 'snipexec.config.json': '{"timout": 100}' }, args: ['run', 'half.js'], stderr: /snipexec\.config\.json: unknown key "timout" \(did you mean "timeout"\?\)/ },
  { name: 'config: both names', files: { 'snipexec.config.json': '{"timeout": 100, "timeoutMs": 100}' }, args: ['run', 'half.js'], stderr: /snipexec\.config\.json: "timeout" and "timeoutMs" are the same option/ },
  { name: 'config: a bad value names the file, the key and the value', files: { 'package.json': '{"name": "x", "snipexec": {"reporter": ["lcov", "cobertur"]}}' }, args: ['run', 'half.js'], stderr: /package\.json: reporter lcov,cobertur: expected a reporter or a list of reporters among / },
  { name: 'config: a named file that is missing', args: ['--config', 'nope.json', 'run', 'half.js'], stderr: /^snipexec: nope\.json: cannot be read/m },
];

for (const c of USAGE_CASES) {
  test(`flags: ${c.name} (exit 2)`, () => {
    const dir = project({ 'half.js': HALF, ...c.files });
    const r = run(dir, c.args);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, c.stderr);
    assert.doesNotMatch(r.stderr, /reporters?\.\d|\bat [\w.]+ \(/, 'no internal field, no stack');
    assert.ok(!existsSync(join(dir, 'coverage')), 'nothing ran');
  });
}

test('flags: --reporter takes a comma list and repeats; without --coverage-dir they go to ./coverage', () => {
  const dir = project({ 'half.js': HALF });
  const r = run(dir, ['run', 'half.js', ...FAST, '--reporter', 'lcov,cobertura', '--reporter', 'text-summary', '--reporter', 'clover,lcovonly']);
  assert.equal(r.code, 0, r.stderr);
  for (const file of ['lcov.info', 'lcov-report/index.html', 'cobertura-coverage.xml', 'clover.xml', 'text-summary.txt']) assert.ok(existsSync(join(dir, 'coverage', file)), file);
  assert.match(r.stdout, /Lines +: 75% \( 3\/4 \)/, 'text-summary is printed');
  const cobertura = readFileSync(join(dir, 'coverage', 'cobertura-coverage.xml'), 'utf8');
  assert.match(cobertura, /<coverage lines-valid="4" lines-covered="3" line-rate="0\.75"/);
  assert.match(cobertura, /filename="half\.js"/, 'paths relative to the working directory, as GitLab reads them');
});

test('flags: config keys are the flag names; a config reporter also defaults the directory', () => {
  const dir = project({ 'half.js': HALF, 'snipexec.config.json': JSON.stringify({ $schema: './node_modules/snipexec/snipexec.schema.json', reporter: 'json-summary', drive: false, scenarios: 1 }) });
  const r = run(dir, ['run', 'half.js']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(readFileSync(join(dir, 'coverage', 'coverage-summary.json'), 'utf8')) as { total: { lines: { pct: number } } }).total.lines.pct, 75);
});

const CHECK_CASES: { name: string; code: string; args: string[]; exit: number; stderr?: RegExp }[] = [
  { name: '--check-coverage alone checks lines at 90, as c8 and nyc', code: HALF, args: ['--check-coverage'], exit: 1, stderr: /^snipexec: Coverage for lines \(75%\) does not meet the threshold \(90%\)$/m },
  { name: 'a threshold implies --check-coverage', code: HALF, args: ['--lines', '80'], exit: 1, stderr: /Coverage for lines \(75%\) does not meet the threshold \(80%\)/ },
  { name: 'a threshold met', code: HALF, args: ['--lines', '75'], exit: 0 },
  { name: '--statements counts the statements of a line apart', code: STATEMENTS, args: ['--lines', '100', '--statements', '80'], exit: 1, stderr: /^snipexec: Coverage for statements \(66\.66%\) does not meet the threshold \(80%\)$/m },
  { name: '--statements met', code: STATEMENTS, args: ['--statements', '66'], exit: 0 },
];

for (const c of CHECK_CASES) {
  test(`flags: ${c.name}`, () => {
    const dir = project({ 'snippet.js': c.code });
    const r = run(dir, ['run', 'snippet.js', ...FAST, ...c.args]);
    assert.equal(r.code, c.exit, r.stderr);
    if (c.stderr) assert.match(r.stderr, c.stderr);
    else assert.doesNotMatch(r.stderr, /Coverage for/);
    assert.ok(existsSync(join(dir, 'coverage', 'lcov.info')), 'the default reporters into ./coverage');
  });
}

test('flags: --per-file: each snippet must meet the threshold, and the one that does not is named', () => {
  const full = Array.from({ length: 10 }, (_, i) => `console.log(${i});`).join('\n');
  const dir = project({ 'set.jsonl': [{ id: 'full', code: full }, { id: 'half', code: HALF }].map((x) => JSON.stringify(x)).join('\n') + '\n' });
  const total = run(dir, ['batch', 'set.jsonl', ...FAST, '--lines', '80']);
  assert.equal(total.code, 0, `13 of 14 lines over both: ${total.stderr}`);
  const perFile = run(dir, ['batch', 'set.jsonl', ...FAST, '--lines', '80', '--per-file']);
  assert.equal(perFile.code, 1, perFile.stderr);
  assert.deepEqual(perFile.stderr.trim().split('\n').filter((l) => l.includes('Coverage for')), ['snipexec: Coverage for lines (75%) does not meet the threshold (80%) for coverage/snippets/half.js']);
});

test('flags: --print-config prints config file, flags and defaults by config key, runs nothing, and reads back as a config', () => {
  const dir = project({ 'half.js': HALF, 'snipexec.config.json': JSON.stringify({ timeoutMs: 2000, reporter: 'cobertura', concurrency: 3 }) });
  const r = run(dir, ['run', 'half.js', '--print-config', '--scenarios', '3', '--no-drive']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^snipexec: options from \/.*\/snipexec\.config\.json, flags over them$/m);
  const printed = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(printed.timeout, 2000, 'the config file, read under its alias, printed under its key');
  assert.equal(printed.scenarios, 3, 'the flag');
  assert.equal(printed.drive, false, '--no-drive');
  assert.equal(printed.maxRuns, 12, 'a default');
  assert.equal(printed.coverageDir, 'coverage', 'the report defaults, resolved');
  assert.deepEqual(printed.reporter, ['cobertura']);
  assert.equal(printed.concurrency, undefined, 'run does not take batch keys');
  assert.equal(printed.timeoutMs, undefined, 'keys, not API names');
  assert.ok(!existsSync(join(dir, 'coverage')), 'nothing ran');
  const batch = JSON.parse(run(dir, ['batch', 'none.jsonl', '--print-config']).stdout) as Record<string, unknown>;
  assert.equal(batch.concurrency, 3);
  // Saved as a config file, it gives the same options.
  const again = project({ 'half.js': HALF, 'snipexec.config.json': r.stdout });
  const second = run(again, ['run', 'half.js', '--print-config']);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(JSON.parse(second.stdout), printed);
  const bad = run(dir, ['run', 'half.js', '--print-config', '--timeout', '10']);
  assert.equal(bad.code, 2, 'a bad flag is refused there too');
});

test('flags: --help of run and batch lists every reporter, the thresholds and --print-config', () => {
  for (const command of ['run', 'batch']) {
    const help = cli([command, '--help']).stdout.replace(/\s+/g, ' ');
    for (const flag of ['--coverage-dir', '--reporter <names>', '--check-coverage', '--lines <pct>', '--statements <pct>', '--branches <pct>', '--functions <pct>', '--per-file', '--print-config']) assert.ok(help.includes(flag), `${command} --help: ${flag}`);
    for (const reporter of COVERAGE_REPORTERS) assert.ok(help.includes(`"${reporter}"`), `${command} --help: ${reporter}`);
  }
});

test('flags: a config file in a parent directory is found, and an explicit --config wins', () => {
  const dir = project({ 'snipexec.config.json': '{"mode": "none"}', 'other.json': '{"mode": "dummy"}' });
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'half.js'), HALF);
  assert.equal((JSON.parse(run(join(dir, 'sub'), ['run', 'half.js', '--print-config']).stdout) as { mode: string }).mode, 'none');
  assert.equal((JSON.parse(run(join(dir, 'sub'), ['--config', '../other.json', 'run', 'half.js', '--print-config']).stdout) as { mode: string }).mode, 'dummy');
});
