import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { SnippetSession } from '../src/engine/snippetSession.ts';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { Replays, replayStats } from '../src/engine/replays.ts';
import type { ExecutionResult } from '../src/sandbox/runInIsolate.ts';
import type { DefinitionBook } from '../src/engine/definitionBook.ts';
import { valueSourceFor } from '../src/values/providers.ts';

async function open(code: string): Promise<SnippetSession> {
  const session = await SnippetSession.open(code, { mode: 'trace' });
  assert.ok(session instanceof SnippetSession);
  return session;
}

/** What a book holds: every definition whole (attempts, failures, rejected categories), the traces, the counters. */
function bookState(book: DefinitionBook): string {
  return JSON.stringify([[...book.defs.values()], [...book.traces.all()], [...book.probed], book.changed, book.consulted, book.probesInjected, book.learningRuns]);
}

/** A result as JSON without what replays change: the runs counted and the time taken. */
function sameBesidesRuns(result: RunResult): string {
  return JSON.stringify({ ...result, program: result.program }, (key, value: unknown) => (key === 'runs' || key === 'elapsedMs' ? undefined : value));
}

test('a snippet with nothing missing runs once per session: the same run again is replayed', async () => {
  const session = await open('const a = [3, 1, 2].sort();\nconsole.log(a.join(","));');
  const first = await session.run(session.config, session.newBook());
  const again = await session.run(session.config, session.newBook());
  assert.equal(first.runs, 1);
  assert.equal(again.runs, 0, 'the second scenario ran nothing');
  assert.equal(again.last?.report?.stdout, '1,2,3\n');
  assert.deepEqual(again.last, first.last);
});

test('a learning run is replayed for a scenario that starts from the same book and config: the book answers its requests again and ends as the run left it', async () => {
  const session = await open("if (typeof opts.name !== 'string') throw new TypeError('name');\nconsole.log(opts.name.toUpperCase(), opts.size > 2);");
  const a = session.newBook();
  const first = await session.run(session.config, a);
  const b = session.newBook();
  const before = replayStats();
  const second = await session.run({ ...session.config }, b);
  assert.equal(first.runs, 2, 'a learning run, then the measured run');
  assert.equal(second.runs, 0, 'the second scenario executed nothing');
  assert.equal(replayStats().learnt - before.learnt, 1, 'its learning run was replayed');
  assert.equal(replayStats().pure - before.pure, 1, 'and its measured run');
  assert.deepEqual(second.last, first.last);
  assert.deepEqual(second.answers, first.answers);
  assert.ok(renderDefinitions(second.ranWith).source.includes('opts'), 'the second scenario learnt its values');
  assert.equal(bookState(b), bookState(a), 'definitions, attempts, traces and counters as the first scenario left them');
});

test('with one execution (scenarios 1) learning runs are not kept: nothing would replay them; pure runs still are', async () => {
  const session = await SnippetSession.open("console.log(opts.name.toUpperCase(), opts.size > 2);", { mode: 'trace', scenarios: 1 });
  assert.ok(session instanceof SnippetSession);
  const first = await session.run(session.config, session.newBook());
  const second = await session.run(session.config, session.newBook());
  assert.equal(first.runs, 2);
  assert.equal(second.runs, 1, 'its learning run executed; the measured run was replayed');
  assert.deepEqual(second.last, first.last);
});

/** The operator site (a decision) on a line of the snippet. */
function decisionOn(session: SnippetSession, line: number): number {
  const site = session.instrumented.map.sites.find((s) => s.kind === 'operator' && s.line === line);
  assert.ok(site, `a decision on line ${line}`);
  return site.id;
}

