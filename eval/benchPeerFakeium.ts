// The Fakeium side of `npm run bench-peer` (eval/benchPeer.ts), in a child process of its own: Fakeium
// loads isolated-vm 6 and snipexec isolated-vm 7, which must never share a process.
// Usage (by benchPeer.ts only): node --no-node-snapshot --expose-gc eval/benchPeerFakeium.ts FAKEIUM_INDEX_JS
// The parent sends one snippet per IPC message ({ id, code, timeoutMs }); the child runs it and answers
// with JSON ({ id, ms, cpuMs, outcome, events, warmMs, warmCpuMs, warmOutcome }), one snippet at a time:
//   ms / cpuMs / outcome / events: a fresh `new Fakeium()` per snippet, as its README runs code, and the
//     wall and process CPU time around its `run()` call alone (which creates the isolate, then a
//     context, compiles and runs);
//   warmMs / warmCpuMs / warmOutcome: the same snippet on one Fakeium instance kept for the whole process (its
//     isolate stays; each run() makes a new context), the figure to hold a warm snipexec against.
import { pathToFileURL } from 'node:url';

/** The part of Fakeium's API this uses (fakeium/dist/index.d.ts). */
interface FakeiumInstance {
  run(specifier: string, sourceCode: string, options?: { sourceType?: 'script' | 'module'; timeout?: number }): Promise<void>;
  setResolver(resolver: (url: URL) => Promise<string | null>): void;
  getReport(): { size(): number; clear(): void };
  dispose(clearReport?: boolean): void;
}
type FakeiumClass = new (options?: { sourceType?: 'script' | 'module'; timeout?: number; logger?: null }) => FakeiumInstance;

export interface PeerRequest {
  readonly id: string;
  readonly code: string;
  readonly timeoutMs: number;
}

export interface PeerAnswer {
  readonly id: string;
  readonly ms: number;
  /** User and system CPU of this process during run(), isolate threads included. */
  readonly cpuMs: number;
  /** `ok`, or the class of what run() threw (ExecutionError for an uncaught error in the snippet, ParsingError, TimeoutError, …). */
  readonly outcome: string;
  /** What it threw, cut to 120 characters: the uncaught error inside the sandbox for an ExecutionError. */
  readonly detail?: string;
  /** Get, set and call events in Fakeium's report. */
  readonly events: number;
  readonly warmMs: number;
  readonly warmCpuMs: number;
  readonly warmOutcome: string;
}

const entry = process.argv[2];
const send = (message: unknown) => process.send?.(message);
if (entry === undefined || process.send === undefined) {
  console.error('benchPeerFakeium.ts: run by eval/benchPeer.ts, as a forked child, with the path of Fakeium\'s dist/index.js');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
let Fakeium: FakeiumClass;
try {
  Fakeium = ((await import(pathToFileURL(entry).href)) as { Fakeium: FakeiumClass }).Fakeium;
} catch (error) {
  send({ error: `cannot load Fakeium from ${entry}: ${(error as Error).message}` });
  process.exit(1);
}
/** No resolver fetches anything: an import or a script URL resolves to nothing, so nothing leaves the machine. */
const resolveNothing = async () => null;
const warm = create();

function create(): FakeiumInstance {
  const f = new Fakeium({ sourceType: 'script', logger: null });
  f.setResolver(resolveNothing);
  return f;
}

async function timed(f: FakeiumInstance, request: PeerRequest): Promise<{ ms: number; cpuMs: number; outcome: string; detail?: string }> {
  let outcome = 'ok';
  let detail: string | undefined;
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  try {
    await f.run('snippet.js', request.code, { sourceType: 'script', timeout: request.timeoutMs });
  } catch (error) {
    outcome = (error as Error)?.constructor?.name ?? 'thrown';
    const e = error as { message?: unknown; cause?: { message?: unknown } };
    detail = String(e?.cause?.message ?? e?.message ?? error).slice(0, 120);
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, outcome, ...(detail === undefined ? {} : { detail }) };
}

process.on('message', (request: PeerRequest) => {
  void (async () => {
    const fresh = create();
    const cold = await timed(fresh, request);
    const events = fresh.getReport().size();
    fresh.dispose();
    const hot = await timed(warm, request);
    warm.getReport().clear();
    const answer: PeerAnswer = { id: request.id, ms: cold.ms, cpuMs: cold.cpuMs, outcome: cold.outcome, ...(cold.detail === undefined ? {} : { detail: cold.detail }), events, warmMs: hot.ms, warmCpuMs: hot.cpuMs, warmOutcome: hot.outcome };
    send(answer);
  })();
});
send({ ready: true });
