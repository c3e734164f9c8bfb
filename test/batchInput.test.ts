import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cli } from './helpers.ts';

/** How a batch reads its dataset: a byte order mark, repeated ids. The real CLI, on a file. */

const dir = mkdtempSync(join(tmpdir(), 'snipexec-batch-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function batch(name: string, text: string | Buffer) {
  const data = join(dir, `${name}.jsonl`);
  const out = join(dir, `${name}.out.jsonl`);
  writeFileSync(data, text);
  const r = cli(['batch', data, '--out', out, '--mode', 'none', '--json']);
  const rows = readFileSync(out, 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: string; stdout: string; status: string });
  return { ...r, data, rows };
}

test('batch input: a UTF-8 byte order mark before row 1 is skipped, and row 1 runs', () => {
  const rows = [{ id: 'first', code: 'console.log("one");' }, { id: 'second', code: 'console.log("two");' }].map((r) => JSON.stringify(r));
  const r = batch('bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rows.join('\n') + '\n')]));
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /skipped/);
  assert.deepEqual(r.rows.map((row) => [row.id, row.status, row.stdout]).sort(), [['first', 'completed', 'one\n'], ['second', 'completed', 'two\n']]);
  assert.equal(JSON.parse(r.stdout).invalidLines, 0);
});

test('batch input: a repeated id is reported on stderr, once per repeat, and only its first row runs', () => {
  const rows = [
    { id: 'a', code: 'console.log("a first");' },
    { id: 'b', code: 'console.log("b");' },
    { id: 'a', code: 'console.log("a again");' },
    { id: 7, code: 'console.log("seven");' },
    { id: '7', code: 'console.log("seven again");' },
  ].map((row) => JSON.stringify(row));
  const r = batch('dup', rows.join('\n') + '\n');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.rows.map((row) => [row.id, row.stdout]).sort(), [['7', 'seven\n'], ['a', 'a first\n'], ['b', 'b\n']]);
  const skipped = r.stderr.split('\n').filter((l) => l.includes('skipped'));
  assert.deepEqual(skipped, [
    `snipexec: ${r.data}:3: skipped (id a): duplicate id, first on line 1: this line is not run`,
    `snipexec: ${r.data}:5: skipped (id 7): duplicate id, first on line 4: this line is not run`,
  ]);
  assert.equal(JSON.parse(r.stdout).invalidLines, 2);
});
