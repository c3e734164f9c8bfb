import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { Option } from 'commander';
import { CONFIG_SCHEMA_FILE, configJsonSchema } from '../src/cli/configJsonSchema.ts';
import { CONFIG_GROUPS, CONFIG_ROWS, readConfig } from '../src/cli/configKeys.ts';
import { checkFlags } from '../src/cli/optionFlags.ts';
import { jsonFaultOffset, parseJsonText } from '../src/cli/jsonText.ts';
import { loadConfig } from '../src/cli/loadConfig.ts';
import { closest } from '../src/cli/suggest.ts';
import { InvalidOptions } from '../src/core/errors.ts';
import { resolveReportOptions, type ReportOptionsInput } from '../src/core/reportOptions.ts';

/** The option layer of config files: keys, aliases, messages, the JSON schema. The CLI end to end is test/flagsSpec.test.ts. */

const ROOT = new URL('..', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'snipexec-config-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('config keys: each is its flag in camelCase; the API name is its alias; no name means two options', () => {
  const KNOWN: [flag: string, key: string, field: string][] = [
    ['--timeout', 'timeout', 'timeoutMs'],
    ['--total-timeout', 'totalTimeout', 'totalTimeoutMs'],
    ['--memory', 'memory', 'memoryLimitMb'],
    ['--check-timeout', 'checkTimeout', 'checkTimeoutMs'],
    ['--no-drive', 'drive', 'drive'],
    ['--no-environments', 'environments', 'environments'],
    ['--modules', 'modules', 'modulesDirs'],
    ['--project', 'project', 'projectDir'],
    ['--llm-cache', 'llmCache', 'cacheDir'],
    ['--llm-timeout', 'llmTimeout', 'requestTimeoutMs'],
    ['--llm-max-calls', 'llmMaxCalls', 'maxCallsPerSnippet'],
    ['--llm-batch-max-tokens', 'llmBatchMaxTokens', 'maxTokensPerBatch'],
    ['--concurrency', 'concurrency', 'concurrency'],
    ['--coverage-dir', 'coverageDir', 'coverageDir'],
    ['--reporter', 'reporter', 'reporter'],
    ['--check-coverage', 'checkCoverage', 'checkCoverage'],
    ['--statements', 'statements', 'statements'],
    ['--per-file', 'perFile', 'perFile'],
  ];
  for (const [flag, key, field] of KNOWN) {
    const row = CONFIG_ROWS.find((r) => r.flag === flag);
    assert.deepEqual(row && { flag: row.flag, key: row.key, field: row.field }, { flag, key, field }, flag);
  }
  const names = CONFIG_ROWS.flatMap((r) => (r.key === r.field ? [r.key] : [r.key, r.field]));
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], 'a name never stands for two options');
  assert.ok(!CONFIG_ROWS.some((r) => r.field === 'baseURL' || r.field === 'apiKey'), 'the endpoint and the key stay in the environment');
});

test('config keys: each is described (the reference and --help are made from the descriptions)', () => {
  for (const row of CONFIG_ROWS) assert.ok((row.schema.description ?? '').length > 20, `${row.key} has a description`);
  const properties = configJsonSchema().properties as Record<string, { description?: string }>;
  for (const [key, property] of Object.entries(properties)) assert.ok(property.description, `${key} is described in the JSON schema`);
});

const FILE = '/p/snipexec.config.json';

