import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { SnippetSession } from '../src/engine/snippetSession.ts';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import type { RunResult } from '../src/core/runResult.ts';

async function open(code: string): Promise<SnippetSession> {
  const session = await SnippetSession.open(code, { mode: 'trace' });
  assert.ok(session instanceof SnippetSession);
  return session;
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

test('a learning run is never replayed: a scenario that learns the values another ran with executes its learning run and replays its measured run', async () => {
  const session = await open("if (typeof opts.name !== 'string') throw new TypeError('name');\nconsole.log(opts.name.toUpperCase(), opts.size > 2);");
  const a = session.newBook();
  const first = await session.run(session.config, a);
  const b = session.newBook();
  const second = await session.run(session.config, b);
  assert.equal(first.runs, 2, 'a learning run, then the measured run');
  assert.equal(second.runs, 1, 'its own learning run; the measured run is the first scenario\'s');
  assert.deepEqual(second.last, first.last);
  assert.equal(renderDefinitions(second.ranWith).source, renderDefinitions(first.ranWith).source);
  assert.ok(renderDefinitions(second.ranWith).source.includes('opts'), 'the second scenario learnt its values');
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
