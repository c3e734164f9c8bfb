import { EventEmitter } from 'events';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { createEnv } from './envProxy.ts';
import { SNIPPET_PATH } from '../../../protocol/snippetFile.ts';

/** Where the modelled process lives: the snippet is `/app/snippet.js`, run from `/app`. */
export const CWD = '/app';
/** The snippet's file (`__filename`, `process.argv[1]`): the one its stack frames name too. */
export const FILENAME = SNIPPET_PATH;
const NODE_VERSION = 'v24.0.0';

/** A stream the snippet writes to: whole lines go to the console, a partial line waits for the rest. */
export interface OutputStream {
  write(chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean;
  /** Prints what is left of a partial line. */
  flush(): void;
}

type Print = (line: string) => void;

function outputStream(print: Print, fd: number): OutputStream & Record<string, unknown> {
  let pending = '';
  const stream = new EventEmitter() as EventEmitter & OutputStream & Record<string, unknown>;
  Object.assign(stream, {
    fd,
    isTTY: false,
    columns: 80,
    rows: 24,
    writable: true,
    write(chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean {
      pending += typeof chunk === 'string' ? chunk : String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) print(line);
      const cb = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)());
      return true;
    },
    end(chunk?: unknown): void {
      if (chunk !== undefined && typeof chunk !== 'function') stream.write(chunk);
      stream.flush();
    },
    flush(): void {
      if (pending !== '') print(pending);
      pending = '';
    },
    getColorDepth: () => 1,
    hasColors: () => false,
    cork() {},
    uncork() {},
  });
  return stream;
}

/** The modelled `process`: an EventEmitter with Node's members; nothing of the host's process. */
export type ProcessModel = EventEmitter & Record<string, unknown> & { stdout: OutputStream; stderr: OutputStream; exitCode: number | undefined };

/** Builds the modelled `process` of one run. `exit` ends the run as completed, after the 'exit' listeners. */
export function createProcess(host: EnvironmentHost): ProcessModel {
  // the runtime's console.log, taken now: Node's stdout writes to its file descriptor, never through the console
  // the snippet may replace with one that writes to process.stdout (which would loop)
  const console = host.global.console;
  const consoleLog = console.log;
  const consoleError = typeof console.error === 'function' ? console.error : consoleLog;
  const log: Print = (line) => Reflect.apply(consoleLog, console, [line]);
  const error: Print = (line) => Reflect.apply(consoleError, console, [line]);
  const enqueue = host.global.queueMicrotask ?? ((fn: () => void) => void Promise.resolve().then(fn));
  const now = () => host.global.Date.now(); // the runtime's virtual clock
  const started = now();
  let cwd = CWD;
  let exiting = false;
  const proc = new EventEmitter() as ProcessModel;
  const hrtime = (previous?: readonly [number, number]): [number, number] => {
    const ns = (now() - started) * 1e6;
    let s = Math.floor(ns / 1e9), n = Math.floor(ns % 1e9);
    if (previous) {
      s -= previous[0];
      n -= previous[1];
      if (n < 0) { s -= 1; n += 1e9; }
    }
    return [s, n];
  };
  hrtime.bigint = () => BigInt(Math.round((now() - started) * 1e6));
  Object.assign(proc, {
    title: 'node',
    version: NODE_VERSION,
    versions: { node: NODE_VERSION.slice(1), v8: '13.6.233.10-node.24', uv: '1.51.0', modules: '137', napi: '10' },
    arch: 'x64',
    platform: 'linux',
    release: { name: 'node', lts: undefined },
    pid: 4242,
    ppid: 4241,
    execPath: '/usr/local/bin/node',
    execArgv: [],
    argv: ['/usr/local/bin/node', FILENAME],
    argv0: 'node',
    env: createEnv(host, { NODE_ENV: 'development', HOME: '/home/node', PATH: '/usr/local/bin:/usr/bin:/bin', PWD: CWD, USER: 'node', SHELL: '/bin/sh', LANG: 'C.UTF-8' }),
    exitCode: undefined,
    // Native code loaders: the sandbox has none, so they are modelled as absent (not learnt from usage).
    binding: undefined,
    dlopen: undefined,
    config: { variables: {} },
    features: {},
    stdout: outputStream(log, 1),
    stderr: outputStream(error, 2),
    // setRawMode as a terminal's stdin has it (what snippets that call it run in)
    stdin: Object.assign(new EventEmitter(), { fd: 0, isTTY: false, isRaw: false, setEncoding() {}, resume() {}, pause() {}, setRawMode(mode: unknown) { this.isRaw = Boolean(mode); return this; } }),
    cwd: () => cwd,
    chdir(dir: string) { cwd = String(dir).startsWith('/') ? String(dir) : `${cwd}/${String(dir)}`; },
    nextTick(fn: (...args: unknown[]) => void, ...args: unknown[]) { host.nextTick(fn, args); },
    hrtime,
    uptime: () => (now() - started) / 1000,
    memoryUsage: Object.assign(() => ({ rss: 50_331_648, heapTotal: 16_777_216, heapUsed: 8_388_608, external: 1_048_576, arrayBuffers: 65_536 }), { rss: () => 50_331_648 }),
    cpuUsage: () => ({ user: 1000, system: 500 }),
    resourceUsage: () => ({ userCPUTime: 1000, systemCPUTime: 500, maxRSS: 49_152 }),
    umask: () => 0o22,
    getuid: () => 1000,
    geteuid: () => 1000,
    getgid: () => 1000,
    getegid: () => 1000,
    kill: () => true,
    abort(): never { return host.exit(134); },
    emitWarning(warning: unknown) { error(`(node:4242) ${warning instanceof Error ? `${warning.name}: ${warning.message}` : `Warning: ${String(warning)}`}`); },
    exit(code?: number): never {
      const status = code ?? proc.exitCode ?? 0;
      if (!exiting) {
        exiting = true; // an 'exit' listener that calls exit() again does not loop
        proc.stdout.flush();
        proc.stderr.flush();
        proc.emit('exit', status);
      }
      return host.exit(Number(status) || 0);
    },
  });
  return proc;
}

/**
 * What Node does when the event loop empties, as a driver after the snippet: 'beforeExit' and
 * 'exit' reach their listeners, and a partial line written to stdout is printed.
 */
export function endOfProcess(proc: ProcessModel): () => void {
  return () => {
    const status = proc.exitCode ?? 0;
    if (proc.listenerCount('beforeExit') > 0) proc.emit('beforeExit', status);
    if (proc.listenerCount('exit') > 0) proc.emit('exit', status);
    proc.stdout.flush();
    proc.stderr.flush();
  };
}
