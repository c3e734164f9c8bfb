// The fixed cost of a run, the floor under every snippet: main-thread CPU of a fresh context in a
// warm isolate (createContextSync: V8 deserialising the startup snapshot's context), of evaluating
// the runtime's script in it, and of its `start`; then a whole `runSnippet('1;', { mode: 'none' })`
// (every thread, process.cpuUsage), which adds preparing the snippet, the run's calls into the
// isolate, its report and its result. One isolate, contexts one after another; a warm-up first.
// Usage: npx node --no-node-snapshot eval/runFloor.ts [--contexts N] [--runs N] [--warmup N]
import { parseArgs } from 'node:util';
import ivm from 'isolated-vm';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { baseSnapshot, compileRuntime, runtimeSource, startRuntime } from '../src/sandbox/runtimeBundle.ts';
import { SharedCounters } from '../src/sandbox/sharedCounters.ts';

const { values } = parseArgs({ options: { contexts: { type: 'string', default: '2000' }, runs: { type: 'string', default: '1000' }, warmup: { type: 'string', default: '200' } } });
const contexts = Number(values.contexts);
const runs = Number(values.runs);
const warmup = Number(values.warmup);

/** The main thread's CPU ms so far. */
const mainMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const processMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const snapshot = baseSnapshot();
const isolate = new ivm.Isolate({ memoryLimit: 128, snapshot: snapshot.blob });
const script = compileRuntime(isolate, await runtimeSource(), snapshot);
// A small snippet's config: no positions, no sites.
const config = JSON.stringify({
  hook: '__h', shownHook: '__h', statements: 1, branches: [], sites: [], messages: {}, seed: 0, startTime: 0, maxConsoleBytes: 1_000_000, staleTimerTicks: 1_000,
  driveTargets: [], drive: false, prefer: {}, positions: [],
});
const bridge = new ivm.Reference(async () => '{}');

/** Main-thread CPU ms per context of: the context alone, the runtime's script evaluated in it, and the whole start. */
async function contextCost(stage: 'context' | 'script' | 'start'): Promise<{ context: number; rest: number }> {
  let context = 0;
  let rest = 0;
  for (let i = 0; i < warmup + contexts; i++) {
    const a = mainMs();
    const ctx = isolate.createContextSync();
    const b = mainMs();
    if (stage === 'script') (script.runSync(ctx, { reference: true }) as ivm.Reference).release();
    if (stage === 'start') (await startRuntime(isolate, ctx, { bridge, config, counters: new SharedCounters(1, []).transferable(), memoryLimitMb: 128 }, 2_000, snapshot, script)).release();
    const c = mainMs();
    ctx.release();
    if (i < warmup) continue;
    context += b - a;
    rest += c - b;
  }
  return { context: context / contexts, rest: rest / contexts };
}

const empty = await contextCost('context');
const top = await contextCost('script');
const started = await contextCost('start');
isolate.dispose();
for (let i = 0; i < warmup; i++) await runSnippet('1;', { mode: 'none' });
const p0 = processMs();
const m0 = mainMs();
const t0 = performance.now();
for (let i = 0; i < runs; i++) await runSnippet('1;', { mode: 'none' });
const f = (x: number) => x.toFixed(3);
console.log(`context (createContextSync): ${f(empty.context)} main-thread CPU ms`);
console.log(`runtime script's top level: ${f(top.rest)} ms; top level and start: ${f(started.rest)} ms (${contexts} contexts)`);
console.log(`runSnippet('1;', mode none): ${f((performance.now() - t0) / runs)} wall ms, ${f((processMs() - p0) / runs)} CPU ms (every thread), ${f((mainMs() - m0) / runs)} main-thread CPU ms (${runs} runs)`);
