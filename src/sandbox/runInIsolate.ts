import { readFileSync } from 'node:fs';
import ivm from 'isolated-vm';
import type { RuntimeConfig, RuntimeReport } from './runtimeConfig.ts';

// One closure: the runtime, then the recording proxies of trace mode, which share its primordials.
const RUNTIME_SOURCE = ['runtime.js', 'probe.js'].map((f) => readFileSync(new URL(`../isolate/${f}`, import.meta.url), 'utf8')).join('\n');
const MAX_REPORT_BYTES = 8 * 1024 * 1024;

export type ExecutionStatus = 'completed' | 'stopped' | 'pending' | 'timeout' | 'memory-limit' | 'internal-error';

export interface Execution {
  /** Uninstrumented definitions, run first as their own script. */
  readonly prelude: string;
  /** Uninstrumented script that hands prelude values to the runtime; not part of --emit. */
  readonly adopt: string;
  readonly script: string;
  readonly config: RuntimeConfig;
  readonly timeoutMs: number;
  readonly memoryLimitMb: number;
  readonly maxTimerTicks: number;
  /** Answers a value request from inside the isolate: JSON in, JSON out. */
  readonly onRequest: (json: string) => Promise<string>;
}

export interface ExecutionResult {
  readonly status: ExecutionStatus;
  readonly report: RuntimeReport | undefined;
  /** Why the sandbox ended the run, when it did. */
  readonly reason?: string;
}

/**
 * Runs one execution in a fresh isolate and context. A watchdog disposes the isolate at the
 * deadline, which also stops spin loops in promise continuations and timers; isolated-vm's own
 * timeout only covers the call it is given to.
 */
export async function runInIsolate(exec: Execution): Promise<ExecutionResult> {
  const isolate = new ivm.Isolate({ memoryLimit: exec.memoryLimitMb });
  // Time the isolate spends blocked on the host (an LLM answering) is not the snippet's time:
  // isolated-vm's own timeouts do not count it either.
  const start = Date.now();
  let hostMs = 0;
  let inHost = 0;
  const deadline = () => start + exec.timeoutMs + hostMs;
  let timedOut = false;
  let watchdog: NodeJS.Timeout | undefined;
  const watch = (ms: number) => {
    watchdog = setTimeout(() => {
      const late = Date.now() - (deadline() + 250);
      if (inHost > 0 || late < 0) return watch(inHost > 0 ? 250 : -late);
      timedOut = true;
      if (!isolate.isDisposed) isolate.dispose();
    }, ms);
  };
  watch(exec.timeoutMs + 250);
  const bridge = new ivm.Reference(async (json: unknown) => {
    if (typeof json !== 'string') return '{}';
    const t0 = Date.now();
    inHost++;
    try {
      return await exec.onRequest(json);
    } finally {
      inHost--;
      hostMs += Date.now() - t0;
    }
  });
  let context: ivm.Context | undefined;
  const remaining = () => Math.max(1, deadline() - Date.now());
  try {
    context = await isolate.createContext();
    await context.evalClosure(RUNTIME_SOURCE, [bridge, JSON.stringify(exec.config)], { timeout: remaining() });
    if (exec.prelude) await runScript(isolate, context, exec.prelude, 'snipexec:prelude', remaining());
    if (exec.adopt) await runScript(isolate, context, exec.adopt, 'snipexec:adopt', remaining());
    await runScript(isolate, context, exec.script, 'snipexec:snippet', remaining());
    const hook = exec.config.hook;
    await runTimers(context, hook, exec.maxTimerTicks, remaining);
    let driven: number[] = [];
    if (exec.config.entryPoints.length > 0) {
      // The functions nothing called are called now, after everything else settled; then their timers.
      driven = JSON.parse((await context.eval(`${hook}.drive()`, { timeout: remaining() })) as string) as number[];
      if (driven.length > 0) await runTimers(context, hook, exec.maxTimerTicks, remaining);
    }
    const raw = (await context.eval(`${hook}.report()`, { timeout: 2_000 })) as string;
    if (typeof raw !== 'string' || raw.length > MAX_REPORT_BYTES) return { status: 'internal-error', report: undefined, reason: 'runtime report too large' };
    const report = JSON.parse(raw) as RuntimeReport;
    report.driven = driven;
    if (report.errors.length > 0) return { status: 'stopped', report };
    // Nothing is left to run, yet the top level still waits: on a promise that can never settle.
    if (!report.done) return { status: 'pending', report, reason: 'the top level is still waiting on a promise that never settled' };
    return { status: 'completed', report };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const report = await salvageReport(isolate, context, exec.config.hook);
    if (/memory limit/i.test(message)) return { status: 'memory-limit', report, reason: message };
    if (timedOut || /timed out/i.test(message)) return { status: 'timeout', report, reason: message };
    if (isolate.isDisposed) return { status: 'memory-limit', report, reason: message };
    // isolated-vm surfaces a rejection nobody handled as an error of the call that left it behind.
    if (report && !(error instanceof Error && error.name === 'SyntaxError' && /snipexec:/.test(error.stack ?? ''))) {
      return { status: 'stopped', report: { ...report, errors: [...report.errors, { type: 'UnhandledRejection', message, sid: report.lastSite, attribution: 'snippet' }] } };
    }
    return { status: 'internal-error', report, reason: message };
  } finally {
    clearTimeout(watchdog);
    bridge.release();
    context?.release();
    if (!isolate.isDisposed) isolate.dispose();
  }
}

async function runTimers(context: ivm.Context, hook: string, maxTicks: number, remaining: () => number): Promise<void> {
  for (let tick = 0; tick < maxTicks; tick++) {
    const more = (await context.eval(`${hook}.tick()`, { timeout: remaining() })) as boolean;
    if (!more) break;
  }
}

async function runScript(isolate: ivm.Isolate, context: ivm.Context, code: string, filename: string, timeout: number): Promise<void> {
  const script = await isolate.compileScript(code, { filename });
  try {
    await script.run(context, { timeout });
  } finally {
    script.release();
  }
}

/** After a timeout the counters are still in the isolate, unless it was disposed; fetch what is left. */
async function salvageReport(isolate: ivm.Isolate, context: ivm.Context | undefined, hook: string): Promise<RuntimeReport | undefined> {
  if (!context || isolate.isDisposed) return undefined;
  try {
    const raw = (await context.eval(`${hook}.report()`, { timeout: 1_000 })) as string;
    return raw.length > MAX_REPORT_BYTES ? undefined : (JSON.parse(raw) as RuntimeReport);
  } catch {
    return undefined;
  }
}