test('every bounded option: a value below its least is named by its flag (or by its key and file), with the value, never by its API name', () => {
  const properties = configJsonSchema().properties as Record<string, { minimum?: number; type?: string }>;
  let checked = 0;
  for (const row of CONFIG_ROWS) {
    const least = properties[row.key]?.minimum;
    if (least === undefined) continue;
    const bad = least - 1;
    if (row.flag !== undefined) {
      const group = CONFIG_GROUPS.find((g) => g.group === row.group)!;
      assert.throws(() => checkFlags({ [row.field]: bad }, group.flags, group.schema), (e: unknown) => e instanceof InvalidOptions && e.message.startsWith(`${row.flag} ${bad}: Too small`) ? true : assert.fail(`${row.flag}: ${(e as Error).message}`));
    }
    assert.throws(() => readConfig(FILE, { [row.key]: bad }), (e: unknown) => e instanceof InvalidOptions && e.message.startsWith(`${FILE}: ${row.key} ${bad}: Too small`) ? true : assert.fail(`${row.key}: ${(e as Error).message}`));
    checked++;
  }
  assert.ok(checked >= 25, `${checked} bounded options`);
});
const READ_CASES: { name: string; file?: string; raw: unknown; gives?: Record<string, unknown>; error?: RegExp }[] = [
  { name: 'a flag name', raw: { timeout: 100, totalTimeout: 900 }, gives: { timeoutMs: 100, totalTimeoutMs: 900 } },
  { name: 'the API name, an alias', raw: { timeoutMs: 100, memoryLimitMb: 64 }, gives: { timeoutMs: 100, memoryLimitMb: 64 } },
  { name: '--no-drive is drive: false', raw: { drive: false, environments: false }, gives: { drive: false, environments: false } },
  { name: 'only what is set, no defaults', raw: { mode: 'none' }, gives: { mode: 'none' } },
  { name: '$schema is ignored', raw: { $schema: './node_modules/snipexec/snipexec.schema.json', mode: 'none' }, gives: { mode: 'none' } },
  { name: 'report keys', raw: { reporter: ['lcov', 'cobertura'], lines: 80, perFile: true }, gives: { reporter: ['lcov', 'cobertura'], lines: 80, perFile: true } },
  { name: 'one reporter as a string', raw: { reporter: 'cobertura' }, gives: { reporter: 'cobertura' } },
  { name: 'batch and LLM keys', raw: { concurrency: 3, llmMaxCalls: 5, maxCallsPerBatch: 9 }, gives: { concurrency: 3, maxCallsPerSnippet: 5, maxCallsPerBatch: 9 } },
  { name: 'both names of one option', raw: { timeout: 100, timeoutMs: 200 }, error: /^\/p\/snipexec\.config\.json: "timeout" and "timeoutMs" are the same option \(timeoutMs is its API name\); give one$/ },
  { name: 'both names, alias first', raw: { cacheDir: 'a', llmCache: 'b' }, error: /"llmCache" and "cacheDir" are the same option/ },
  { name: 'a typo', raw: { timeOut: 5 }, error: /^\/p\/snipexec\.config\.json: unknown key "timeOut" \(did you mean "timeout"\?\)$/ },
  { name: 'a typo of an API name suggests the key', raw: { timeoutMS: 5 }, error: /unknown key "timeoutMS" \(did you mean "timeout"\?\)/ },
  { name: "nyc's kebab-case", raw: { 'check-coverage': true }, error: /unknown key "check-coverage" \(did you mean "checkCoverage"\?\)/ },
  { name: 'nothing close', raw: { colour: 'red' }, error: /unknown key "colour"$/ },
  { name: 'the package.json form in a config file', raw: { snipexec: { timeout: 5 } }, error: /^\/p\/snipexec\.config\.json: this is the package\.json form \(\{ "snipexec": \{ … \} \}\); in a config file of its own put the keys at the top level$/ },
  { name: 'the package.json form with a $schema', raw: { $schema: 'x', snipexec: {} }, error: /package\.json form/ },
  { name: 'a value out of bounds names the key and the value', raw: { timeout: 10 }, error: /^\/p\/snipexec\.config\.json: timeout 10: Too small: expected number to be >=50$/ },
  { name: 'a wrong type under the alias names the alias', file: '/p/package.json', raw: { timeoutMs: 'soon' }, error: /^\/p\/package\.json: timeoutMs soon: Invalid input: expected number, received string$/ },
  { name: 'a bad reporter names the key and the list, not reporter.1', raw: { reporter: ['lcov', 'htm'] }, error: /: reporter lcov,htm: expected a reporter or a list of reporters among text, /},
  { name: 'a missing modules directory', raw: { modules: ['/no/such/dir'] }, error: /: modules \/no\/such\/dir: not a directory: \/no\/such\/dir$/ },
  { name: 'a coverage directory that is a file', raw: { coverageDir: '/etc/hostname' }, error: /: coverageDir \/etc\/hostname: not a directory$/ },
  { name: 'several problems at once', raw: { timeOut: 5, seed: -1 }, error: /unknown key "timeOut" \(did you mean "timeout"\?\); seed -1: Too small/ },
  { name: 'not an object', raw: ['mode'], error: /: expected an object of options, got a list$/ },
];

for (const c of READ_CASES) {
  test(`config file: ${c.name}`, () => {
    if (c.gives) assert.deepEqual(readConfig(c.file ?? FILE, c.raw), c.gives);
    else assert.throws(() => readConfig(c.file ?? FILE, c.raw), (e: unknown) => e instanceof InvalidOptions && (c.error?.test(e.message) ?? false) ? true : assert.fail(`${(e as Error).message} does not match ${c.error}`));
  });
}

