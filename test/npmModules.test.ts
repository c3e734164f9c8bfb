import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ivm from 'isolated-vm';
import { npmPackageOf, searchPath } from '../src/environments/findInstalledModule.ts';
import { loadEnvironments } from '../src/environments/loadEnvironments.ts';
import type { EnvironmentSpec } from '../src/environments/registry.ts';
import { moduleEnvironments, type ModuleUse } from '../src/environments/npmModules.ts';
import { environmentFilename } from '../src/protocol/environment.ts';
import { runSnippet } from '../src/index.ts';
import { formatHuman } from '../src/report/formatHuman.ts';
import type { GuestBundle } from '../src/sandbox/bundleGuest.ts';
import { cli } from './helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/modules/', import.meta.url));
const LODASH_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules/lodash/package.json'), 'utf8')) as { version: string }).version;

// The fixture packages, installed in a project of their own (git keeps no node_modules directory).
const PROJECT = mkdtempSync(join(tmpdir(), 'snipexec-modules-'));
cpSync(FIXTURES, join(PROJECT, 'node_modules'), { recursive: true });
// Installed a minute ago, as an install would be: a file written just before a build is not
// stamped into the bundle cache (its mtime could not tell a later change), see test/bundleCache.test.ts.
ageFiles(join(PROJECT, 'node_modules'), new Date(Date.now() - 60_000));
// A directory with no node_modules anywhere above it that snipexec could mistake for an install.
const ELSEWHERE = mkdtempSync(join(tmpdir(), 'snipexec-no-modules-'));

after(() => {
  // The bundle cache entries these tests made name files of PROJECT (relative to snipexec's root); they are of no use after.
  const cache = join(ROOT, 'node_modules/.cache/snipexec');
  for (const f of readdirSync(cache)) if (readFileSync(join(cache, f), 'utf8').includes(`${basename(PROJECT)}/`)) unlinkSync(join(cache, f));
  rmSync(PROJECT, { recursive: true, force: true });
  rmSync(ELSEWHERE, { recursive: true, force: true });
});

/** Evaluates module bundles in a bare isolate with a stand-in host, then `code`; returns what `code` returns (JSON). */
async function runBundles(bundles: readonly GuestBundle[], code: string): Promise<unknown> {
  const isolate = new ivm.Isolate({ memoryLimit: 128 });
  try {
    const context = await isolate.createContext();
    await context.eval(`
      const modules = Object.create(null);
      globalThis.require = (s) => { if (s in modules) return modules[s]; throw new Error('Cannot find module ' + s); };
      globalThis.__host = { global: globalThis, defineModule(s, v) { modules[s] = v; } };`);
    for (const b of bundles) {
      const factory = (await context.evalClosure(`return function (module, exports) {\n${b.code}\n}`, [], { result: { reference: true }, filename: environmentFilename(b.name) })) as ivm.Reference<unknown>;
      await context.evalClosure('const module = { exports: {} }; $0(module, module.exports); module.exports.setup(__host);', [factory.derefInto()], { timeout: 10_000 });
    }
    return JSON.parse((await context.eval(`JSON.stringify((() => { ${code} })())`, { timeout: 10_000 })) as string);
  } finally {
    isolate.dispose();
  }
}

const only = (uses: readonly ModuleUse[], specifier: string) => {
  const use = uses.find((u) => u.specifier === specifier);
  assert.ok(use, `${specifier} is listed`);
  return use;
};

test('npmPackageOf: bare specifiers name a package and a subpath; built-ins, paths and URLs are no npm module', () => {
  const cases: [string, { name: string; subpath: string } | undefined][] = [
    ['lodash', { name: 'lodash', subpath: '' }],
    ['lodash/fp', { name: 'lodash', subpath: 'fp' }],
    ['@scope/pkg', { name: '@scope/pkg', subpath: '' }],
    ['@scope/pkg/a/b.js', { name: '@scope/pkg', subpath: 'a/b.js' }],
    ['date-fns/addDays', { name: 'date-fns', subpath: 'addDays' }],
    ['fs', undefined], ['fs/promises', undefined], ['path', undefined], ['node:path', undefined], ['node:test', undefined], ['process', undefined],
    ['./util', undefined], ['../util', undefined], ['/abs/x.js', undefined], ['https://esm.sh/lodash', undefined], ['@scope', undefined], ['', undefined],
  ];
  for (const [specifier, expected] of cases) assert.deepEqual(npmPackageOf(specifier), expected, specifier);
});

