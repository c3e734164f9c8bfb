import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { cli, selected } from './helpers.ts';

/**
 * What `run` and `batch` take: files, directories and globs (quoted, so snipexec expands them), a
 * JSONL dataset as before, and a dataset that is not JSONL refused with one line naming it. The
 * real CLI, in a folder of snippets; paths are relative to it.
 */

const dir = mkdtempSync(join(tmpdir(), 'snipexec-inputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'snippets/one.js': 'console.log("one", 1 + 1);\n',
  'snippets/b/three.mjs': 'console.log("three");\n',
  'snippets/a/two.ts': 'const n: number = 2;\nconsole.log("two", n);\n',
  'snippets/a/view.tsx': 'const label: string = "ok";\nconst el = <b>{label}</b>;\nconsole.log("view", typeof el);\n',
  'snippets/a/node_modules/dep/index.js': 'console.log("a dependency");\n',
  'snippets/.cache/old.js': 'console.log("hidden");\n',
  'snippets/b/notes.md': '# not a snippet\n',
  'docs/readme.md': '# no snippet here\n',
  'set.jsonl': `${JSON.stringify({ id: 'first', code: 'console.log("first");' })}\n${JSON.stringify({ id: 'second', code: 'console.log("second");' })}\n`,
  'skips.jsonl': `${JSON.stringify({ id: 'ok', code: 'console.log("ok");' })}\nnot json\n`,
  'code.jsonl': 'const a = 1;\nconsole.log(a);\n',
  'array.json': '[\n  {"id": "a", "code": "1"}\n]\n',
  'results.jsonl': '{"id":"kept"}\n',
};
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/** The rows a batch wrote to `--out`, by id, and their stdout. */
function rows(out: string): [string, string][] {
  return readFileSync(join(dir, out), 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: string; stdout: string }).map((r) => [r.id, r.stdout]);
}

/** The part headers (`==> file <==`) of a multi-file `run`, in order. */
const headers = (stdout: string): string[] => [...stdout.matchAll(/^==> (.+) <==$/gm)].map((m) => m[1] ?? '');

interface InputCase {
  readonly name: string;
  readonly args: readonly string[];
  readonly code: number;
  readonly check: (r: { stdout: string; stderr: string }) => void;
}

/** A usage error: exit 2 and exactly one line on stderr, which names `what`, and nothing on stdout. */
const usage = (what: string) => (r: { stdout: string; stderr: string }) => {
  assert.equal(r.stdout, '');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, r.stderr);
  assert.ok(lines[0]?.includes(what), `${lines[0]} names ${what}`);
};

