import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BIN, cli } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'snipexec-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const ANSI = /\u001b\[\d+m/;
/** The environment without colour settings of its own. */
const plain = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && k !== 'NODE_DISABLE_COLORS'));
const SNIPPET = 'const [a, b] = splitPair("left-right");\nconsole.log(a.toUpperCase(), b.length);\n';

test('cli: --version prints the package version', () => {
  const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  for (const flag of ['--version', '-V']) {
    const r = cli([flag]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
  }
});

/** A resolve hook that reports on stderr every module the process imports or requires after it, as `loaded URL`. */
const LOAD_HOOK = `import { registerHooks } from 'node:module'; registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); process.stderr.write('loaded ' + r.url + '\\n'); return r; } });`;

/** Runs the bin under the resolve hook: its exit code, stdout, stderr without the hook's lines, and the URLs it loaded. */
function loading(args: string[]) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--import', `data:text/javascript,${encodeURIComponent(LOAD_HOOK)}`, BIN, ...args], { encoding: 'utf8' });
  const lines = r.stderr.split('\n');
  return { code: r.status, stdout: r.stdout, stderr: lines.filter((l) => !l.startsWith('loaded ')).join('\n'), loaded: lines.filter((l) => l.startsWith('loaded ')).map((l) => l.slice('loaded '.length)) };
}

/** What a CLI start that runs nothing must not load: the engine's folders and the packages behind them. */
const ENGINE: Record<string, RegExp> = {
  'src/engine': /\/src\/engine\//,
  'src/sandbox': /\/src\/sandbox\//,
  'src/instrument': /\/src\/instrument\//,
  'src/values': /\/src\/values\//,
  'src/environments': /\/src\/environments\//,
  // runStatus.ts is the list of names --fail-on takes, terminalText.ts escapes an error line, and
  // coverageThresholds.ts compares totals: they import nothing of the engine or istanbul.
  'src/report': /\/src\/report\/(?!(runStatus|terminalText|coverageThresholds)\.ts$)/,
  '@babel': /\/node_modules\/@babel\//,
  'isolated-vm': /\/node_modules\/isolated-vm\//,
  esbuild: /\/node_modules\/esbuild\//,
  pino: /\/node_modules\/pino\//,
};
/** The LLM client, which a run in another mode does not load (llmOptions.ts is the flags' schema). */
const LLM_CLIENT = /\/src\/llm\/(?!llmOptions\.ts$)|\/src\/values\/llm\/|\/node_modules\/@secretlint\//;
/** The ENGINE entries among the loaded URLs; a package's package.json (read for its version, resolved as a module is) loads none of its code. */
const engineIn = (loaded: readonly string[]) => Object.keys(ENGINE).filter((name) => loaded.some((url) => !url.endsWith('/package.json') && ENGINE[name]?.test(url)));

test('cli: --version alone loads no CLI module (it costs a bare node start, not the engine)', () => {
  const r = loading(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^\d+\.\d+\.\d+/);
  assert.deepEqual(r.loaded.filter((url) => url.includes('/src/')), []);
  // The hook sees a command's modules: the test would notice a fast path that loads them anyway.
  assert.ok(loading(['--help']).loaded.some((url) => /\/src\/cli\/main\./.test(url)));
});

