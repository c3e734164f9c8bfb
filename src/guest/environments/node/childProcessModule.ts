import { Buffer } from 'buffer';
import { EventEmitter } from 'events';
import { PROMISIFY_CUSTOM } from './utilModule.ts';

type Callback = (error: Error | null, stdout: string | Buffer, stderr: string | Buffer) => void;

/** A child's output stream: it never emits data (nothing really runs), then ends. */
function quietStream(): EventEmitter & Record<string, unknown> {
  const stream = new EventEmitter() as EventEmitter & Record<string, unknown>;
  Object.assign(stream, { readable: true, setEncoding: () => stream, pipe: (dest: unknown) => dest, resume: () => stream, pause: () => stream });
  return stream;
}

/**
 * What a modelled child gives back: empty output, a string when an encoding other than 'buffer'
 * is asked for, else as the call gives it by default (a string for exec and execFile, a Buffer for
 * the synchronous calls).
 */
function output(options: unknown, byDefault: 'utf8' | 'buffer'): string | Buffer {
  const asked = options && typeof options === 'object' ? (options as { encoding?: unknown }).encoding : undefined;
  const encoding = typeof asked === 'string' ? asked : byDefault;
  return encoding !== 'buffer' ? '' : Buffer.alloc(0);
}

/**
 * `child_process`: nothing runs. Every command succeeds at once with empty output and exit code 0,
 * through the same callbacks and events a real child has, so the snippet's handling code runs.
 */
export function createChildProcess(enqueue: (fn: () => void) => void): Record<string, unknown> {
  let nextPid = 5000;
  const child = (): EventEmitter & Record<string, unknown> => {
    const proc = new EventEmitter() as EventEmitter & Record<string, unknown>;
    const stdout = quietStream(), stderr = quietStream();
    Object.assign(proc, {
      pid: nextPid++,
      stdin: Object.assign(new EventEmitter(), { write: () => true, end: () => undefined }),
      stdout,
      stderr,
      exitCode: null,
      signalCode: null,
      killed: false,
      connected: false,
      kill: () => { proc.killed = true; return true; },
      send: () => true,
      disconnect: () => undefined,
      unref: () => proc,
      ref: () => proc,
    });
    enqueue(() => {
      proc.exitCode = 0;
      stdout.emit('end');
      stderr.emit('end');
      proc.emit('exit', 0, null);
      proc.emit('close', 0, null);
    });
    return proc;
  };
  const withCallback = (options: unknown, callback: unknown) => {
    const proc = child();
    const cb = (typeof options === 'function' ? options : callback) as Callback | undefined;
    if (typeof cb === 'function') enqueue(() => cb(null, output(options, 'utf8'), output(options, 'utf8')));
    return proc;
  };
  const spawnSync = (_command: string, _args?: unknown, options?: unknown) => {
    const out = output(Array.isArray(_args) ? options : _args, 'buffer');
    return { pid: nextPid++, output: [null, out, out], stdout: out, stderr: out, status: 0, signal: null };
  };
  // util.promisify(exec) resolves { stdout, stderr }, as Node's custom promise form does
  const resolved = (options: unknown) => new Promise((resolve) => enqueue(() => resolve({ stdout: output(options, 'utf8'), stderr: output(options, 'utf8') })));
  const exec = (_command: string, options?: unknown, callback?: unknown) => withCallback(options, callback);
  const execFile = (_file: string, args?: unknown, options?: unknown, callback?: unknown) =>
    typeof args === 'function' ? withCallback(args, undefined) : Array.isArray(args) ? withCallback(options, callback) : withCallback(args, options);
  Object.defineProperty(exec, PROMISIFY_CUSTOM, { value: (_command: string, options?: unknown) => resolved(options) });
  Object.defineProperty(execFile, PROMISIFY_CUSTOM, { value: (_file: string, args?: unknown, options?: unknown) => resolved(Array.isArray(args) ? options : args) });
  return {
    exec,
    execFile,
    spawn: () => child(),
    fork: () => Object.assign(child(), { connected: true }),
    execSync: (_command: string, options?: unknown) => output(options, 'buffer'),
    execFileSync: (_file: string, args?: unknown, options?: unknown) => output(Array.isArray(args) ? options : args, 'buffer'),
    spawnSync,
    ChildProcess: EventEmitter,
  };
}
