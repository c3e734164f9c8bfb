import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { cli, selected } from './helpers.ts';

/**
 * A snippet may load an installed npm module, bundled into the isolate as itself; it may never load
 * a host file through one. Each case runs the CLI in a directory whose node_modules holds small
 * packages, beside a `secret/` folder whose every file holds SECRET. A path out of the package is
 * the same "module not available" as a package that is not installed: in `--mode none` the snippet's
 * require throws `Cannot find module`, and nothing of the secret reaches any output.
 */
const SECRET = 'TOPSECRET-7f3a';

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'snipexec-modules-'));
  writeTree(root, {
    'secret/creds.json': JSON.stringify({ key: SECRET }),
    'secret/notes.txt': SECRET,
    'secret/evil.js': `module.exports = ${JSON.stringify(SECRET)};`,
    'secret/evil.cjs': `module.exports = ${JSON.stringify(SECRET)};`,
    'node_modules/pkg/package.json': JSON.stringify({ name: 'pkg', version: '1.0.0' }),
    'node_modules/pkg/index.js': 'module.exports = "pkg-main";',
    'node_modules/pkg/sub.js': 'module.exports = "pkg-sub";',
    'node_modules/pkg/data.txt': SECRET,
    'node_modules/pkg/extensionless': `module.exports = ${JSON.stringify(SECRET)};`,
    // A package whose main points out of it.
    'node_modules/mainout/package.json': JSON.stringify({ name: 'mainout', version: '1.0.0', main: '../../secret/evil.js' }),
    // A package whose own code reaches out of it with a relative require.
    'node_modules/reacher/package.json': JSON.stringify({ name: 'reacher', version: '1.0.0' }),
    'node_modules/reacher/index.js': 'module.exports = require("../../secret/evil.js");',
    // A package that reaches into a sibling package with a relative path.
    'node_modules/sibling/package.json': JSON.stringify({ name: 'sibling', version: '1.0.0' }),
    'node_modules/sibling/index.js': 'module.exports = require("../pkg/data.txt");',
    // A package that requires an absolute path.
    'node_modules/absolute/package.json': JSON.stringify({ name: 'absolute', version: '1.0.0' }),
    'node_modules/absolute/index.js': `module.exports = require(${JSON.stringify(join(root, 'secret/evil.js'))});`,
    // A package with an exports map: only "." and "./public" are exported.
    'node_modules/expo/package.json': JSON.stringify({ name: 'expo', version: '1.0.0', exports: { '.': './index.js', './public': './public.js' } }),
    'node_modules/expo/index.js': 'module.exports = "expo-main";',
    'node_modules/expo/public.js': 'module.exports = "expo-public";',
    'node_modules/expo/private.js': `module.exports = ${JSON.stringify(SECRET)};`,
    // A package whose requirement of another installed package is legitimate.
    'node_modules/user/package.json': JSON.stringify({ name: 'user', version: '1.0.0' }),
    'node_modules/user/index.js': 'module.exports = require("pkg") + "+user";',
    'node_modules/@scope/thing/package.json': JSON.stringify({ name: '@scope/thing', version: '1.0.0' }),
    'node_modules/@scope/thing/index.js': 'module.exports = "scoped";',
  });
  // A file inside a package that is a symbolic link out of it, and a whole package that is one.
  mkdirSync(join(root, 'node_modules/linky'));
  writeFileSync(join(root, 'node_modules/linky/package.json'), JSON.stringify({ name: 'linky', version: '1.0.0' }));
  symlinkSync(join(root, 'secret/evil.js'), join(root, 'node_modules/linky/index.js'));
  symlinkSync(join(root, 'secret'), join(root, 'node_modules/linkdir'));
  return root;
}

interface ModuleCase {
  readonly name: string;
  readonly specifier: string;
  /** What the snippet prints when the module loads; undefined when it must not load. */
  readonly loads?: string;
  /** A specifier that is no npm package name (a backslash in it) is not in the module list at all. */
  readonly unlisted?: true;
}

const CASES: readonly ModuleCase[] = [
  { name: '.. out of a package to a JSON file', specifier: 'pkg/../../secret/creds.json' },
  { name: '.. out of a package to a text file', specifier: 'pkg/../../secret/notes.txt' },
  { name: '.. out of a package to a script', specifier: 'pkg/../../secret/evil.js' },
  { name: '. then .. out of a package', specifier: 'pkg/./../../secret/evil.cjs' },
  { name: 'an empty segment then ..', specifier: 'pkg//../../secret/evil.js' },
  { name: 'backslashes out of a package', specifier: 'pkg\\..\\..\\secret\\evil.js', unlisted: true },
  { name: 'a scoped package and ..', specifier: '@scope/thing/../../../secret/evil.js' },
  { name: 'a main field out of the package', specifier: 'mainout' },
  { name: "a package's own relative require out of it", specifier: 'reacher' },
  { name: "a package's relative require into a sibling's text file", specifier: 'sibling' },
  { name: "a package's require of an absolute host path", specifier: 'absolute' },
  { name: 'a file in a package that links out of it', specifier: 'linky' },
  { name: 'a package that is a link to a host folder', specifier: 'linkdir/evil.js' },
  { name: 'a subpath the exports map does not export', specifier: 'expo/private.js' },
  { name: 'a text file inside the package', specifier: 'pkg/data.txt' },
  { name: 'an extensionless file inside the package', specifier: 'pkg/extensionless' },
  { name: 'a plain subpath still loads', specifier: 'pkg/sub.js', loads: 'pkg-sub' },
  { name: 'an exported subpath still loads', specifier: 'expo/public', loads: 'expo-public' },
  { name: 'a package requiring another installed package still loads', specifier: 'user', loads: 'pkg-main+user' },
];

const root = fixture();

for (const c of selected(CASES)) {
  test(`hostile modules: ${c.name}`, () => {
    const code = `const m = require(${JSON.stringify(c.specifier)});\nconsole.log(typeof m === 'string' ? m : JSON.stringify(m));\n`;
    const before = readdirSync(root).sort();
    const r = cli(['run', '-', '--json', '--mode', 'none', '--timeout', '60000'], code, 120_000, process.env, root);
    assert.equal(r.signal, null, r.stderr);
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), `no host file content in any output: ${r.stdout.slice(0, 400)} ${r.stderr.slice(0, 400)}`);
    assert.deepEqual(readdirSync(root).sort(), before, 'nothing written beside the packages');
    const result = JSON.parse(r.stdout) as { status: string; stdout: string; errors: { type: string; message: string }[]; modules?: { specifier: string; status: string; reason?: string }[] };
    const listed = result.modules?.find((m) => m.specifier === c.specifier);
    if (c.loads !== undefined) {
      assert.equal(result.status, 'completed', JSON.stringify(result.errors));
      assert.equal(result.stdout, `${c.loads}\n`);
      assert.equal(listed?.status, 'bundled');
      return;
    }
    assert.equal(result.status, 'stopped', JSON.stringify(result));
    assert.deepEqual(result.errors.map((e) => [e.type, e.message]), [['Error', `Cannot find module '${c.specifier}'`]]);
    assert.equal(result.stdout, '');
    if (c.unlisted) assert.equal(listed, undefined);
    else assert.equal(listed?.status, 'not-installed', JSON.stringify(listed));
  });
}
