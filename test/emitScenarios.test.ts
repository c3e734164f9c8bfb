import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runWithNode } from '../src/emit/runWithNode.ts';
import { cli } from './helpers.ts';

// `--emit FILE --scenario K` and `--emit-dir DIR` (issue 13): each kept scenario's completed program.
const ADMIN = "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('user');\n}\n";
const ADMIN_TS = "if (user.isAdmin) {\n  const who: string = 'admin';\n  console.log(who);\n} else {\n  console.log('user');\n}\n";

const dir = mkdtempSync(join(tmpdir(), 'snipexec-scenarios-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const snippet = join(dir, 'admin.js');
writeFileSync(snippet, ADMIN);
const typedSnippet = join(dir, 'admin.ts');
writeFileSync(typedSnippet, ADMIN_TS);

/** What a written program prints under plain node. */
async function printed(file: string): Promise<string> {
  const run = await runWithNode(readFileSync(file, 'utf8'), { timeoutMs: 30_000, ext: file.endsWith('.ts') ? '.ts' : '.js' });
  assert.equal(run.exitCode, 0, run.output);
  return run.output;
}

test('emit scenarios: --emit FILE writes scenario 1 by default, --scenario 2 the other branch', async () => {
  const first = join(dir, 'first.js');
  const second = join(dir, 'second.js');
  const one = join(dir, 'one.js');
  assert.equal(cli(['run', snippet, '--emit', first]).code, 0);
  assert.equal(cli(['run', snippet, '--emit', one, '--scenario', '1']).code, 0);
  const r = cli(['run', snippet, '--emit', second, '--scenario', '2', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).stdout, 'admin\n', 'the printed result stays the first execution');
  assert.equal(await printed(first), 'admin\n');
  assert.equal(readFileSync(one, 'utf8'), readFileSync(first, 'utf8'), '--scenario 1 is the default');
  assert.equal(await printed(second), 'user\n');
});

test('emit scenarios: --emit-dir DIR writes every kept scenario, scenario-1.js, scenario-2.js', async () => {
  const out = join(dir, 'all', 'programs');
  const r = cli(['run', snippet, '--emit-dir', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['scenario-1.js', 'scenario-2.js'], 'made when missing; one file per kept scenario');
  assert.equal(await printed(join(out, 'scenario-1.js')), 'admin\n');
  assert.equal(await printed(join(out, 'scenario-2.js')), 'user\n');
});

test('emit scenarios: a TypeScript snippet gives .ts programs that keep its types, as --emit FILE.ts does', async () => {
  const out = join(dir, 'typed');
  const r = cli(['run', typedSnippet, '--emit-dir', out, '--emit', join(dir, 'second.ts'), '--scenario', '2']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['scenario-1.ts', 'scenario-2.ts']);
  assert.match(readFileSync(join(out, 'scenario-1.ts'), 'utf8'), /const who: string = 'admin';/);
  assert.equal(await printed(join(out, 'scenario-1.ts')), 'admin\n');
  assert.equal(await printed(join(out, 'scenario-2.ts')), 'user\n');
  assert.equal(readFileSync(join(dir, 'second.ts'), 'utf8'), readFileSync(join(out, 'scenario-2.ts'), 'utf8'));
});

test('emit scenarios: --scenario past the kept ones, not a positive integer, or without --emit is a usage error', () => {
  const past = join(dir, 'past.js');
  const r = cli(['run', snippet, '--emit', past, '--scenario', '3']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--scenario: 3, but this run kept 2 scenarios/);
  assert.equal(existsSync(past), false, 'nothing written');
  const once = cli(['run', snippet, '--emit', past, '--scenario', '2', '--scenarios', '1']);
  assert.equal(once.code, 2);
  assert.match(once.stderr, /kept 1 scenario \(--scenario 1\)/);
  for (const k of ['0', '-1', '1.5', 'two']) {
    const bad = cli(['run', snippet, '--emit', past, '--scenario', k]);
    assert.equal(bad.code, 2, k);
    assert.match(bad.stderr, /--scenario <k>' argument '.*' is invalid/, k);
  }
  const alone = cli(['run', snippet, '--scenario', '2']);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--scenario: needs --emit FILE/);
  const notDir = cli(['run', snippet, '--emit-dir', snippet]);
  assert.equal(notDir.code, 2);
  assert.match(notDir.stderr, /not a directory/);
});
