/**
 * A worker process of a batch's SnippetProcessPool (processPool.ts): runs each snippet the parent
 * sends as a local batch runs it (runOne), and sends back its result. It ignores the terminal's
 * interrupt (the parent stops the batch and lets running snippets finish), and ends once the
 * parent disconnects and nothing is left to run.
 */
import { drainIsolatePool } from '../sandbox/isolatePool.ts';
import type { PoolReply, PoolRequest } from './processPool.ts';
import { runOne } from './runBatch.ts';

process.on('SIGINT', () => {});
process.on('message', (m: PoolRequest) => {
  void runOne(m.item, m.runInput, {}).then((result) => {
    // The result's data: its detail (functions over this process's program) stays here, as JSON leaves it out.
    const { detail: _detail, ...data } = result;
    if (process.connected) process.send?.({ n: m.n, result: data } satisfies PoolReply);
  });
});
process.on('disconnect', () => drainIsolatePool());