test('cli: --help, a command\'s --help and usage errors load the command table only, no engine', () => {
  const starts: [string[], number, RegExp][] = [
    [['--help'], 0, /^$/],
    [['run', '--help'], 0, /^$/],
    [['help', 'batch'], 0, /^$/],
    [['no-such-command'], 2, /unknown command 'no-such-command'/],
    [['run', '--no-such-flag'], 2, /unknown option '--no-such-flag'/],
    [['batch'], 2, /missing required argument 'inputs'/],
    // Inputs and flags are checked before the engine loads: a wrong path costs no engine either.
    [['run', join(tmp, 'no-such-file.js')], 2, /no-such-file\.js: no such file/],
    [['run', '-', '--emit', join(tmp, 'no-such-dir', 'out.js')], 2, /its directory .* does not exist/],
    [['batch', join(tmp, 'no-such-set.jsonl')], 2, /no-such-set\.jsonl: no such file/],
  ];
  for (const [args, code, stderr] of starts) {
    const r = loading(args);
    assert.equal(r.code, code, `snipexec ${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr.trim(), stderr);
    assert.deepEqual(engineIn(r.loaded), [], `snipexec ${args.join(' ')} loads the engine`);
  }
  // A command that runs loads every one of them: each pattern above names something real.
  const file = join(tmp, 'one.js');
  writeFileSync(file, 'console.log(1);\n');
  const run = loading(['run', file, '--json']);
  assert.equal(run.code, 0, run.stderr);
  // esbuild loads only to build a guest bundle: the first run may (a cold bundle cache); the next one, whose bundles come from the cache, does not.
  const running = Object.keys(ENGINE).filter((name) => name !== 'esbuild');
  assert.deepEqual(engineIn(run.loaded).filter((name) => name !== 'esbuild'), running);
  const again = loading(['run', file, '--json']);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(engineIn(again.loaded), running);
  assert.ok(ENGINE.esbuild?.test(pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href));
  // Only --mode llm loads the LLM client (its transport, cache, secret rules and prompts); llmOptions.ts is the flags' schema.
  assert.deepEqual(run.loaded.filter((url) => LLM_CLIENT.test(url)), []);
  assert.ok(LLM_CLIENT.test(new URL('../src/llm/llmSession.ts', import.meta.url).href) && LLM_CLIENT.test(new URL('../src/values/llm/llmProvider.ts', import.meta.url).href));
});

test('cli: colour follows FORCE_COLOR and NO_COLOR, also into a pipe', () => {
  assert.doesNotMatch(cli(['run', '-'], SNIPPET, 60_000, plain).stdout, ANSI, 'a pipe gets no colour by default');
  assert.match(cli(['run', '-'], SNIPPET, 60_000, { ...plain, FORCE_COLOR: '1' }).stdout, ANSI, 'FORCE_COLOR forces it into a pipe');
  assert.doesNotMatch(cli(['run', '-'], SNIPPET, 60_000, { ...plain, FORCE_COLOR: '0' }).stdout, ANSI);
  assert.doesNotMatch(cli(['run', '-'], SNIPPET, 60_000, { ...plain, NO_COLOR: '1' }).stdout, ANSI);
});

test('cli: a usage error is one line and a hint, exit 2; --help shows the defaults', () => {
  const r = cli(['run', '-', '--no-such-flag'], SNIPPET);
  assert.equal(r.code, 2);
  assert.deepEqual(r.stderr.trim().split('\n'), ["snipexec: unknown option '--no-such-flag'", '(snipexec <command> --help shows the usage)']);
  const help = cli(['run', '--help']).stdout;
  assert.match(help, /--timeout <ms>[\s\S]*?\(default:\s+5000\)/);
  assert.match(help, /--max-runs <n>[\s\S]*?\(default:\s+12\)/);
});

test('cli: the human batch summary reads as percentages and counts; --fail-on and internal errors set exit 1', () => {
  const data = join(tmp, 'set.jsonl');
  writeFileSync(data, [
    { id: 'ok', code: 'console.log(1 + 1);' },
    { id: 'throws', code: 'console.log("a");\nnull.x;\nconsole.log("b");' },
  ].map((x) => JSON.stringify(x)).join('\n') + '\n');
  const human = cli(['batch', data]);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /^snippets +2 \(trace\)$/m);
  assert.match(human.stdout, /^line coverage +\d+\.\d % \(first execution\), \d+\.\d % over kept scenarios$/m);
  assert.match(human.stdout, /^statuses +(completed 1, stopped 1|stopped 1, completed 1)$/m);
  assert.doesNotMatch(human.stdout, /[{}]/, 'no JSON fragments');
  const failing = cli(['batch', data, '--fail-on', 'stopped,timeout']);
  assert.equal(failing.code, 1);
  assert.match(failing.stderr, /1 snippet ended as stopped/);
  assert.equal(cli(['batch', data, '--fail-on', 'timeout']).code, 0);
  const bad = cli(['batch', data, '--fail-on', 'broken']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not one: broken/);
});

test('cli: options come from snipexec.config.json or package.json "snipexec", flags win, an unknown key is named', () => {
  const dir = mkdtempSync(join(tmp, 'config-'));
  const file = join(dir, 'snippet.js');
  writeFileSync(file, 'console.log(missingThing.length);\n');
  const run = (args: string[] = []) => cli(['run', file, '--json', ...args], undefined, 60_000, process.env, dir);
  // No config: trace mode injects missingThing and the run completes.
  assert.equal(JSON.parse(run().stdout).status, 'completed');
  writeFileSync(join(dir, 'snipexec.config.json'), JSON.stringify({ mode: 'none' }));
  const none = JSON.parse(run().stdout);
  assert.equal(none.status, 'stopped', 'mode none from the config file: nothing is injected');
  assert.deepEqual(none.injections, []);
  assert.equal(JSON.parse(run(['--mode', 'trace']).stdout).status, 'completed', 'the flag wins');
  writeFileSync(join(dir, 'snipexec.config.json'), JSON.stringify({ mode: 'none', timeOut: 5 }));
  const unknown = run();
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /snipexec\.config\.json: unknown key "timeOut"/);
  rmSync(join(dir, 'snipexec.config.json'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', snipexec: { mode: 'none' } }));
  assert.equal(JSON.parse(run().stdout).status, 'stopped', 'the "snipexec" key of package.json');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', snipexec: { timeoutMs: 'soon' } }));
  const wrong = run();
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /package\.json: timeoutMs soon: /);
});

test('cli: run and batch write istanbul coverage and HTML reports; --check-coverage sets exit 1 below its threshold', () => {
  const dir = mkdtempSync(join(tmp, 'reports-'));
  const file = join(dir, 'half.js');
  writeFileSync(file, 'const n = 1;\nif (n > 2) {\n  console.log("big");\n}\nconsole.log(n);\n');
  const cov = join(dir, 'cov');
  const run = cli(['run', file, '--no-drive', '--scenarios', '1', '--coverage-dir', cov, '--reporter', 'lcov', '--reporter', 'json-summary', '--html', join(dir, 'run.html')]);
  assert.equal(run.code, 0, run.stderr);
  const lcov = readFileSync(join(cov, 'lcov.info'), 'utf8');
  assert.match(lcov, /^SF:.*half\.js$/m);
  assert.match(lcov, /^LF:4$/m, 'four measured lines');
  assert.match(lcov, /^LH:3$/m, 'three covered: line 3 never ran');
  assert.equal((JSON.parse(readFileSync(join(cov, 'coverage-summary.json'), 'utf8')) as { total: { lines: { pct: number } } }).total.lines.pct, 75);
  assert.match(readFileSync(join(dir, 'run.html'), 'utf8'), /<html/);
  const below = cli(['run', file, '--no-drive', '--scenarios', '1', '--coverage-dir', cov, '--check-coverage', '--lines', '80']);
  assert.equal(below.code, 1);
  assert.match(below.stderr, /Coverage for lines \(75%\) does not meet the threshold \(80%\)/);
  assert.equal(cli(['run', file, '--no-drive', '--scenarios', '1', '--coverage-dir', cov, '--check-coverage', '--lines', '70']).code, 0);
  assert.equal(cli(['run', file, '--no-drive', '--scenarios', '1', '--coverage-dir', cov, '--lines', '80']).code, 1, 'a threshold implies --check-coverage');

  const data = join(dir, 'set.jsonl');
  writeFileSync(data, [{ id: 'a', code: 'console.log(1);' }, { id: 'b/c', code: 'if (x) {\n  console.log(2);\n}' }].map((x) => JSON.stringify(x)).join('\n') + '\n');
  const batch = cli(['batch', data, '--coverage-dir', join(dir, 'bcov'), '--reporter', 'lcov', '--html', join(dir, 'site'), '--json']);
  assert.equal(batch.code, 0, batch.stderr);
  const blcov = readFileSync(join(dir, 'bcov', 'lcov.info'), 'utf8');
  assert.equal([...blcov.matchAll(/^SF:/gm)].length, 2, 'one file per snippet');
  assert.match(readFileSync(join(dir, 'site', 'index.html'), 'utf8'), /<table/);
});
