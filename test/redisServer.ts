// A real redis-server for the queue tests: 127.0.0.1, a free port, a temporary directory, stopped after.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, waited for). */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory (after stop). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** Why the queue tests are skipped on this machine, or false when redis-server is installed (or CI requires it: SNIPEXEC_REQUIRE_REDIS=1). */
export const NO_REDIS: string | false = process.env.SNIPEXEC_REQUIRE_REDIS === '1' || spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0
  ? false
  : 'redis-server is not installed: the queue tests are skipped (apt-get install -y --no-install-recommends redis-server; .ci/run installs it)';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  // No persistence: a restart starts empty unless the test says otherwise (a save is asked for by stop).
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
}

/** Starts redis-server; its append-only file keeps the data across restart(), as a real server's would. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, dir);
  const stopChild = async () => {
    const c = child;
    child = undefined;
    if (c === undefined || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await stopChild();
    },
    async restart() {
      await stopChild();
      child = await launch(port, dir);
    },
    async dispose() {
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

