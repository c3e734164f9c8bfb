// Whether isolated-vm's applySyncPromise (the bridge every value request of a run goes through)
// works from isolates owned by worker threads: each thread makes an isolate whose code calls a host
// function through applySyncPromise. With isolated-vm 7.0.1 on Node 24, two worker threads at once
// end the process with SIGSEGV (exit 139); one worker, or the main thread and one worker, answer.
// Usage: npx node --no-node-snapshot eval/ivmWorkerThreads.ts [--main] [--workers N]   (default 2)
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import ivm from 'isolated-vm';

async function bridged(): Promise<string> {
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  const context = isolate.createContextSync();
  const bridge = new ivm.Reference(async (s: string) => `${s}!`);
  await context.global.set('bridge', bridge);
  return (await context.eval('bridge.applySyncPromise(undefined, ["answered"])', { timeout: 1000 })) as string;
}

if (!isMainThread) parentPort!.postMessage(await bridged());
else {
  const { values } = parseArgs({ options: { main: { type: 'boolean', default: false }, workers: { type: 'string', default: '2' } } });
  if (values.main) console.log('main thread:', await bridged());
  for (let i = 0; i < Number(values.workers); i++) {
    const worker = new Worker(new URL(import.meta.url));
    worker.once('message', (m) => {
      console.log(`worker ${i}:`, m);
      void worker.terminate();
    });
  }
}
