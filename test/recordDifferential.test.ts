import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { selected } from './helpers.ts';
import { layOutExample, PACKAGE_EXAMPLES, RECORD_PACKAGES } from './recordPackages.ts';

// Real npm packages, each driven by a README-style example (recordPackages.ts), run with plain node
// and under record: stdout, stderr and exit code must be the same bytes.
const PROBE = fileURLToPath(new URL('./fixtures/record/probes/recordProbe.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'snipexec-differential-'));
after(() => rmSync(work, { recursive: true, force: true }));
const EXAMPLES = PACKAGE_EXAMPLES;

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

const installed = existsSync(join(RECORD_PACKAGES, 'node_modules', '.package-lock.json'));

test('record differential: the fixture packages are installed (npm install at the root runs npm ci in test/fixtures/record-packages)', () => {
  assert.ok(installed, `run: npm ci --prefix ${RECORD_PACKAGES} --ignore-scripts`);
  assert.ok(EXAMPLES.length >= 20, `${EXAMPLES.length} examples`);
});

// Two examples at a time: each runs two Node processes one after the other.
const results = new Map<string, Promise<{ plain: Run; recorded: Run }>>();
let chain: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
for (const [i, example] of selected(EXAMPLES).entries()) {
  if (!installed) break;
  const lane = i % 2;
  const result = (chain[lane] as Promise<unknown>).then(async () => {
    const dir = layOutExample(example, work);
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
