/**
 * A worker process of a batch's SnippetProcessPool (processPool.ts): runs each snippet the parent
 * sends as a local batch runs it (runOne), and sends back its result. It ignores the terminal's
 * interrupt and a termination request (the parent stops the batch and lets the running snippets
 * finish; closing the pool, or the parent's end, disconnects the worker), and ends once the parent
 * disconnected and nothing is left to run.
 */
import type { PoolReply, PoolRequest } from './processPool.ts';

// Before the engine loads (it takes a while), so that no signal meets a worker without them.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
const engine = import('./runBatch.ts');
process.on('message', (m: PoolRequest) => {
  void engine.then(({ runOne }) => runOne(m.item, m.runInput, {})).then((result) => {
    // The result's data: its detail (functions over this process's program) stays here, as JSON leaves it out.
    const { detail: _detail, ...data } = result;
    if (process.connected) process.send?.({ n: m.n, result: data } satisfies PoolReply);
  });
});
process.on('disconnect', () => void import('../sandbox/isolatePool.ts').then(({ drainIsolatePool }) => drainIsolatePool()));
