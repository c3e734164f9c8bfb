/**
 * A worker process of a batch's SnippetProcessPool (processPool.ts): runs each snippet the parent
 * sends as a local batch runs it (runOne), and sends back its result and its log lines. It
 * ignores the terminal's interrupt and a termination request (the parent stops the batch and lets
 * the running snippets finish; closing the pool, or the parent's end, disconnects the worker), and
 * ends once the parent disconnected and nothing is left to run.
 */
import { enableCompileCache } from 'node:module';
import type { Logger } from 'pino';
import type { PoolLog, PoolReply, PoolRequest } from './processPool.ts';

// Before the engine loads (it takes a while), so that no signal meets a worker without them.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
// V8's code cache of the engine, as the CLI keeps it (bin/snipexec.cjs): a worker compiles nothing the CLI compiled before.
enableCompileCache();
const engine = import('./runBatch.ts');
// The batch's log level, when it logs: each line goes to the parent, which logs it on the batch's logger.
const level = process.argv[2];
const logging: Promise<Logger | undefined> = level === undefined ? Promise.resolve(undefined) : import('pino').then(({ default: pino }) => pino({ level }, { write: (line: string) => void (process.connected && process.send?.({ log: line } satisfies PoolLog)) }));
process.on('message', (m: PoolRequest) => {
  void Promise.all([engine, logging]).then(([{ runOne }, logger]) => runOne(m.item, m.runInput, logger ? { logger } : {})).then((result) => {
    // The result's data: its detail (functions over this process's program) stays here, as JSON leaves it out.
    const { detail: _detail, ...data } = result;
    if (process.connected) process.send?.({ n: m.n, result: data } satisfies PoolReply);
  });
});
process.on('disconnect', () => void import('../sandbox/isolatePool.ts').then(({ drainIsolatePool }) => drainIsolatePool()));