test('searchPath: --modules directories first (a node_modules directory or one holding it), then node_modules from cwd up, never node_modules/node_modules', () => {
  assert.deepEqual(searchPath({ cwd: '/a/node_modules/b', dirs: ['/m', 'rel/node_modules'] }), [
    '/m/node_modules', '/a/node_modules/b/rel/node_modules', '/a/node_modules/b/node_modules', '/a/node_modules', '/node_modules',
  ]);
});

test('resolution from the working directory, walking up as Node does: the real lodash, bundled, runs in an isolate', async () => {
  const { bundles, modules } = await moduleEnvironments(['lodash', 'lodash/fp'], { cwd: join(ROOT, 'test/fixtures'), dirs: [] });
  assert.deepEqual(modules, [
    { specifier: 'lodash', version: LODASH_VERSION, dir: join(ROOT, 'node_modules/lodash'), status: 'bundled' },
    { specifier: 'lodash/fp', version: LODASH_VERSION, dir: join(ROOT, 'node_modules/lodash'), status: 'bundled' },
  ]);
  assert.deepEqual(bundles.map((b) => b.name), ['module:lodash', 'module:lodash/fp']);
  const out = await runBundles(bundles, `
    const _ = require('lodash'), fp = require('lodash/fp');
    return [_.groupBy([1.3, 2.1, 2.4], Math.floor), fp.map((x) => x * 2)([1, 2]), _.VERSION];`);
  assert.deepEqual(out, [{ 1: [1.3], 2: [2.1, 2.4] }, [2, 4], LODASH_VERSION]);
});

test('resolution from --modules directories, which come before the working directory\'s node_modules; scoped packages and subpaths', async () => {
  for (const dir of [PROJECT, join(PROJECT, 'node_modules')]) {
    const { bundles, modules } = await moduleEnvironments(['tiny-pure', 'lodash', '@fixture/scoped', '@fixture/scoped/sub'], { cwd: ROOT, dirs: [dir] });
    assert.deepEqual(modules.map((m) => [m.specifier, m.status, m.version, m.dir]), [
      ['tiny-pure', 'bundled', '1.2.3', join(PROJECT, 'node_modules/tiny-pure')],
      ['lodash', 'bundled', '0.0.0-fixture', join(PROJECT, 'node_modules/lodash')],
      ['@fixture/scoped', 'bundled', '2.0.0', join(PROJECT, 'node_modules/@fixture/scoped')],
      ['@fixture/scoped/sub', 'bundled', '2.0.0', join(PROJECT, 'node_modules/@fixture/scoped')],
    ], dir);
    const out = await runBundles(bundles, `return [require('tiny-pure').label(7), require('lodash').groupBy(), require('@fixture/scoped').name, require('@fixture/scoped/sub').name];`);
    assert.deepEqual(out, ['item-007', 'fixture groupBy', 'scoped', 'scoped/sub'], dir);
  }
  // A relative --modules directory is read from the working directory.
  const relative = await moduleEnvironments(['tiny-pure'], { cwd: PROJECT, dirs: ['.'] });
  assert.equal(only(relative.modules, 'tiny-pure').status, 'bundled');
});

test('not installed, Node built-ins and paths: built-ins and paths are not listed, a missing package is', async () => {
  const { bundles, modules } = await moduleEnvironments(['fs', 'node:path', 'fs/promises', './local', 'tiny-pure', 'lodash'], { cwd: ELSEWHERE, dirs: [] });
  assert.deepEqual(modules, [{ specifier: 'tiny-pure', status: 'not-installed' }, { specifier: 'lodash', status: 'not-installed' }]);
  assert.deepEqual(bundles, []);
});

test('refusal: native addons, a Node built-in no environment gives, a bundler error, a bundle over the size cap', async () => {
  const cases: { specifier: string; status: ModuleUse['status']; reason: RegExp; maxBundleBytes?: number }[] = [
    { specifier: 'native-addon', status: 'not-pure', reason: /^a native addon: build\/Release\/addon\.node$/ },
    { specifier: 'gyp-addon', status: 'not-pure', reason: /^a native addon: binding\.gyp$/ },
    { specifier: 'needs-fs', status: 'not-pure', reason: /^it needs the Node built-in "fs", which no environment of this run gives$/ },
    { specifier: 'broken', status: 'not-pure', reason: /^it could not be bundled: .*Unexpected/ },
    { specifier: 'tiny-pure', status: 'too-large', reason: /^its bundle is 1 KB, over the 1 KB a module may take$/, maxBundleBytes: 10 },
  ];
  for (const c of cases) {
    const { bundles, modules } = await moduleEnvironments([c.specifier], { cwd: PROJECT, dirs: [], ...(c.maxBundleBytes ? { maxBundleBytes: c.maxBundleBytes } : {}) });
    const use = only(modules, c.specifier);
    assert.equal(use.status, c.status, c.specifier);
    assert.match(use.reason ?? '', c.reason, c.specifier);
    assert.equal(use.dir, join(PROJECT, 'node_modules', c.specifier), c.specifier);
    assert.deepEqual(bundles, [], c.specifier);
  }
});

