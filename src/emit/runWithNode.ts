import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NodeRun {
  /** Exit status; null when a signal (the timeout's) ended the process. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** What the program wrote to stdout and stderr, as one stream in the order it was written. */
  readonly output: string;
  /** Where the program ran from (removed since): the path V8 coverage and stack traces name it by. */
  readonly file: string;
}

export interface NodeRunOptions {
  readonly timeoutMs?: number;
  /** File extension of the program: `.js` (default) or `.ts` for Node's type stripping. */
  readonly ext?: '.js' | '.ts';
  /** The Node binary; the running one by default (Node 24 when started through npm). */
  readonly node?: string;
  /** Variables added to the program's environment (this process's, with NODE_OPTIONS emptied), e.g. NODE_V8_COVERAGE. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Runs a program with plain `node`, not through snipexec: written to a fresh temporary directory
 * (no package.json above it, so Node decides CommonJS or ES module from the syntax), run there
 * with no input, and killed at the timeout. stdout and stderr share one file, so the output reads
 * as a terminal would show it, in order.
 */
export async function runWithNode(program: string, options: NodeRunOptions = {}): Promise<NodeRun> {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-emit-'));
  try {
    const file = join(dir, `program${options.ext ?? '.js'}`);
    writeFileSync(file, program);
    const outFile = join(dir, 'output.txt');
    const fd = openSync(outFile, 'w');
    let timedOut = false;
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(options.node ?? process.execPath, [file], { cwd: dir, stdio: ['ignore', fd, fd], env: { ...process.env, NODE_OPTIONS: '', ...options.env } });
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs ?? 10_000);
      child.on('error', (e) => { clearTimeout(timer); reject(e); });
      child.on('exit', (code) => { clearTimeout(timer); resolve(code); });
    });
    closeSync(fd);
    return { exitCode, timedOut, output: readFileSync(outFile, 'utf8'), file };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
