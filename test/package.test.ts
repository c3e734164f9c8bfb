import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { linkProductionPackages, linkTree, ROOT } from './packageTree.ts';

/**
 * snipexec as a user gets it (issue 16): `npm pack` (which builds), the tarball installed with npm
 * into a fresh project outside this clone, then the installed CLI and library on the Node 24 that
 * runs the tests. No network: the project's node_modules starts with this clone's production
 * dependencies, hard-linked (isolated-vm is native; fetching or rebuilding it is not this test's
 * business), so `npm install TARBALL --offline` has nothing to fetch and only adds snipexec.
 */

const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** A user's shell: the Node 24 first on PATH, none of the outer npm's or test runner's variables. */
const ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_OPTIONS')),
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
};
const LIMIT_MS = 120_000;
const SNIPPET = 'const [a, b] = splitPair("l-r");\nconsole.log(a.toUpperCase(), b.length);\n';

let work = '';
let project = '';
let tarball = '';
let packed: string[] = [];

function sh(command: string, args: readonly string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, env: ENV, encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

/** `npx snipexec ARGS` in `cwd` (the project or a directory in it), never fetching anything. */
const npx = (args: readonly string[], cwd = project) => sh('npx', ['--offline', '--no-install', 'snipexec', ...args], cwd);

before(() => {
  work = mkdtempSync(join(tmpdir(), 'snipexec-package-'));
  const pack = sh('npm', ['pack', '--pack-destination', work, '--json'], ROOT);
  assert.equal(pack.code, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  assert.ok(info);
  packed = info.files.map((f) => f.path);
  tarball = join(work, info.filename);
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-snipexec', private: true, type: 'module' }));
  install(project, [tarball]);
});

/**
 * `npm install [PACKAGES]` in `dir`, offline: its node_modules starts with this clone's production
 * packages and their command links (npm installs again a package whose bin is not linked, and that
 * would need the registry), so npm only adds snipexec.
 */
function install(dir: string, packages: readonly string[] = []): void {
  linkProductionPackages(dir);
  const r = sh('npm', ['install', ...packages, '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
}

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('package: the tarball holds the bin, the build (.js and .d.ts of every host module), the guest sources and the prompts; no tests, evaluation, datasets, CI or host .ts sources', () => {
  const files = new Set(packed);
  for (const needed of ['package.json', 'README.md', 'bin/snipexec.cjs', 'src/index.js', 'src/index.d.ts', 'src/replay.js', 'src/replay.d.ts', 'src/cli/main.js', 'src/emit/nodeEnvironments.js', 'src/record/recordHooks.js', 'src/record/testHooks.js', 'src/guest/runtime/index.ts', 'src/protocol/hooks.ts', 'prompts/fix.md']) {
    assert.ok(files.has(needed), `${needed} is in the tarball`);
  }
  const sources: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'guest') walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) sources.push(relative(ROOT, path).split(sep).join('/'));
    }
  };
  walk(join(ROOT, 'src'));
  const unbuilt = sources.filter((source) => !files.has(source.replace(/\.ts$/, '.js')) || !files.has(source.replace(/\.ts$/, '.d.ts')));
  assert.deepEqual(unbuilt, [], 'every host module ships as .js and .d.ts');
  assert.deepEqual(packed.filter((path) => /^(test|eval|datasets|examples|scripts|\.ci)\//.test(path)), []);
  // A consumer's tsc would check an installed .ts source as its own code (and reject its .ts imports): only what the guest bundles need ships as .ts.
  assert.deepEqual(packed.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith('src/guest/') && !path.startsWith('src/protocol/')), []);
});

test('package: `npx snipexec --version` in the project runs the installed build', () => {
  assert.ok(!existsSync(join(project, 'node_modules/snipexec/src/cli/main.ts')), 'the install holds no main.ts to fall back on');
  const r = npx(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), MANIFEST.version);
});

test('package: `npx snipexec run` completes a snippet; its --emit program loads the environments through the installed loader under plain node', () => {
  writeFileSync(join(project, 'snippet.js'), SNIPPET);
  const r = npx(['run', 'snippet.js', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout) as { status: string; fullyExecuted: boolean; stdout: string };
  assert.equal(result.status, 'completed');
  assert.equal(result.fullyExecuted, true);
  assert.match(result.stdout, /^[A-Z ]+ \d+\n$/);

  // `path` loads the node environment: the program requires src/emit/nodeEnvironments.js from node_modules. It is CommonJS (.cjs in this "type": "module" project).
  writeFileSync(join(project, 'paths.js'), "const path = require('path');\nconsole.log(path.join('a', 'b'), greet('x').length);\n");
  const emitted = npx(['run', 'paths.js', '--json', '--emit', 'paths.done.cjs']);
  assert.equal(emitted.code, 0, emitted.stderr);
  const ran = JSON.parse(emitted.stdout) as { stdout: string };
  const program = readFileSync(join(project, 'paths.done.cjs'), 'utf8');
  assert.ok(program.includes(join('node_modules', 'snipexec', 'src', 'emit', 'nodeEnvironments.js')), 'the program loads the installed build');
  const plain = sh(process.execPath, ['paths.done.cjs'], project);
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout, ran.stdout);
});