test('a file the package\'s `browser` field maps to false is an empty module, as for bundlers, not a path out of the package', async () => {
  const { bundles, modules } = await moduleEnvironments(['browser-false'], { cwd: PROJECT, dirs: [] });
  assert.deepEqual(modules.map((m) => [m.specifier, m.status, m.reason]), [['browser-false', 'bundled', undefined]]);
  assert.equal(await runBundles(bundles, 'return require("browser-false").kind;'), 'disabled');
});

test('loadEnvironments: installed modules load after the registry\'s environments; a package an environment provides is its own', async () => {
  const registry: EnvironmentSpec[] = [{ name: 'demo', entry: '../../../test/fixtures/environments/demo.ts', globals: ['b'], modules: ['jquery', 'react-dom/client'], needs: [], summary: '' }];
  const loaded = await loadEnvironments({ globals: ['b'], modules: ['tiny-pure', 'jquery', 'jquery/dist/jquery.slim', 'react-dom/client', 'path', 'nowhere'] }, registry, { cwd: PROJECT, dirs: [] });
  assert.deepEqual(loaded.bundles.map((b) => b.name), ['demo', 'module:tiny-pure']);
  assert.deepEqual(loaded.modules?.map((m) => [m.specifier, m.status]), [['tiny-pure', 'bundled'], ['nowhere', 'not-installed']]);
});

/** Bundles `specifier` from PROJECT in a process of its own; returns the bundle's code. */
function bundleInChild(specifier: string): string {
  const script = `import { moduleEnvironments } from ${JSON.stringify(join(ROOT, 'src/environments/npmModules.ts'))};
const { bundles } = await moduleEnvironments([${JSON.stringify(specifier)}], { cwd: ${JSON.stringify(PROJECT)}, dirs: [] });
process.stdout.write(bundles[0]?.code ?? 'no bundle');`;
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** The disk cache entries whose inputs include PROJECT's `file`, with their mtimes. */
function cacheEntriesFor(file: string): [string, number][] {
  const input = `${basename(PROJECT)}/node_modules/${file}`;
  const cache = join(ROOT, 'node_modules/.cache/snipexec');
  return readdirSync(cache).filter((f) => f.endsWith('.json') && readFileSync(join(cache, f), 'utf8').includes(input)).map((f) => [f, statSync(join(cache, f)).mtimeMs]);
}

test('bundles are cached on disk: a second process reuses the entry, a changed installed file is bundled again', () => {
  const pad = join(PROJECT, 'node_modules/tiny-pure/pad.js');
  const first = bundleInChild('tiny-pure');
  const entries = cacheEntriesFor('tiny-pure/pad.js');
  assert.equal(entries.length, 1, JSON.stringify(entries));
  const second = bundleInChild('tiny-pure');
  assert.equal(second, first);
  // Rewritten by a build, the entry would have a new mtime (it is replaced by a rename).
  assert.deepEqual(cacheEntriesFor('tiny-pure/pad.js'), entries, 'the second process read the entry and did not rebuild');
  // An upgrade: the installed file changes, so the bundle is built again with it.
  writeFileSync(pad, "exports.pad = (n, width) => String(n).padStart(width, '*');\n");
  const third = bundleInChild('tiny-pure');
  assert.notEqual(third, first);
  assert.match(third, /padStart\([^)]*"\*"\)/);
  writeFileSync(pad, "exports.pad = (n, width) => String(n).padStart(width, '0');\n");
});

test('CLI: --modules is checked before anything runs and names the flag', () => {
  const r = cli(['run', '-', '--json', '--modules', join(ELSEWHERE, 'missing')], 'console.log(1)');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--modules \S*missing: not a directory: .*missing/);
});

