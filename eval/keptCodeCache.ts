// What a code cache kept on disk (src/sandbox/snapshotDiskCache.ts, codeCacheKeeper) saves the first
// run of a process: in a fresh process each time (`--one`), the runtime compiled, started and asked
// for its report in an isolate made from the base startup snapshot kept in one cache directory,
// alternately with the runtime's code cache files removed first (compiled from source, as before
// they were kept) and with the one the process before kept. The isolate's CPU (isolate.cpuTime) and
// the wall time of the three steps; medians over --rounds pairs.
// Usage: npx node --no-node-snapshot eval/keptCodeCache.ts [--rounds N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ivm from 'isolated-vm';
import { createStartupSnapshot, refreshRuntimeCache, runtimeSource, startRuntime } from '../src/sandbox/runtimeBundle.ts';
import { SharedCounters } from '../src/sandbox/sharedCounters.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, one: { type: 'string' } } });

/** One first run in this process, keeping its snapshot and code cache in `dir`: isolate CPU ms and wall ms of compiling, starting and reporting. */
async function firstRun(dir: string): Promise<{ cpu: number; wall: number }> {
  const code = await runtimeSource();
  const snapshot = createStartupSnapshot([], { dir });
  const isolate = new ivm.Isolate({ memoryLimit: 64, snapshot: snapshot.blob });
  // A small snippet's config: no positions, no sites (as eval/runFloor.ts).
  const config = JSON.stringify({
    hook: '__h', shownHook: '__h', statements: 1, branches: [], sites: [], messages: {}, seed: 0, startTime: 0, maxConsoleBytes: 1_000_000,
    driveTargets: [], drive: false, prefer: {}, positions: [],
  });
  try {
    const context = await isolate.createContext();
    const cpuBefore = isolate.cpuTime;
    const started = performance.now();
    const lifecycle = await startRuntime(isolate, context, { bridge: new ivm.Reference(() => '{}'), config, counters: new SharedCounters(1, []).transferable(), memoryLimitMb: 64 }, 10_000, snapshot);
    lifecycle.applySync(undefined, ['report'] as never, { result: { copy: true } });
    const result = { cpu: Number(isolate.cpuTime - cpuBefore) / 1e6, wall: performance.now() - started };
    refreshRuntimeCache(isolate, code, snapshot); // as a run that finished: the cache is produced again and kept
    return result;
  } finally {
    isolate.dispose();
  }
}

if (values.one !== undefined) {
  process.stdout.write(JSON.stringify(await firstRun(values.one)));
} else {
  const rounds = Number(values.rounds);
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-kept-code-cache-'));
  const one = () => JSON.parse(execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--one', dir], { encoding: 'utf8' })) as { cpu: number; wall: number };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const fromSource: { cpu: number; wall: number }[] = [];
  const fromKept: { cpu: number; wall: number }[] = [];
  one(); // makes the snapshot and keeps a code cache
  for (let i = 0; i < rounds; i++) {
    fromKept.push(one());
    for (const f of readdirSync(dir)) if (f.startsWith('codecache-')) rmSync(join(dir, f));
    fromSource.push(one());
  }
  rmSync(dir, { recursive: true, force: true });
  const show = (name: string, xs: { cpu: number; wall: number }[]) => console.log(`${name}: isolate CPU median ${median(xs.map((x) => x.cpu)).toFixed(1)} ms, wall median ${median(xs.map((x) => x.wall)).toFixed(1)} ms (${xs.length} processes)`);
  show('runtime compiled from source', fromSource);
  show('runtime compiled from the kept code cache', fromKept);
}
