import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { STALL_TURNS } from '../src/protocol/runtime.ts';
import { injected } from './helpers.ts';

/**
 * A loop whose progress comes from a learnt function (src/engine/endStalledLoops.ts): the learnt
 * function returns the same value forever, so the measured run stalls where the real code would
 * reach the end of its tokens. The functions called in the loop that stalled then return their
 * result three times, then null, as a cursor does, and the run finishes; a learnt regular
 * expression whose exec keeps the loop going becomes global, one character at a time.
 */
const tmp = mkdtempSync(join(tmpdir(), 'snipexec-loops-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const one = { scenarios: 1, drive: false, timeoutMs: 1000 } as const;

const CURSOR = [
  'let token = first;',
  'do {',
  '  token = source.getTokenBefore(token);',
  "} while (token && token.type === 'Block');",
  "console.log('after the comments:', token);",
].join('\n');

test('a do…while that a learnt getTokenBefore keeps going ends: the function returns null after three calls, and the lines after the loop run', async () => {
  const r = await runSnippet(CURSOR, one);
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.deepEqual(r.lines.uncovered, []);
  assert.match(r.stdout, /^after the comments: null\n$/);
  assert.match(injected(r, 'source.getTokenBefore') ?? '', /\(getTokenBefore\.calls = \(getTokenBefore\.calls \|\| 0\) \+ 1\) > 3 \? null : /);
  // The completed program runs on its own under plain node, and ends.
  const file = join(tmp, 'cursor.js');
  writeFileSync(file, r.program ?? '');
  const plain = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(plain.status, 0, plain.stderr);
  assert.equal(plain.stdout, 'after the comments: null\n');
});

test('a while over rows a learnt cursor gives ends the same way, awaited included', async () => {
  const code = "async function dump(result) {\n  let row, n = 0;\n  while ((row = await result.getRow())) {\n    n += row.id;\n  }\n  console.log('rows done', n > 0);\n}\ndump(connection.execute('SELECT 1'));";
  const r = await runSnippet(code, one);
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.deepEqual(r.lines.uncovered, []);
  assert.match(r.stdout, /^rows done (true|false)\n$/);
  assert.match(injected(r, 'connection.execute().getRow') ?? '', /getRow\.calls/);
});

test('a cursor reached through awaited calls ends too: the learning run names it awaited twice (await await …getRow), its definition once', async () => {
  const code = "async function dump() {\n  const conn = await db.getConnection();\n  const result = await conn.execute('SELECT 1');\n  let row;\n  while ((row = await result.resultSet.getRow())) {\n    console.log('row');\n  }\n  console.log('rows done');\n}\ndump();";
  const r = await runSnippet(code, one);
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.deepEqual(r.lines.uncovered, []);
  assert.equal(r.stdout, 'row\nrow\nrow\nrows done\n');
  assert.match(injected(r, 'await db.getConnection().execute().resultSet.getRow') ?? '', /getRow\.calls/);
});

test('a while over exec() of a learnt regular expression ends: the expression becomes global and moves one character at a time', async () => {
  const code = "let m, n = 0;\nwhile ((m = PATTERN.exec(text)) !== null) {\n  n++;\n}\nconsole.log('matches', n);";
  const r = await runSnippet(code, one);
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.deepEqual(r.lines.uncovered, []);
  assert.equal(injected(r, 'PATTERN'), 'var PATTERN = /[\\s\\S]/g;');
  // One match per character of the learnt text, then null.
  const text = /^var text = (".*");$/.exec(injected(r, 'text') ?? '')?.[1];
  assert.ok(text !== undefined, injected(r, 'text'));
  assert.equal(r.stdout, `matches ${(JSON.parse(text) as string).length}\n`);
});

test('a mending whose null becomes an error is not kept: the stalled run is the result, and no error is blamed on the snippet or a value', async () => {
  // The loop never ends whatever fn returns (nothing counts up); ending fn makes `fn().then` throw on its null.
  const code = "function runN(fn, limit) {\n  return new Promise((resolve) => {\n    let inFlight = 0;\n    function run() {\n      while (inFlight < limit) {\n        fn().then(() => {});\n      }\n      resolve();\n    }\n    run();\n  });\n}\n";
  const r = await runSnippet(code, { timeoutMs: 1000 });
  assert.equal(r.status, 'timeout', JSON.stringify(r.errors));
  assert.deepEqual(r.errors.filter((e) => e.attribution !== 'sandbox'), []);
  assert.doesNotMatch(r.injections.map((i) => i.source).join('\n'), /calls/);
  assert.ok(r.runs <= 4, `learning, stalled, mended, no more (${r.runs} runs)`);
});

test('a loop over a learnt function that ends on its own keeps the learnt function as it was', async () => {
  const code = "for (let i = 0; i < 3; i++) {\n  console.log(api.next().value);\n}";
  const r = await runSnippet(code, one);
  assert.equal(r.status, 'completed');
  assert.doesNotMatch(injected(r, 'api.next') ?? '', /calls/);
});

test('a watched loop that keeps going ends its run after STALL_TURNS turns, past any catch of the snippet: the mending happens within a budget shorter than one run\'s deadline', async () => {
  // Each run may take a minute, the snippet 8 s in all: a run that spun until its deadline would use the whole budget, and no mended run would follow.
  const budget = { ...one, timeoutMs: 60_000, totalTimeoutMs: 8_000 };
  const plain = await runSnippet(CURSOR, budget);
  assert.equal(plain.status, 'completed', JSON.stringify(plain.errors));
  assert.equal(plain.stdout, 'after the comments: null\n');
  // The halt is thrown again by every hook: the snippet's catch (inside a loop that would enter the stalled one again) does not keep the run going.
  const caught = "let token = first;\nfor (;;) {\n  try {\n    do {\n      token = source.getTokenBefore(token);\n    } while (token && token.type === 'Block');\n    break;\n  } catch (e) {\n    console.log('caught', e.message);\n  }\n}\nconsole.log('after the comments:', token);";
  const r = await runSnippet(caught, budget);
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, 'after the comments: null\n');
  assert.deepEqual(r.lines.uncovered, [9]);
});

test('a watched loop that stalls where ending its functions changes nothing, or where the mended run is not kept, runs again to its deadline, as unwatched: a loop that ends after more than STALL_TURNS turns completes', async () => {
  // `buffer` is learnt returning nothing, so ending it changes nothing; the loop ends on its own after 3 × STALL_TURNS turns.
  const code = `const state = { n: 0 };\nfor (let i = 0; i < ${STALL_TURNS * 3}; i++) {\n  buffer('a');\n  state.n++;\n}\nconsole.log(state.n);`;
  const r = await runSnippet(code, one);
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, `${STALL_TURNS * 3}\n`);
  assert.doesNotMatch(injected(r, 'buffer') ?? '', /calls/);
  // Ending `api.next` would change it, but its null then throws: the mended run is not kept, and the stalled run goes again unwatched.
  const ends = await runSnippet(`let n = 0;\nfor (let i = 0; i < ${STALL_TURNS * 3}; i++) {\n  n += api.next().value.length;\n}\nconsole.log(n > 0);`, one);
  assert.equal(ends.status, 'completed', JSON.stringify(ends.errors));
  assert.equal(ends.stdout, 'true\n');
  assert.doesNotMatch(injected(ends, 'api.next') ?? '', /calls/);
});

test('a loop that takes more turns than STALL_TURNS runs to its end when no learnt function is called in it, and a watched one that ends before it too', async () => {
  const plain = await runSnippet(`let n = 0;\nfor (let i = 0; i < ${STALL_TURNS * 3}; i++) {\n  n++;\n}\nconsole.log(n, typeof missing.x);`, one);
  assert.equal(plain.status, 'completed', JSON.stringify(plain.errors));
  assert.equal(plain.stdout, `${STALL_TURNS * 3} number\n`);
  const watched = await runSnippet(`let total = 0;\nfor (let i = 0; i < ${STALL_TURNS - 1}; i++) {\n  total += api.next().value;\n}\nconsole.log(total !== 0);`, one);
  assert.equal(watched.status, 'completed', JSON.stringify(watched.errors));
  assert.equal(watched.stdout, 'true\n');
  assert.doesNotMatch(injected(watched, 'api.next') ?? '', /calls/);
  // A learning run and the measured run: no halt, no run again (a rerun unwatched would hide a watch that halts too soon).
  assert.equal(watched.runs, 2);
});