test('end to end: _.groupBy is lodash\'s when lodash is installed; the module is listed, not injected', async () => {
  const code = "const _ = require('lodash');\nconst g = _.groupBy([1.3, 2.1, 2.4], Math.floor); console.log(g)\n";
  const r = await runSnippet(code);
  assert.equal(r.status, 'completed');
  assert.equal(r.stdout, "{ '1': [ 1.3 ], '2': [ 2.1, 2.4 ] }\n");
  assert.deepEqual([r.lines.covered, r.lines.total], [2, 2]);
  assert.deepEqual(r.modules, [{ specifier: 'lodash', version: LODASH_VERSION, provider: 'module', status: 'bundled' }]);
  assert.deepEqual(r.injections.map((i) => i.element), []);
  const human = formatHuman(r, code, false);
  assert.match(human, /^module: lodash \S+ \(installed, run for real\)$/m);
  assert.doesNotMatch(human, /injected definitions/);
});

test('end to end: a module not installed or not pure is synthesized as before, and the result says why', async () => {
  const code = "const pad = require('left-pad'); const addon = require('native-addon');\nconsole.log(typeof pad, typeof addon)\n";
  const r = await runSnippet(code, { modulesDirs: [PROJECT] });
  assert.deepEqual(r.modules, [
    { specifier: 'left-pad', status: 'not-installed' },
    { specifier: 'native-addon', version: '1.0.0', status: 'not-pure', reason: 'a native addon: build/Release/addon.node' },
  ]);
  assert.deepEqual(r.injections.map((i) => i.element).sort(), ['require("left-pad")', 'require("native-addon")']);
  const human = formatHuman(r, code, false);
  assert.match(human, /^module: left-pad not installed; its values are synthesized/m);
  assert.match(human, /^module: native-addon 1\.0\.0 not run \(not-pure: a native addon: build\/Release\/addon\.node\)/m);
});

test('end to end: a module needing a Node built-in runs for real when an environment of the run gives that built-in (its require is the snippet\'s), and is refused when none does', async () => {
  const given = await runSnippet("const path = require('path');\nconst { joined } = require('needs-path');\nconsole.log(joined('a', 'b'))\n", { modulesDirs: [PROJECT] });
  assert.equal(given.stdout, 'a/b!\n');
  assert.deepEqual(given.modules, [{ specifier: 'needs-path', version: '1.0.0', provider: 'module', status: 'bundled' }]);
  assert.deepEqual(given.injections.map((i) => i.element), []);
  const none = await runSnippet("const { joined } = require('needs-path');\nconsole.log(typeof joined)\n", { modulesDirs: [PROJECT] });
  assert.deepEqual(none.modules, [{ specifier: 'needs-path', version: '1.0.0', status: 'not-pure', reason: 'it needs the Node built-in "path", which no environment of this run gives' }]);
});

test('CLI: a module found through --modules, or from the working directory, runs for real', () => {
  const code = "const { label } = require('tiny-pure');\nconsole.log(label(7))\n";
  const cases: { name: string; args: string[]; cwd: string; stdout: string; status: string }[] = [
    { name: '--modules DIR', args: ['--modules', PROJECT], cwd: ELSEWHERE, stdout: 'item-007\n', status: 'bundled' },
    { name: '--modules given twice, both searched in order', args: ['--modules', join(PROJECT, 'node_modules'), '--modules', ROOT], cwd: ELSEWHERE, stdout: 'item-007\n', status: 'bundled' },
    { name: 'working directory', args: [], cwd: join(PROJECT, 'node_modules/tiny-pure'), stdout: 'item-007\n', status: 'bundled' },
    { name: 'nowhere', args: [], cwd: ELSEWHERE, stdout: '', status: 'not-installed' },
  ];
  for (const c of cases) {
    const r = cli(['run', '-', '--json', ...c.args], code, 60_000, process.env, c.cwd);
    assert.equal(r.code === 0 || r.code === 1, true, `${c.name}: ${r.stderr}`);
    const result = JSON.parse(r.stdout) as { stdout: string; modules?: { specifier: string; status: string; provider?: string }[] };
    assert.equal(result.modules?.[0]?.status, c.status, c.name);
    if (c.status === 'bundled') {
      assert.equal(result.stdout, c.stdout, c.name);
      assert.equal(result.modules?.[0]?.provider, 'module', c.name);
    }
  }
});

/** Sets the access and modification times of every file under dir. */
function ageFiles(dir: string, when: Date): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) ageFiles(path, when);
    else utimesSync(path, when, when);
  }
}
