import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runBatch } from '../src/batch/runBatch.ts';
import { SnippetProcessPool } from '../src/batch/processPool.ts';
import { InvalidOptions } from '../src/core/errors.ts';
import pino from 'pino';
import { cli } from './helpers.ts';

/**
 * `batch --processes N` (src/batch/processPool.ts): the snippets are shared over N worker
 * processes, each running them as a local batch does; the rows are the same as in one process.
 */
const tmp = mkdtempSync(join(tmpdir(), 'snipexec-processes-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const SNIPPETS = [
  { id: 'a', code: 'const [x, y] = pair("l-r");\nconsole.log(x.toUpperCase(), y.length);' },
  { id: 'b', code: 'if (config.debug) {\n  console.log("debug");\n} else {\n  console.log(config.level + 1);\n}' },
  { id: 'c', code: 'for (const item of list) {\n  console.log(item.name.trim());\n}' },
  { id: 'd', code: 'const fs = require("fs");\nconsole.log(typeof fs.readFileSync);' },
  { id: 'e', code: 'null.f;' },
  { id: 'f', code: 'function area(r) {\n  return Math.PI * r * r;\n}\nconsole.log(area(radius).toFixed(2));' },
];
const dataset = join(tmp, 'snippets.jsonl');
writeFileSync(dataset, SNIPPETS.map((s) => JSON.stringify(s)).join('\n') + '\n');
/** A row without what differs between two runs of one snippet (its time). */
const comparable = (line: string) => {
  const { elapsedMs: _elapsed, ...row } = JSON.parse(line) as Record<string, unknown>;
  return row;
};

test('processes: the rows of a batch over two worker processes are those of one process, snippet by snippet', async () => {
  const one = join(tmp, 'one.jsonl');
  const two = join(tmp, 'two.jsonl');
  const run = { mode: 'trace', drive: false, scenarios: 1 } as const;
  const a = await runBatch(dataset, run, { concurrency: 2, processes: 1, out: one });
  const b = await runBatch(dataset, run, { concurrency: 2, processes: 2, out: two });
  assert.equal(a.ran, SNIPPETS.length);
  assert.equal(b.ran, SNIPPETS.length);
  const rows = (file: string) => new Map(readFileSync(file, 'utf8').trim().split('\n').map((l) => [(JSON.parse(l) as { id: string }).id, comparable(l)]));
  const inOne = rows(one);
  const inTwo = rows(two);
  for (const { id } of SNIPPETS) assert.deepEqual(inTwo.get(id), inOne.get(id), id);
  assert.equal(b.summary.lineCoverage, a.summary.lineCoverage);
  assert.equal(inTwo.get('a')?.status, 'completed');
  // Two worker processes ran them, both; one process has none.
  assert.equal(a.workers, undefined);
  assert.equal(b.workers?.length, 2);
  assert.ok(b.workers.every((w) => w.ran > 0 && w.pid !== process.pid), JSON.stringify(b.workers));
  assert.equal(b.workers.reduce((n, w) => n + w.ran, 0), SNIPPETS.length);
  assert.equal(b.retried, 0);
});

/** Waits until the pool has started `count` workers in all (failing after 30 s); their pids. */
async function startedWorkers(pool: SnippetProcessPool, count: number): Promise<readonly number[]> {
  for (const until = Date.now() + 30_000; pool.pids.length < count;) {
    if (Date.now() > until) assert.fail(`the pool started ${pool.pids.length} workers, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return pool.pids;
}

test('processes: the pool spreads the snippets over its workers; a worker that dies has its snippets run again alone, and is replaced', async () => {
  const pool = new SnippetProcessPool(2);
  try {
    const results = await Promise.all(SNIPPETS.slice(0, 4).map((s) => pool.run(s, { mode: 'trace', drive: false, scenarios: 1 })));
    assert.deepEqual(results.map((r) => r.status), ['completed', 'completed', 'completed', 'completed']);
    assert.equal(pool.pids.length, 2);
    assert.deepEqual([...pool.answered.values()], [2, 2]);
    // Two snippets that spin until their 1.5 s deadline, in the same worker (the least busy: the first, then the second,
    // then the first again), and one in the other; the first worker is killed while they run.
    const spinning = pool.run({ id: 'spin', code: 'while (true) {}' }, { mode: 'none', timeoutMs: 1_500, totalTimeoutMs: 120_000 });
    const elsewhere = pool.run(SNIPPETS[0]!, { mode: 'trace', drive: false, scenarios: 1 });
    const beside = pool.run({ id: 'spin2', code: 'let turns = 0;\nwhile (true) turns++;' }, { mode: 'none', timeoutMs: 1_500, totalTimeoutMs: 120_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(pool.pids[0]!, 'SIGKILL');
    // Each runs again alone in a worker of its own, and ends as it would have: at its deadline.
    assert.equal((await spinning).status, 'timeout');
    assert.equal((await beside).status, 'timeout');
    assert.equal((await elsewhere).status, 'completed');
    assert.equal(pool.retried, 2);
    const after = await pool.run(SNIPPETS[1]!, { mode: 'trace', drive: false, scenarios: 1 });
    assert.equal(after.status, 'completed');
    assert.equal(pool.pids.length, 5, 'two workers for the snippets run again alone, and a third replaced the one killed');
    // An interrupt or a termination request (a terminal's Ctrl-C reaches the whole process group) does not end a worker's snippet: the batch stops it.
    const busy = pool.run({ id: 'busy', code: 'let n = 0;\nfor (let i = 0; i < 5e6; i++) n++;\nconsole.log(n);' }, { mode: 'none', timeoutMs: 60_000, totalTimeoutMs: 120_000 });
    for (const pid of [pool.pids[1]!, pool.pids[4]!]) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.kill(pid, signal);
    const done = await busy;
    assert.equal(done.status, 'completed');
    assert.equal(done.stdout, '5000000\n');
  } finally {
    await pool.close();
  }
});

test('processes: a snippet whose worker dies again when it runs alone fails, with both deaths said', async () => {
  const pool = new SnippetProcessPool(1);
  try {
    const doomed = pool.run({ id: 'doomed', code: 'while (true) {}' }, { mode: 'none', timeoutMs: 60_000, totalTimeoutMs: 120_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(pool.pids[0]!, 'SIGKILL');
    const alone = (await startedWorkers(pool, 2))[1]!;
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(alone, 'SIGKILL');
    await assert.rejects(doomed, /a batch worker process ended \(SIGKILL\) while it ran the snippet, and again alone in another \(SIGKILL\)/);
    assert.equal(pool.retried, 1);
    // The pool goes on: the dead worker is replaced.
    assert.equal((await pool.run(SNIPPETS[1]!, { mode: 'trace', drive: false, scenarios: 1 })).status, 'completed');
  } finally {
    await pool.close();
  }
});

test('processes: what a worker process logs reaches the batch\'s logger, at its level, with the worker\'s pid', async () => {
  const react = join(tmp, 'react.jsonl');
  // A component module reads what the runtime provides: React loads at run time, and says so at debug level.
  writeFileSync(react, JSON.stringify({ id: 'r', code: 'import React from "react";\nconst A = () => <div/>;\n', lang: 'jsx' }) + '\n');
  const logged = (level: pino.Level) => {
    const lines: Record<string, unknown>[] = [];
    return { lines, logger: pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }) };
  };
  const debug = logged('debug');
  const b = await runBatch(react, { mode: 'trace' }, { processes: 2, concurrency: 2 }, undefined, { logger: debug.logger });
  const line = debug.lines.find((l) => l.msg === 'startup snapshot: this environment loads at run time');
  assert.ok(line, JSON.stringify(debug.lines));
  assert.equal(line.environment, 'react');
  assert.equal(line.level, 20);
  assert.ok(b.workers?.some((w) => w.pid === line.worker), `worker ${String(line.worker)} of ${JSON.stringify(b.workers)}`);
  // At the CLI's default level, warnings only: the worker logs nothing of it.
  const warn = logged('warn');
  await runBatch(react, { mode: 'trace' }, { processes: 2, concurrency: 2 }, undefined, { logger: warn.logger });
  assert.deepEqual(warn.lines, []);
});

test('processes: what cannot cross into another process is refused before anything runs or any file is touched', async () => {
  const out = join(tmp, 'kept.jsonl');
  writeFileSync(out, '{"id":"earlier"}\n');
  await assert.rejects(runBatch(dataset, { mode: 'trace' }, { processes: 2, out }, undefined, { clock: () => Date.now() }), (e: unknown) => e instanceof InvalidOptions && /cannot take clock/.test(e.message));
  await assert.rejects(runBatch(dataset, { mode: 'llm' }, { processes: 2, out }), (e: unknown) => e instanceof InvalidOptions && /--mode llm/.test(e.message));
  assert.equal(readFileSync(out, 'utf8'), '{"id":"earlier"}\n');
  // The CLI: reports need each result's coverage detail, which stays in its worker.
  const r = cli(['batch', dataset, '--processes', '2', '--html', join(tmp, 'report')]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--html: not with --processes/);
});

test('processes: the CLI runs a batch over worker processes and prints its summary', () => {
  const out = join(tmp, 'cli.jsonl');
  const r = cli(['batch', dataset, '--processes', '2', '--concurrency', '2', '--out', out, '--no-drive', '--scenarios', '1']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, SNIPPETS.length);
});
