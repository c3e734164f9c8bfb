/**
 * The parent side of `gen-tests --ai`'s calls of the real functions: a driver script, written to a
 * temporary directory, loads the program as the module's test file will (testHooks, the recorded
 * argv, process.exit held off) and makes each planned call as its test will; this module runs it
 * in a child Node outside any sandbox, stops a call that runs too long, and collects the outcomes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { siblingModule } from '../core/moduleFile.ts';
import type { CallOutcome, DriverMessage } from './aiReportCalls.ts';
import type { TestPlan } from './planCalls.ts';
import { renderCallScript, type TestFileInput } from './renderTestFile.ts';

export interface RunCallsInput {
  /** The program module whose functions are called: the driver loads what its test file loads. */
  readonly module: string;
  readonly plans: readonly TestPlan[];
  /** Absolute. */
  readonly programDir: string;
  readonly entry: TestFileInput['entry'];
  /** One call may run this long before the child is killed and the call counts as not finished. */
  readonly callTimeoutMs: number;
  /** Loading the program may take this long. */
  readonly loadTimeoutMs: number;
}

/** A call's outcome, or why it has none (one line). */
export type CallResult = { readonly outcome: CallOutcome } | { readonly failed: string };

// The driver runs from a temporary directory and is removed: it may name this installation by its URL.
const REPLAY_URL = siblingModule(import.meta.url, '../replay').href;
const REPORT_CALLS_URL = siblingModule(import.meta.url, './aiReportCalls').href;
/** After the child exits, how long its output may still take to arrive (a grandchild may hold the pipe). */
const DRAIN_MS = 2_000;

/** What one child run gave: the outcomes by position, and where it stopped early (`at`: the call that did not finish). */
interface Run {
  readonly done: Map<number, CallOutcome>;
  readonly stopped?: { readonly at?: number; readonly reason: string };
}

/**
 * Calls each plan's function (the real one, with its real children) in a child process and returns
 * each outcome by the plan's callId. A call that runs past the limit, or that ends the process, has
 * a reason instead; the calls after it run in a fresh child.
 */
export async function runCalls(input: RunCallsInput): Promise<Map<number, CallResult>> {
  const results = new Map<number, CallResult>();
  const work = mkdtempSync(join(tmpdir(), 'snipexec-ai-'));
  try {
    let remaining = [...input.plans];
    for (let attempt = 0; remaining.length > 0; attempt++) {
      const run = await runOnce(input, remaining, join(work, `driver-${attempt}.mjs`));
      for (const [at, outcome] of run.done) results.set((remaining[at] as TestPlan).call.callId, { outcome });
      if (run.stopped === undefined) break;
      const { at, reason } = run.stopped;
      if (at !== undefined) results.set((remaining[at] as TestPlan).call.callId, { failed: reason });
      const next = remaining.filter((_, i) => !run.done.has(i) && i !== at);
      if (next.length === remaining.length) {
        // Nothing ran (the program did not load): a fresh child would do the same.
        for (const plan of next) results.set(plan.call.callId, { failed: reason });
        break;
      }
      remaining = next;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return results;
}

/** The driver: the test file's prelude, then each call as a function reportCalls makes in turn. */
export function driverText(input: RunCallsInput, plans: readonly TestPlan[], driverDir: string): string {
  const programDirFromTest = relative(driverDir, input.programDir).split(sep).join('/') || '.';
  const { prelude, calls } = renderCallScript({ module: input.module, plans, replayModule: REPLAY_URL, programDirFromTest, entry: input.entry });
  const thunks = calls.map((call) => (call.setup.length === 0 ? `  () => ${call.invoke},` : ['  () => {', ...call.setup.map((line) => `    ${line}`), `    return ${call.invoke};`, '  },'].join('\n')));
  return [
    `// snipexec gen-tests --ai: calls functions of ${input.module} on the inputs a model proposed, as their tests will, and reports each outcome on fd 3.`,
    `import { reportCalls } from ${JSON.stringify(REPORT_CALLS_URL)};`,
    ...prelude,
    '',
    'await reportCalls([',
    ...thunks,
    `], ${JSON.stringify(calls.map((call) => call.async))});`,
    // The program may have left timers or servers running.
    'process.exit(0);',
    '',
  ].join('\n');
}

function runOnce(input: RunCallsInput, plans: readonly TestPlan[], driverPath: string): Promise<Run> {
  writeFileSync(driverPath, driverText(input, plans, join(driverPath, '..')));
  const env = { ...process.env };
  // Set when snipexec itself runs under node:test: the program's own use of node:test would report there.
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, [driverPath], { env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: true });
  const done = new Map<number, CallOutcome>();
  let ready = false;
  let current: number | undefined;
  let timedOut: string | undefined;
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const limit = (ms: number, reason: string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = reason;
      killGroup();
    }, ms);
  };
  limit(input.loadTimeoutMs, `the program did not finish loading within ${seconds(input.loadTimeoutMs)}`);
  const onMessage = (message: DriverMessage): void => {
    if ('ready' in message) {
      ready = true;
      clearTimeout(timer);
    } else if ('start' in message) {
      current = message.start;
      limit(input.callTimeoutMs, `the real function did not finish within ${seconds(input.callTimeoutMs)} on this input`);
    } else {
      clearTimeout(timer);
      done.set(message.done, message.outcome);
      current = undefined;
    }
  };
  lines(child.stdio[3] as Readable, (line) => {
    try {
      onMessage(JSON.parse(line) as DriverMessage);
    } catch {
      // not a report: the program wrote to fd 3 itself
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
  return new Promise((resolve, reject) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drain: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      killGroup(); // what the program started and left behind
      if (done.size === plans.length) return resolve({ done });
      const how = `${exit?.signal ? `signal ${exit.signal}` : `exit code ${exit?.code ?? '?'}`}${lastLine(stderr)}`;
      if (timedOut !== undefined) return resolve({ done, stopped: { at: current, reason: timedOut } });
      if (!ready) return resolve({ done, stopped: { reason: `the program failed to load (${how})` } });
      if (current !== undefined) return resolve({ done, stopped: { at: current, reason: `the process ended during the call (${how}): did the function call process.exit or crash it?` } });
      resolve({ done, stopped: { reason: `the process ended between calls (${how})` } });
    };
    child.on('error', (error) => {
      settled = true;
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drain = setTimeout(finish, DRAIN_MS);
    });
    child.on('close', finish);
  });
}

/** Calls `onLine` with each complete line the stream gives. */
function lines(stream: Readable, onLine: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      onLine(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
  });
}

/** `: <the last line the child wrote on stderr>`, shortened; empty when it wrote none. */
function lastLine(stderr: string): string {
  const line = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('at ') && !/^Node\.js v\d/.test(l)).at(-1);
  return line === undefined ? '' : `: ${line.slice(0, 160)}`;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
