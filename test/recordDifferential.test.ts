import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { selected } from './helpers.ts';

/**
 * Real npm packages (test/fixtures/record-packages, installed from its lock file by the root's
 * `npm install`), each driven by a README-style example, run with plain node and under record:
 * stdout, stderr and exit code must be the same bytes. A package's files are copied next to its
 * example, outside node_modules, so that record instruments them as the program's own.
 */
const PACKAGES = fileURLToPath(new URL('./fixtures/record-packages/', import.meta.url));
const PROBE = fileURLToPath(new URL('./fixtures/record/probes/recordProbe.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'snipexec-differential-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Example {
  readonly name: string;
  /** The example's file name (`semver.cjs`): the package is the name without its extension. */
  readonly file: string;
}

const EXAMPLES: Example[] = readdirSync(join(PACKAGES, 'examples')).sort().map((file) => ({ name: file.replace(/\.[cm]?js$/, ''), file }));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(argv: string[], cwd: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}

/** A folder holding the example as `example.*` and a copy of its package by name; other packages resolve through node_modules. */
export function layOut(example: Example, into: string): string {
  const dir = join(into, example.name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(PACKAGES, 'node_modules', example.name), join(dir, example.name), { recursive: true });
  cpSync(join(PACKAGES, 'examples', example.file), join(dir, example.file));
  symlinkSync(join(PACKAGES, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

const installed = existsSync(join(PACKAGES, 'node_modules', '.package-lock.json'));

test('record differential: the fixture packages are installed (npm install at the root runs npm ci in test/fixtures/record-packages)', () => {
  assert.ok(installed, `run: npm ci --prefix ${PACKAGES} --ignore-scripts`);
  assert.ok(EXAMPLES.length >= 20, `${EXAMPLES.length} examples`);
});

// Two examples at a time: each runs two Node processes one after the other.
const results = new Map<string, Promise<{ plain: Run; recorded: Run }>>();
let chain: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
for (const [i, example] of selected(EXAMPLES).entries()) {
  if (!installed) break;
  const lane = i % 2;
  const result = (chain[lane] as Promise<unknown>).then(async () => {
    const dir = layOut(example, work);
    const plain = await run([example.file], dir);
    const recorded = await run([PROBE, example.file], dir);
    return { plain, recorded };
  });
  chain[lane] = result.catch(() => undefined);
  results.set(example.name, result);
}

for (const example of selected(EXAMPLES)) {
  test(`record differential: ${example.name} gives the same stdout, stderr and exit code`, { skip: !installed, timeout: 180_000 }, async () => {
    const { plain, recorded } = await (results.get(example.name) as Promise<{ plain: Run; recorded: Run }>);
    assert.equal(plain.status, 0, `the example fails under plain node: ${plain.stderr}`);
    assert.ok(plain.stdout.length > 0, 'the example prints nothing');
    assert.deepEqual(recorded, plain);
  });
}
