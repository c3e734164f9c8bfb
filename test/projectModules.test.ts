// A snippet that is a file of a project (projectDir): its relative imports are the project's real
// files, bundled into the sandbox; packages they import, and anything outside the project, are not.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { rmSync } from 'node:fs';
import { runSnippet } from '../src/index.ts';
import { runDiff } from '../src/diff/runDiff.ts';
import { cli, gitRepo, injected } from './helpers.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A project directory holding `files` (paths relative to it). */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-project-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const HELPER = `'use strict';
var pad = require('left-pad-not-installed');
var calls = 0;
exports.isObject = function isObject(v) { calls++; return v !== null && typeof v === 'object'; };
exports.calls = function () { return calls; };
exports.padded = function (s) { return pad(s, 5); };
`;
const MAIN = `var helper = require('../lib/helper');
console.log(helper.isObject(null), helper.isObject({}), helper.calls());
console.log(typeof helper.padded('x'));
`;

test('project modules: a relative require is the project\'s real file; the package it requires is learnt', async () => {
  const dir = project({ 'lib/helper.js': HELPER, 'src/main.js': MAIN });
  const r = await runSnippet(MAIN, { fileName: 'src/main.js', projectDir: dir, scenarios: 1 });
  assert.equal(r.status, 'completed');
  assert.equal(r.stdout.split('\n')[0], 'false true 2', 'the real isObject ran (null is no object) and kept its own state');
  assert.equal(injected(r, 'require("../lib/helper")'), undefined, 'nothing injected for the project file');
  assert.notEqual(injected(r, 'require("left-pad-not-installed")'), undefined, 'the package the project file requires is the value generator\'s');
  assert.ok(r.environments?.loaded.includes('project'));
  assert.deepEqual(r.modules?.filter((m) => m.specifier.startsWith('.')), [{ specifier: '../lib/helper', provider: 'module', status: 'bundled' }]);
});

test('project modules: without projectDir a relative require is a learnt value, as before', async () => {
  const r = await runSnippet(MAIN, { fileName: 'src/main.js', scenarios: 1 });
  assert.notEqual(injected(r, 'require("../lib/helper")'), undefined);
  assert.ok(!r.environments?.loaded.includes('project'));
});

test('project modules: an ES module whose only export is its default is that value (import x from)', async () => {
  const main = `import utils from './utils.js';\nconsole.log(utils.twice(21));\n`;
  const dir = project({ 'utils.js': 'export default { twice: (x) => x * 2 };\n', 'main.mjs': main });
  const r = await runSnippet(main, { fileName: 'main.mjs', projectDir: dir, scenarios: 1 });
  assert.equal(r.stdout, '42\n');
  assert.equal(injected(r, 'require("./utils.js")'), undefined);
});

test('project modules: a project file that requires a file outside the project loads nothing: the module is learnt', async () => {
  const outside = project({ 'secret.js': 'module.exports = "HOST-SECRET-1234";\n' });
  const main = `var h = require('./helper');\nconsole.log(String(h.value));\n`;
  const dir = project({ 'helper.js': `exports.value = require(${JSON.stringify(join(outside, 'secret.js'))});\n`, 'main.js': main });
  const r = await runSnippet(main, { fileName: 'main.js', projectDir: dir, scenarios: 1 });
  assert.doesNotMatch(JSON.stringify(r), /HOST-SECRET-1234/);
  assert.notEqual(injected(r, 'require("./helper")'), undefined);
  assert.equal(r.modules?.find((m) => m.specifier === './helper')?.status, 'not-installed', 'listed with why');
});

test('project modules: a symbolic link out of the project is refused like a path out of it', async () => {
  const outside = project({ 'secret.js': 'module.exports = "HOST-SECRET-5678";\n' });
  const main = `var s = require('./linked');\nconsole.log(String(s));\n`;
  const dir = project({ 'main.js': main });
  symlinkSync(join(outside, 'secret.js'), join(dir, 'linked.js'));
  const r = await runSnippet(main, { fileName: 'main.js', projectDir: dir, scenarios: 1 });
  assert.doesNotMatch(JSON.stringify(r), /HOST-SECRET-5678/);
});

test('project modules: a relative import that names no file is listed as not installed; the others load', async () => {
  const main = `var h = require('./helper');\nvar m = require('./missing');\nconsole.log(h.isObject(null));\n`;
  const dir = project({ 'helper.js': HELPER, 'main.js': main });
  const r = await runSnippet(main, { fileName: 'main.js', projectDir: dir, scenarios: 1 });
  assert.equal(r.stdout.split('\n')[0], 'false');
  assert.deepEqual(r.modules?.filter((m) => m.specifier.startsWith('.')).map((m) => [m.specifier, m.status, m.reason]), [['./helper', 'bundled', undefined], ['./missing', 'not-installed', 'no such file in the project']]);
});

test('project modules: a project file whose top level throws is learnt instead; the snippet runs on', async () => {
  const main = `var h = require('./broken');\nconsole.log('after');\n`;
  const dir = project({ 'broken.js': 'throw new Error("cannot load here");\n', 'main.js': main });
  const r = await runSnippet(main, { fileName: 'main.js', projectDir: dir, scenarios: 1 });
  assert.equal(r.status, 'completed');
  assert.equal(r.stdout, 'after\n');
  assert.notEqual(injected(r, 'require("./broken")'), undefined);
  assert.deepEqual(r.modules?.find((m) => m.specifier === './broken'), { specifier: './broken', status: 'not-pure', reason: 'it threw while loading: cannot load here' });
});

test('project modules: `run FILE --project DIR` names the file relative to the project, from any working directory', () => {
  const dir = project({ 'lib/helper.js': HELPER, 'src/main.js': MAIN });
  const r = cli(['run', 'main.js', '--project', '..', '--json'], undefined, 60_000, process.env, join(dir, 'src'));
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout) as { stdout: string; injections: { element: string }[] };
  assert.match(result.stdout, /^false true 2\n/);
  assert.ok(!result.injections.some((i) => i.element === 'require("../lib/helper")'));
});

// axios-style (isAxiosError): the change replaces a helper of the next file by an inline check
// that lets `null` through. With the helper real, the base version returns false for null.
const IS_ERROR_BEFORE = `'use strict';
var utils = require('./utils');
module.exports = function isAppError(payload) {
  return utils.isObject(payload) && (payload.isAppError === true);
};
`;
const IS_ERROR_AFTER = IS_ERROR_BEFORE.replace('utils.isObject(payload)', "(typeof payload === 'object')");
const UTILS = `'use strict';
exports.isObject = function isObject(thing) { return thing !== null && typeof thing === 'object'; };
`;

test('diff: a helper of another file of the repository runs for real, so the base version handles the edge value the change lets through', async () => {
  const dir = gitRepo({ 'isAppError.js': IS_ERROR_BEFORE, 'utils.js': UTILS });
  writeFileSync(join(dir, 'isAppError.js'), IS_ERROR_AFTER);
  const report = await runDiff({ cwd: dir });
  assert.deepEqual(report.findings.map((f) => [f.line, f.message, f.how]), [[4, "Cannot read properties of null (reading 'isAppError')", 'edge']]);
});
