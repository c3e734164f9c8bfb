/**
 * The `node-fs` environment: `fs` and `fs/promises` over an in-memory volume (memfs). Nothing
 * touches the host's disk. The snippet runs in /app; a file it reads that it did not write is
 * created on first read with learnt content (learntFileSystem.ts). Needs the `node` environment
 * (its `process` and `URL`, read when this bundle is evaluated, and its `Buffer`, taken at setup).
 */
import { memfs, type MemfsOptions } from 'memfs';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { takeGlobalBuffer } from '../node/shims/globalBuffer.ts';
import { learnJsonParse } from '../shared/learnJsonParse.ts';
import { LearntFileSystem } from './learntFileSystem.ts';

export function setup(host: EnvironmentHost): void {
  takeGlobalBuffer(host.global);
  // the node environment's process: relative paths follow its cwd() (/app) and chdir()
  const proc = (host.global as unknown as { process: MemfsOptions['process'] }).process;
  const { fs, vol } = memfs({}, { process: proc });
  for (const dir of ['/app', '/tmp', '/home/node']) vol.mkdirSync(dir, { recursive: true });
  const files = new LearntFileSystem(host, vol as unknown as Record<string, (...args: unknown[]) => unknown>, learnJsonParse(host.global).probe);
  const module = fs as unknown as Record<string, unknown>;
  files.wrapFs(module);
  for (const name of ['createReadStream', 'createWriteStream']) {
    // memfs reads a string option as an object and loses the encoding: pass it as { encoding }
    const create = module[name] as (path: unknown, options?: unknown) => unknown;
    module[name] = (path: unknown, options?: unknown) => create(path, typeof options === 'string' ? { encoding: options } : options);
  }
  const promises = files.wrapPromises({ ...fs.promises } as unknown as Record<string, unknown>);
  module.promises = promises;
  delete module.__vol; // the volume's own methods would bypass the learnt files
  host.defineModule('fs', module);
  host.defineModule('fs/promises', promises);
}