const CASES: readonly InputCase[] = [
  {
    name: 'run: one file prints its result as before, with no header',
    args: ['run', 'snippets/one.js', '--mode', 'none'],
    code: 0,
    check: (r) => {
      assert.deepEqual(headers(r.stdout), []);
      assert.match(r.stdout, /^snippet {2}\(completed/);
      assert.match(r.stdout, /one 2/);
    },
  },
  {
    name: 'run: a directory runs its snippet files, sorted, without node_modules, dot-directories or other files',
    args: ['run', 'snippets', '--mode', 'none'],
    code: 0,
    check: (r) => {
      assert.deepEqual(headers(r.stdout), ['snippets/a/two.ts', 'snippets/a/view.tsx', 'snippets/b/three.mjs', 'snippets/one.js']);
      assert.doesNotMatch(r.stdout, /a dependency|hidden/);
    },
  },
  {
    name: 'run: a quoted glob is expanded by snipexec, braces included',
    args: ['run', 'snippets/**/*.{js,ts}', '--mode', 'none'],
    code: 0,
    check: (r) => assert.deepEqual(headers(r.stdout), ['snippets/a/two.ts', 'snippets/one.js']),
  },
  {
    name: 'run: several files with --json print one object per line, its file first',
    args: ['run', 'snippets/one.js', 'snippets/b', '--mode', 'none', '--json'],
    code: 0,
    check: (r) => {
      const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { file: string; status: string; stdout: string });
      assert.deepEqual(results.map((x) => [x.file, x.status, x.stdout]), [['snippets/one.js', 'completed', 'one 2\n'], ['snippets/b/three.mjs', 'completed', 'three\n']]);
      assert.equal(Object.keys(JSON.parse(r.stdout.split('\n')[0] ?? '') as object)[0], 'file');
    },
  },
  {
    name: 'run: several files write one coverage record each, by their paths',
    args: ['run', 'snippets/b', 'snippets/one.js', '--mode', 'none', '--coverage-dir', 'run-coverage', '--reporter', 'lcov'],
    code: 0,
    check: () => assert.deepEqual([...readFileSync(join(dir, 'run-coverage/lcov.info'), 'utf8').matchAll(/^SF:(.+)$/gm)].map((m) => m[1]).sort(), ['snippets/b/three.mjs', 'snippets/one.js']),
  },
  { name: 'run: a glob that matches nothing is a usage error naming the pattern', args: ['run', 'nowhere/**/*.js'], code: 2, check: usage('nowhere/**/*.js: no snippet file matches') },
  { name: 'run: a directory with no snippet file is a usage error naming it', args: ['run', 'docs'], code: 2, check: usage('docs: a directory with no snippet file') },
  { name: 'run: --emit with several files is a usage error naming the flag', args: ['run', 'snippets', '--emit', 'out.js'], code: 2, check: usage('--emit: writes one snippet') },
  { name: 'run: a missing file among several is a usage error naming it, before any runs', args: ['run', 'snippets/one.js', 'missing.js'], code: 2, check: usage('missing.js: no such file') },
  {
    name: 'batch: a directory runs one row per snippet file, its path as id (TypeScript and TSX by their extension)',
    args: ['batch', 'snippets', '--mode', 'none', '--out', 'dir.out.jsonl', '--json'],
    code: 0,
    check: (r) => {
      assert.deepEqual(rows('dir.out.jsonl').sort(), [['snippets/a/two.ts', 'two 2\n'], ['snippets/a/view.tsx', 'view object\n'], ['snippets/b/three.mjs', 'three\n'], ['snippets/one.js', 'one 2\n']]);
      assert.deepEqual((JSON.parse(r.stdout) as { statusCounts: object }).statusCounts, { completed: 4 });
    },
  },
  {
    name: 'batch: a quoted glob runs the files it matches',
    args: ['batch', 'snippets/**/*.{js,ts}', '--mode', 'none', '--out', 'glob.out.jsonl'],
    code: 0,
    check: () => assert.deepEqual(rows('glob.out.jsonl').map(([id]) => id).sort(), ['snippets/a/two.ts', 'snippets/one.js']),
  },
  {
    name: 'batch: one snippet file is one row (it was read as a dataset: a skipped line per line of code, exit 0)',
    args: ['batch', 'snippets/one.js', '--mode', 'none', '--out', 'one.out.jsonl'],
    code: 0,
    check: (r) => {
      assert.doesNotMatch(r.stderr, /skipped/);
      assert.deepEqual(rows('one.out.jsonl'), [['snippets/one.js', 'one 2\n']]);
    },
  },
  { name: 'batch: a glob that matches nothing is a usage error naming the pattern', args: ['batch', 'snippets/*.py'], code: 2, check: usage('snippets/*.py: no snippet file matches') },
  {
    name: 'batch: a .jsonl of code, not JSON objects, is a usage error naming the file; --out is left as it was',
    args: ['batch', 'code.jsonl', '--out', 'results.jsonl'],
    code: 2,
    check: (r) => {
      usage('code.jsonl: not a JSONL dataset: line 1 is not a JSON object')(r);
      assert.equal(readFileSync(join(dir, 'results.jsonl'), 'utf8'), FILES['results.jsonl']);
    },
  },
  { name: 'batch: a JSON array file is a usage error naming the file', args: ['batch', 'array.json'], code: 2, check: usage('array.json: not a JSONL dataset') },
  { name: 'batch: a dataset among snippet files is a usage error naming it', args: ['batch', 'set.jsonl', 'snippets/one.js'], code: 2, check: usage('set.jsonl is not a snippet file') },
  { name: 'batch: snippet files with --queue are a usage error naming the flag (the queue reads a dataset)', args: ['batch', 'snippets', '--queue', 'redis://127.0.0.1:9'], code: 2, check: usage('--queue: needs a JSONL dataset') },
  {
    name: 'batch: a JSONL dataset runs as before, its rows by their ids',
    args: ['batch', 'set.jsonl', '--mode', 'none', '--out', 'set.out.jsonl'],
    code: 0,
    check: () => assert.deepEqual(rows('set.out.jsonl').sort(), [['first', 'first\n'], ['second', 'second\n']]),
  },
  {
    name: 'batch: a malformed line after a JSON object is still skipped with a line naming it',
    args: ['batch', 'skips.jsonl', '--mode', 'none', '--out', 'skips.out.jsonl'],
    code: 0,
    check: (r) => {
      assert.match(r.stderr, /skips\.jsonl:2: skipped: not a JSON object\n/);
      assert.deepEqual(rows('skips.out.jsonl'), [['ok', 'ok\n']]);
    },
  },
];

for (const c of selected(CASES)) {
  test(`inputs: ${c.name}`, () => {
    const r = cli([...c.args], undefined, 60_000, process.env, dir);
    assert.equal(r.code, c.code, r.stdout + r.stderr);
    c.check(r);
  });
}

test('inputs: the help of run and batch says what they take', () => {
  for (const command of ['run', 'batch']) {
    const r = cli([command, '--help']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /directories/);
    assert.match(r.stdout, /snipexec \w+ 'snippets\/\*\*\/\*\.\{js,ts\}'/);
  }
  assert.ok(!existsSync(join(dir, 'out.js')), 'the refused --emit wrote nothing');
});

test('inputs: the library refuses a dataset that is not JSONL the same way, even with onInvalid, and skips a malformed later line', async () => {
  const { readDataset } = await import('../src/batch/readDataset.ts');
  const { InvalidDataset } = await import('../src/core/errors.ts');
  const read = async (file: string) => {
    const ids: string[] = [];
    for await (const item of readDataset(join(dir, file), { onInvalid: () => {} })) ids.push(item.id);
    return ids;
  };
  await assert.rejects(read('code.jsonl'), (error) => error instanceof InvalidDataset && error.message.startsWith(`${join(dir, 'code.jsonl')}: not a JSONL dataset: line 1`));
  await assert.rejects(read('array.json'), InvalidDataset);
  assert.deepEqual(await read('skips.jsonl'), ['ok']);
  assert.deepEqual(await read('set.jsonl'), ['first', 'second']);
});