test('did you mean: case, dashes and underscores are ignored; at most two edits; nothing far', () => {
  const keys = ['timeout', 'totalTimeout', 'checkCoverage', 'reporter', 'lines'];
  const CASES: [string, string | undefined][] = [['TIMEOUT', 'timeout'], ['total_timeout', 'totalTimeout'], ['reporters', 'reporter'], ['reportr', 'reporter'], ['lnies', 'lines'], ['xyz', undefined], ['coverage', undefined]];
  for (const [word, expected] of CASES) assert.equal(closest(word, keys), expected, word);
});

const JSON_CASES: { name: string; text: string; at: string }[] = [
  { name: 'a trailing comma', text: '{\n  "timeout": 100,\n}\n', at: ':3:1:' },
  { name: 'a missing value', text: '{"timeout": }', at: ':1:13:' },
  { name: 'a comment', text: '{\n  // fast\n  "timeout": 100\n}', at: ':2:3:' },
  { name: 'single quotes', text: "{'mode': 'none'}", at: ':1:2:' },
  { name: 'cut short', text: '{"mode": "none"', at: ':1:16:' },
  { name: 'an empty file', text: '', at: ':1:1:' },
  { name: 'text after the object', text: '{}\n{}', at: ':2:1:' },
];

for (const c of JSON_CASES) {
  test(`config file not valid JSON: ${c.name} is named by file, line and column`, () => {
    assert.throws(() => parseJsonText(c.text, '/p/snipexec.config.json'), (e: unknown) => {
      assert.ok(e instanceof InvalidOptions);
      assert.ok(e.message.startsWith(`/p/snipexec.config.json${c.at} not valid JSON: `), e.message);
      assert.doesNotMatch(e.message, /position|is not valid JSON$/, 'the position is said once');
      return true;
    });
  });
}

