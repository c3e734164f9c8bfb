// The guest bundles' disk cache (src/sandbox/bundleGuest.ts): an entry is written only when every
// input is a file whose stamp can vouch for the bundle, and a module esbuild leaves out does not
// keep the bundle from being cached.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleGuestSync, isFileInput } from '../src/sandbox/bundleGuest.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/snipexec');
const DIR = mkdtempSync(join(tmpdir(), 'snipexec-bundle-cache-'));
after(() => rmSync(DIR, { recursive: true, force: true }));

/** The disk entries whose inputs name `file`. */
function entriesFor(file: string): string[] {
  return readdirSync(CACHE).filter((f) => f.endsWith('.json') && readFileSync(join(CACHE, f), 'utf8').includes(file));
}
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

test('bundle cache: inputs that are no files are not stamped', () => {
  assert.equal(isFileInput('src/guest/environments/node/index.ts'), true);
  assert.equal(isFileInput('(disabled):fs'), false);
  assert.equal(isFileInput('<define:process.env.NODE_DEBUG>'), false);
});

test('bundle cache: a bundle whose input changed while it was built is not written; the same input, older, is', () => {
  const name = `fresh-${unique()}`;
  const entry = join(DIR, `${name}.js`);
  writeFileSync(entry, 'module.exports = { setup() {} };\n');
  // Dated a little ahead, as a file changed while the build ran would be: no timing of this machine's decides it.
  const soon = new Date(Date.now() + 10_000);
  utimesSync(entry, soon, soon);
  const first = bundleGuestSync({ name, entry });
  assert.match(first.code, /setup/);
  assert.deepEqual(entriesFor(`${name}.js`), [], 'an input changed during the build: its stamp may not tell a later change');
  const past = new Date(Date.now() - 60_000);
  utimesSync(entry, past, past);
  bundleGuestSync({ name: `${name}-again`, entry });
  assert.equal(entriesFor(`${name}.js`).length, 1, 'the same input a minute old is stamped and cached');
});

test('bundle cache: a module esbuild leaves out ((disabled):…) does not keep the bundle from being cached', () => {
  const name = `disabled-${unique()}`;
  const pkg = join(DIR, name);
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name, browser: { './server.js': false } }));
  writeFileSync(join(pkg, 'server.js'), 'module.exports = 1;\n');
  writeFileSync(join(pkg, 'index.js'), "const s = require('./server.js');\nmodule.exports = { setup() { return s; } };\n");
  const past = new Date(Date.now() - 60_000);
  for (const f of ['package.json', 'server.js', 'index.js']) utimesSync(join(pkg, f), past, past);
  bundleGuestSync({ name, entry: join(pkg, 'index.js') });
  const entries = entriesFor(`${name}/index.js`);
  assert.equal(entries.length, 1, 'cached on disk');
  const cached = JSON.parse(readFileSync(join(CACHE, entries[0] ?? ''), 'utf8')) as { inputs: [string, number, number][] };
  assert.ok(cached.inputs.every(([f]) => isFileInput(f)), JSON.stringify(cached.inputs));
});

test("bundle: minify 'keep-names' drops whitespace and comments but renames nothing: functions and classes keep their names", () => {
  const contents = `// a comment\nclass Widget {\n  render() { return 1; }\n}\nfunction helperFunction(longParameterName) {\n  return longParameterName + 1;\n}\nmodule.exports = [Widget.name, helperFunction.name, helperFunction.toString().includes('longParameterName')];\n`;
  const request = { name: `keep-names-${unique()}`, entry: { contents, resolveDir: DIR } };
  const plain = bundleGuestSync(request).code;
  const kept = bundleGuestSync({ ...request, minify: 'keep-names' }).code;
  const full = bundleGuestSync({ ...request, minify: true }).code;
  const evaluate = (code: string) => {
    const module = { exports: {} };
    new Function('module', 'exports', code)(module, module.exports);
    return module.exports;
  };
  assert.deepEqual(evaluate(kept), ['Widget', 'helperFunction', true]);
  assert.ok(kept.length < plain.length && !kept.includes('a comment'), kept);
  assert.notDeepEqual(evaluate(full), ['Widget', 'helperFunction', true], 'full minification renames, which keep-names exists to avoid');
});