test('a learning run is replayed only where its recording proxies decided alike: a scenario answering a decision they met the other way executes', async () => {
  const code = "if (opts.debug) console.log('debug');\nconsole.log(opts.name);\nfunction never() { if (opts.verbose) console.log('verbose'); }";
  const session = await SnippetSession.open(code, { mode: 'trace', drive: false });
  assert.ok(session instanceof SnippetSession);
  const met = decisionOn(session, 1);
  const unmet = decisionOn(session, 3);
  const first = await session.run(session.config, session.newBook());
  assert.ok(String(met) in first.answers, 'a recording proxy answered the decision on line 1');
  assert.ok(!(String(unmet) in first.answers), 'none reached the one on line 3');
  const flip = (sid: number) => ({ ...session.config, prefer: { ...session.config.prefer, [sid]: !(first.answers[String(sid)] ?? true) } });
  const unreached = await session.run(flip(unmet), session.newBook());
  assert.equal(unreached.runs, 0, 'a decision no proxy met changes nothing: both runs replayed');
  assert.deepEqual(unreached.last, first.last);
  const flipped = await session.run(flip(met), session.newBook());
  assert.ok(flipped.runs >= 1, 'the flipped decision was met: its learning run executed');
  assert.notEqual(flipped.last?.report?.stdout, first.last?.report?.stdout, 'and went the other way');
});

test('a replay whose answers differ rolls the book back and is not used', async () => {
  const session = await open('console.log(opts.name);');
  const replays = new Replays(true);
  const book = session.newBook();
  const key = replays.keyOf(session.config, book, session.options, []);
  assert.ok(key !== undefined);
  // A kept learning run whose book answered its one request otherwise than this book will.
  const request = JSON.stringify({ op: 'value', id: 'opts', kind: 'global', sid: 0, message: 'opts is not defined' });
  const kept = { status: 'completed', report: { stdout: 'kept\n', answers: {} } } as unknown as ExecutionResult;
  book.consulted = 1;
  replays.keep(key, session.config, kept, book, 1, [request, '{"source":"\\"another\\"","refs":[]}']);
  book.consulted = 0;
  const state = bookState(book);
  const before = replayStats();
  assert.equal(await replays.replay(key, session.config, book, 1000), undefined);
  assert.equal(replayStats().diverged - before.diverged, 1);
  assert.equal(bookState(book), state, 'the definition made for the request is gone again, and the counters are back');
  assert.equal(book.defs.size, 0);
});

test('exploration with replays: the same result, scenarios and emitted program as without, in fewer runs', async () => {
  const code = [
    'if (!name) {',
    "  throw new TypeError('name is required');",
    '}',
    "if (typeof name !== 'string') {",
    "  throw new TypeError('name must be a string');",
    '}',
    'var lc = name.toLowerCase();',
    'switch (lc) {',
    "  case 'referer':",
    "  case 'referrer':",
    '    console.log(headers.referrer || headers.referer);',
    '    break;',
    '  default:',
    '    console.log(headers[lc]);',
    '}',
  ].join('\n');
  const replayed = await runSnippet(code, { mode: 'trace' });
  const executed = await runSnippet(code, { mode: 'trace' }, { replay: false });
  assert.ok(executed.explored && replayed.explored);
  assert.ok(executed.explored.kept.length > 0, 'scenarios were kept');
  assert.equal(sameBesidesRuns(replayed), sameBesidesRuns(executed));
  assert.ok(replayed.explored.runs < executed.explored.runs, `explored runs ${replayed.explored.runs} < ${executed.explored.runs}`);
});

test('exploration shares learning runs: a scenario flipping a decision that only a later learning run met replays the runs before it', async () => {
  // lodash isFunction: `tag == funcTag` between two recording proxies is true, so genTag is met in
  // the second learning run; the scenario answering it the other way repeats the first.
  const code = ['if (!isObject(value)) {', '  return false;', '}', 'var tag = baseGetTag(value);', 'return tag == funcTag || tag == genTag || tag == asyncTag || tag == proxyTag;'].join('\n');
  const before = replayStats();
  const shared = await runSnippet(code, { mode: 'trace' });
  const learnt = replayStats().learnt - before.learnt;
  // A value source of the test's own: runs that asked for values are not replayed (only pure ones).
  const pureOnly = await runSnippet(code, { mode: 'trace' }, { values: valueSourceFor('trace') });
  const executed = await runSnippet(code, { mode: 'trace' }, { replay: false });
  assert.equal(sameBesidesRuns(shared), sameBesidesRuns(executed));
  assert.equal(sameBesidesRuns(pureOnly), sameBesidesRuns(executed));
  assert.ok(learnt > 0, 'learning runs were replayed');
  assert.ok(shared.explored && pureOnly.explored);
  assert.equal(shared.explored.runs, pureOnly.explored.runs - learnt, `explored runs ${shared.explored.runs} = ${pureOnly.explored.runs} - ${learnt}`);
});
