import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { cli } from './helpers.ts';

// docs/reference/result-schema.md names every field `run --json` and `batch --json` print: real
// results of snippets that reach the optional fields (environments, modules, drives, explored,
// errors, exitCode, types) are walked, and each key must be in the schema the doc shows.
const DOC = readFileSync(resolve(import.meta.dirname, '../docs/reference/result-schema.md'), 'utf8');
const noColor = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };

/** The first fenced block after `heading` (the schema sketch). */
function schemaBlock(heading: string): string {
  const from = DOC.indexOf(heading);
  assert.ok(from !== -1, `result-schema.md has ${heading}`);
  return /^```\n([\s\S]*?)^```/m.exec(DOC.slice(from))![1]!;
}

/** Every key of `value`, at any depth; maps whose keys are data (error counts by status, status counts) are not walked. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      if (k !== 'errors' || Array.isArray(v)) if (k !== 'statusCounts') keysOf(v, out);
    }
  }
  return out;
}

const SNIPPETS = [
  // environments (document), an installed module (lodash), drive (greet), exploration (isAdmin), an error-first callback
  "const _ = require('lodash');\ndocument.title = 'x';\nfunction greet(user) {\n  if (user.isAdmin) return 'admin ' + _.upperFirst(user.name);\n  return 'user';\n}\nfs.readFile('a.txt', (err, data) => { if (err) throw err; console.log(data.trim()); });\n",
  // the snippet's own error
  'const n = 5;\nn.trim();\n',
  // an if/else on an injected value: a kept scenario (explored.kept, flipped)
  'const user = db.findUser(1);\nif (user.isAdmin) {\n  console.log("a");\n} else {\n  console.log("b");\n}\n',
  // process.exit: exitCode
  'console.log(1);\nprocess.exit(3);\n',
];

test('result schema doc: every field of real `run --json` results is in result-schema.md', () => {
  const block = schemaBlock('# The JSON result');
  const seen = new Set<string>();
  for (const code of SNIPPETS) {
    const r = cli(['run', '-', '--json', '--types'], code, 60_000, noColor);
    assert.ok(r.stdout.trim() !== '', r.stderr);
    keysOf(JSON.parse(r.stdout), seen);
  }
  for (const expected of ['environments', 'modules', 'drives', 'explored', 'kept', 'flipped', 'exitCode', 'types', 'attribution']) assert.ok(seen.has(expected), `the snippets reach ${expected}`);
  const missing = [...seen].filter((k) => !new RegExp(`\\b${k}\\b`).test(block));
  assert.deepEqual(missing, [], 'fields the results have and result-schema.md does not show');
});

test('result schema doc: every field of a real `batch --json` summary is in result-schema.md', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-schema-'));
  writeFileSync(join(dir, 'd.jsonl'), `${JSON.stringify({ id: 'a', code: SNIPPETS[1] })}\n`);
  const r = cli(['batch', 'd.jsonl', '--json'], undefined, 60_000, noColor, dir);
  const block = schemaBlock('## The batch summary');
  const missing = [...keysOf(JSON.parse(r.stdout))].filter((k) => !new RegExp(`\\b${k}\\b`).test(block));
  assert.deepEqual(missing, [], 'fields the summary has and result-schema.md does not show');
});
