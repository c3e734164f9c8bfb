import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { selected } from './helpers.ts';

/**
 * The node environment's process-events driver: handlers for events nothing in the sandbox would
 * emit (stdin input, signals, uncaught errors) run once after the snippet, so their lines run.
 * Seen failing with the driver's afterSnippet line removed from src/guest/environments/node/index.ts.
 */
const CASES = [
  {
    name: 'stdin data then end, as a string',
    code: "process.stdin.setEncoding('utf8');\nprocess.stdin.on('data', (chunk) => {\n  console.log('got', typeof chunk, chunk.trim().length > 0);\n});\nprocess.stdin.on('end', () => {\n  console.log('end');\n});",
    stdout: 'got string true\nend\n',
  },
  {
    name: 'a signal handler is called with the signal, and exit() in it ends the run as completed',
    code: "process.on('SIGINT', (signal) => {\n  console.log('caught', signal);\n  process.exit(0);\n});\nconsole.log('waiting');",
    stdout: 'waiting\ncaught SIGINT\n',
  },
  {
    name: 'uncaughtException and unhandledRejection listeners get an Error',
    code: "process.on('uncaughtException', (err, origin) => {\n  console.log('exception', err instanceof Error, origin);\n});\nprocess.on('unhandledRejection', (reason, promise) => {\n  console.log('rejection', reason.message.length > 0, promise instanceof Promise);\n});",
    stdout: 'exception true uncaughtException\nrejection true true\n',
  },
] as const;

for (const c of selected(CASES)) {
  test(`process events: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { mode: 'trace' });
    assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    assert.deepEqual(r.lines.uncovered, []);
    assert.equal(r.stdout, c.stdout);
    assert.deepEqual(r.environments?.loaded, ['node']);
  });
}

test('process events: a snippet that listens for nothing gets no event, and no signal is sent unasked', async () => {
  const r = await runSnippet("process.on('SIGTERM', () => console.log('term'));\nconsole.log('done');", { mode: 'trace' });
  assert.equal(r.stdout, 'done\nterm\n', 'only the signal listened for');
  const quiet = await runSnippet("process.stdin.resume();\nconsole.log('done');", { mode: 'trace' });
  assert.equal(quiet.stdout, 'done\n');
});