test('package: `npx snipexec batch` runs a dataset', () => {
  writeFileSync(join(project, 'set.jsonl'), `${JSON.stringify({ id: 'pair', code: SNIPPET })}\n${JSON.stringify({ id: 'calls', code: 'console.log(api.fetch(1).items.length);\n' })}\n`);
  const r = npx(['batch', 'set.jsonl', '--mode', 'dummy', '--out', 'r.jsonl', '--json', '--coverage-dir', 'coverage', '--reporter', 'lcov']);
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout) as { snippets: number; statusCounts: Record<string, number> };
  assert.equal(summary.snippets, 2);
  assert.deepEqual(summary.statusCounts, { completed: 2 });
  const rows = readFileSync(join(project, 'r.jsonl'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
  assert.deepEqual(rows.sort(), ['calls', 'pair']);
  const lcov = readFileSync(join(project, 'coverage', 'lcov.info'), 'utf8');
  assert.equal([...lcov.matchAll(/^SF:coverage\/snippets\/.+$/gm)].length, 2, lcov);
  assert.equal([...lcov.matchAll(/^end_of_record$/gm)].length, 2);
});

test('package: `npx snipexec diff` in a repository inside the project finds the type error a change brings', () => {
  const repo = join(project, 'app');
  mkdirSync(repo);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore', env: ENV });
  const pad = "function pad(count) {\n  return String(count).padStart(3, '0');\n}\nconsole.log(pad(7));\n";
  writeFileSync(join(repo, 'pad.js'), pad);
  git('init', '-q');
  git('-c', 'user.email=test@example.invalid', '-c', 'user.name=test', 'commit', '-q', '--allow-empty', '-m', 'empty');
  git('add', 'pad.js');
  git('-c', 'user.email=test@example.invalid', '-c', 'user.name=test', 'commit', '-q', '-m', 'base');
  writeFileSync(join(repo, 'pad.js'), pad.replace('String(count).padStart', 'count.padStart'));
  const r = npx(['diff', '--json'], repo);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as { findings: { file: string; line: number; type: string }[] };
  assert.deepEqual(report.findings.map((f) => [f.file, f.line, f.type]), [['pad.js', 2, 'TypeError']]);
});

test('package: `npx snipexec record` records a program through the installed preload and writes tests that import snipexec/replay and pass', () => {
  const dir = join(project, 'rec');
  mkdirSync(dir);
  writeFileSync(join(dir, 'app.js'), 'export function add(a, b) {\n  return a + b;\n}\nconsole.log(add(2, 3));\n');
  const r = npx(['record', 'rec/app.js']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '5\n');
  assert.match(r.stderr, /recorded 1 call/);
  const testFile = readFileSync(join(dir, 'generated_tests/app.test.mjs'), 'utf8');
  assert.match(testFile, /^import \{ registerTestHooks, mocks, reach \} from "snipexec\/replay";$/m);
  assert.ok(!existsSync(join(dir, 'generated_tests/snipexec-replay.mjs')), 'no helper: the project resolves snipexec/replay');
  const replay = sh(process.execPath, ['--test', '--test-reporter=tap', 'rec/generated_tests/'], project);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /^# pass 1$/m);
});

test('package: a project that depends on snipexec (a tarball inside it) records and generates tests, is moved elsewhere and reinstalled, and its tests pass', () => {
  const app = join(work, 'app');
  mkdirSync(join(app, 'vendor'), { recursive: true });
  mkdirSync(join(app, 'lib'));
  copyFileSync(tarball, join(app, 'vendor', 'snipexec.tgz'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'moving-app', private: true, devDependencies: { snipexec: 'file:vendor/snipexec.tgz' } }));
  writeFileSync(join(app, 'lib', 'prices.js'), 'function net(gross, rate) {\n  return Math.round((gross / (1 + rate)) * 100) / 100;\n}\nmodule.exports = { net };\n');
  writeFileSync(join(app, 'main.js'), "const { net } = require('./lib/prices.js');\nfunction invoice(lines) {\n  return lines.reduce((sum, gross) => sum + net(gross, 0.2), 0);\n}\nconsole.log('zebra', invoice([12, 24]));\n");
  install(app);
  const r = npx(['record', 'main.js'], app);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'zebra 30\n');
  assert.match(r.stderr, /gen-tests: [1-9]\d* tests? in 2 files/);
  const out = join(app, 'generated_tests');
  const written = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => /\.m?js$/.test(f)).sort();
  assert.deepEqual(written, ['index.js', 'lib/prices.test.mjs', 'main.test.mjs']);
  for (const file of written) {
    const text = readFileSync(join(out, file), 'utf8');
    for (const absolute of [work, ROOT, 'file:', 'node_modules']) assert.ok(!text.includes(absolute), `${file} names ${absolute}`);
  }

  const moved = join(work, 'elsewhere', 'renamed-app');
  mkdirSync(dirname(moved));
  renameSync(app, moved);
  rmSync(join(moved, 'node_modules'), { recursive: true });
  install(moved);
  assert.ok(existsSync(join(moved, 'node_modules/snipexec/src/replay.js')), 'snipexec installed again from the moved tarball');
  const replay = sh(process.execPath, ['--test', '--test-reporter=tap', 'generated_tests/'], moved);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /^# fail 0$/m);
  assert.ok(Number(/^# pass (\d+)$/m.exec(replay.stdout)?.[1]) >= 2, replay.stdout);
  assert.ok(!replay.stdout.includes('zebra') && !replay.stderr.includes('zebra'), 'the program\'s output when imported is not in the report');
});