test('config file not valid JSON: the fault offset is where JSON.parse says it is, whenever it says', () => {
  const JSONISH = fc.oneof(fc.json(), fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', ' ', '\n', '1', '-', '.', 'e', 't', 'r', 'u', 'n', 'l', '\\', 'a') }));
  fc.assert(fc.property(JSONISH, fc.nat(), fc.string({ maxLength: 2 }), (json, at, insert) => {
    const text = json.slice(0, at % (json.length + 1)) + insert + json.slice(at % (json.length + 1));
    let said: number | undefined;
    try {
      JSON.parse(text);
      return;
    } catch (error) {
      const m = /at position (\d+)/.exec((error as Error).message);
      if ((error as Error).message === 'Unexpected end of JSON input') said = text.length;
      else if (m) said = Number(m[1]);
    }
    if (said !== undefined) assert.equal(jsonFaultOffset(text), said, JSON.stringify(text));
    else assert.ok(jsonFaultOffset(text) <= text.length);
  }), { numRuns: 3000 });
  for (const valid of ['{}', '[1, -2.5e3, "a\\u00e9", true, null]', ' {"a": {"b": []}} ']) assert.equal(jsonFaultOffset(valid), valid.length);
  // Faults inside a token, placed where V8 places them (its message gives the position).
  for (const [text, at] of [['{"a":"\\u12x"}', 10], ['{"a":"\\q"}', 7], ['{"a":"x\ny"}', 7], ['[-x]', 2], ['[1.e5]', 3], ['{"a" 1}', 5], ['[tru]', 4]] as const) {
    assert.equal(jsonFaultOffset(text), at, text);
  }
});

test('config file: a .json that does not parse and a .mjs that throws are named by the loader', async () => {
  const dir = mkdtempSync(join(tmp, 'load-'));
  writeFileSync(join(dir, 'snipexec.config.json'), '{\n  "timeout": 100,\n}\n');
  await assert.rejects(loadConfig(dir), (e: unknown) => e instanceof InvalidOptions && e.message.startsWith(`${join(dir, 'snipexec.config.json')}:3:1: not valid JSON`));
  writeFileSync(join(dir, 'package.json'), '{"name": "x", "snipexec": {"timeout": 100,}}');
  await assert.rejects(loadConfig(dir), (e: unknown) => e instanceof InvalidOptions && e.message.startsWith(`${join(dir, 'package.json')}:1:43: not valid JSON`));
  rmSync(join(dir, 'package.json'));
  rmSync(join(dir, 'snipexec.config.json'));
  writeFileSync(join(dir, 'snipexec.config.mjs'), 'throw new Error("boom");\n');
  await assert.rejects(loadConfig(dir), (e: unknown) => e instanceof InvalidOptions && e.message === `${join(dir, 'snipexec.config.mjs')}: cannot be loaded (boom)`);
  // Another directory: the module that threw stays in the import cache under its URL.
  const good = mkdtempSync(join(tmp, 'load-'));
  writeFileSync(join(good, 'snipexec.config.mjs'), 'export default { timeout: 100, model: "m" };\n');
  assert.deepEqual(await loadConfig(good), { file: join(good, 'snipexec.config.mjs'), config: { timeoutMs: 100, model: 'm' } });
  await assert.rejects(loadConfig(dir, join(dir, 'missing.json')), (e: unknown) => e instanceof InvalidOptions && e.message.startsWith(`${join(dir, 'missing.json')}: cannot be read`));
});

const REPORT_CASES: { name: string; given: ReportOptionsInput; resolved: ReturnType<typeof resolveReportOptions> }[] = [
  { name: 'nothing: no coverage', given: {}, resolved: {} },
  { name: 'a directory: the default reporters', given: { coverageDir: 'out' }, resolved: { coverageDir: 'out', reporter: ['json', 'lcov', 'text-summary'] } },
  { name: 'a reporter: ./coverage', given: { reporter: ['cobertura'] }, resolved: { coverageDir: 'coverage', reporter: ['cobertura'] } },
  { name: 'one reporter as a string, repeats dropped', given: { reporter: 'lcov' }, resolved: { coverageDir: 'coverage', reporter: ['lcov'] } },
  { name: '--check-coverage alone: lines 90, as c8 and nyc', given: { checkCoverage: true }, resolved: { coverageDir: 'coverage', reporter: ['json', 'lcov', 'text-summary'], thresholds: { lines: 90 } } },
  { name: 'a threshold turns the check on', given: { statements: 70 }, resolved: { coverageDir: 'coverage', reporter: ['json', 'lcov', 'text-summary'], thresholds: { lines: 90, statements: 70 } } },
  { name: '--lines given wins over 90', given: { lines: 50, branches: 40, functions: 30 }, resolved: { coverageDir: 'coverage', reporter: ['json', 'lcov', 'text-summary'], thresholds: { lines: 50, branches: 40, functions: 30 } } },
  { name: 'checkCoverage: false keeps thresholds unchecked', given: { checkCoverage: false, lines: 80, perFile: true }, resolved: {} },
  { name: '--per-file checks', given: { perFile: true, coverageDir: 'c' }, resolved: { coverageDir: 'c', reporter: ['json', 'lcov', 'text-summary'], thresholds: { lines: 90 }, perFile: true } },
];

for (const c of REPORT_CASES) {
  test(`report options: ${c.name}`, () => assert.deepEqual(resolveReportOptions(c.given), c.resolved));
}

test('JSON schema: the shipped file is the generated one (npm run gen-config-schema), and the package ships it', () => {
  const shipped = JSON.parse(readFileSync(join(ROOT, CONFIG_SCHEMA_FILE), 'utf8'));
  assert.deepEqual(shipped, configJsonSchema(), `${CONFIG_SCHEMA_FILE} is stale: run npm run gen-config-schema`);
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  assert.ok(manifest.files.includes(CONFIG_SCHEMA_FILE), `"files" of package.json names ${CONFIG_SCHEMA_FILE}`);
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { files: { path: string }[] }[];
  assert.ok(info?.files.some((f) => f.path === CONFIG_SCHEMA_FILE), 'the tarball holds it');
});

test('JSON schema: it accepts the example configs, which the loader accepts too; it refuses what the loader refuses', () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(configJsonSchema());
  const examples: [string, unknown][] = [
    [join(ROOT, 'examples/config/snipexec.config.json'), JSON.parse(readFileSync(join(ROOT, 'examples/config/snipexec.config.json'), 'utf8'))],
    [join(ROOT, 'examples/config/package.json'), (JSON.parse(readFileSync(join(ROOT, 'examples/config/package.json'), 'utf8')) as { snipexec: unknown }).snipexec],
  ];
  for (const [file, config] of examples) {
    assert.ok(validate(config), `${file}: ${JSON.stringify(validate.errors)}`);
    assert.doesNotThrow(() => readConfig(file, config));
    assert.match(JSON.stringify(config), /"(timeout|reporter)"/, 'the examples use the flag names');
  }
  assert.ok(validate({ timeoutMs: 100, modulesDirs: [] }), 'API names are accepted');
  for (const bad of [{ timeOut: 5 }, { timeout: 10 }, { timeout: 100, timeoutMs: 100 }, { reporter: ['htm'] }, { snipexec: {} }, { lines: 101 }]) {
    assert.equal(validate(bad), false, JSON.stringify(bad));
    assert.throws(() => readConfig(FILE, bad), InvalidOptions, JSON.stringify(bad));
  }
});