test('package: a plain .mjs file imports { runSnippet } from "snipexec" and runs a snippet; the error classes are the package\'s', () => {
  writeFileSync(join(project, 'use.mjs'), `import { runSnippet, runBatch, runDiff, recordProgram, generateTests, InvalidOptions, SnipexecError } from 'snipexec';
const result = await runSnippet(${JSON.stringify(SNIPPET)}, { mode: 'dummy' });
let invalid = 'not thrown';
try {
  await runSnippet('1', { timeoutMs: -1 });
} catch (error) {
  invalid = error instanceof InvalidOptions && error instanceof SnipexecError ? error.code : String(error);
}
console.log(JSON.stringify({ status: result.status, stdout: result.stdout, api: [runBatch, runDiff, recordProgram, generateTests].map((f) => typeof f), invalid }));
`);
  const r = sh(process.execPath, ['--no-node-snapshot', 'use.mjs'], project);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { status: 'completed', stdout: 'STR 3\n', api: ['function', 'function', 'function', 'function'], invalid: 'INVALID_OPTIONS' });
});

test('package: a .ts file that imports the API type-checks against the installed .d.ts (strict, NodeNext), and a misuse is an error', () => {
  // A TypeScript user has @types/node (the API's types name NodeJS.ProcessEnv and streams).
  for (const path of ['node_modules/@types/node', 'node_modules/undici-types']) linkTree(join(ROOT, path), join(project, path));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, types: ['node'] },
    files: ['uses.ts', 'misuse.ts'],
  }));
  writeFileSync(join(project, 'uses.ts'), `import { runSnippet, runBatch, runDiff, diffExitCode, recordProgram, readTrace, generateTests, InvalidOptions, type RunResult, type RunOptionsInput, type BatchRunSummary, type DiffReport, type CallTrace, type GeneratedTests } from 'snipexec';

const options: RunOptionsInput = { mode: 'trace', timeoutMs: 1000, seed: 2 };
const result: RunResult = await runSnippet('x.y();', options);
const figures: [string, number, boolean] = [result.status, result.lineCoverage, result.fullyExecuted];
const report: DiffReport = await runDiff({ cwd: '.', base: 'HEAD' });
const exit: 0 | 1 = diffExitCode(report);
const recorded = await recordProgram('app.js', ['--flag'], { stdio: 'ignore' });
const trace: CallTrace = readTrace(recorded.tracePath);
const tests: GeneratedTests = generateTests(trace, { traceDir: '.', outDir: 'generated_tests' });
const batch: BatchRunSummary = (await runBatch('set.jsonl', { mode: 'dummy' }, { out: 'r.jsonl' })).summary;
const code: string = new InvalidOptions('x').code;
console.log(figures, exit, tests.summary, batch.snippets, code);
`);
  writeFileSync(join(project, 'misuse.ts'), `import { runSnippet } from 'snipexec';
const status: number = (await runSnippet('1')).status;
console.log(status);
`);
  const r = sh(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
  const errors = r.stdout.split('\n').flatMap((line) => /^(\S+\(\d+,\d+\): error TS\d+)/.exec(line)?.[1] ?? []);
  assert.deepEqual(errors, ['misuse.ts(2,7): error TS2322'], r.stdout + r.stderr);
});

test('package: every guest bundle (the runtime and each environment) builds from the installed files', () => {
  writeFileSync(join(project, 'bundles.mjs'), `const src = new URL('./node_modules/snipexec/src/', import.meta.url);
const { ENVIRONMENTS } = await import(new URL('environments/registry.js', src));
const { environmentBundleRequest } = await import(new URL('environments/loadEnvironments.js', src));
const { RUNTIME_BUNDLE } = await import(new URL('sandbox/runtimeBundle.js', src));
const { bundleGuest } = await import(new URL('sandbox/bundleGuest.js', src));
const built = [];
for (const request of [RUNTIME_BUNDLE, ...ENVIRONMENTS.map(environmentBundleRequest)]) built.push((await bundleGuest(request)).name);
console.log(JSON.stringify(built));
`);
  const r = sh(process.execPath, ['bundles.mjs'], project);
  assert.equal(r.code, 0, r.stderr);
  const built = JSON.parse(r.stdout) as string[];
  assert.ok(built.length > 1 && built[0] === 'runtime', r.stdout);
});
