import { accessSync, constants, readFileSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { UnusableFile } from '../core/errors.ts';

/**
 * The files the CLI is given, checked before anything runs, so a wrong path is one line and exit 2
 * rather than a stack trace, a hang or a batch that fails half-way. Only regular files are read:
 * the file is stat'ed before it is opened, so a FIFO nobody writes to is refused instead of waited on
 * (standard input, `-`, is the way to pipe a snippet in).
 */
export function readInputFile(path: string): Buffer {
  if (path === '-') return readFileSync(0);
  checkInputFile(path);
  try {
    return readFileSync(path);
  } catch (error) {
    throw unusable(path, error);
  }
}

/** A snippet file (not `-`) readInputFile will read, checked before anything runs: a FIFO is told to come through standard input. */
export function checkInputFile(path: string): void {
  checkReadableFile(path, 'pipe it to standard input with - instead');
}

/** A regular file we may read; `pipeHint` says what to do instead when it is a FIFO. */
export function checkReadableFile(path: string, pipeHint?: string): void {
  const stats = statOf(path);
  if (stats === undefined) throw new UnusableFile(`${path}: no such file`);
  if (!stats.isFile()) throw new UnusableFile(`${path}: ${kindOf(stats)}, not a regular file${stats.isFIFO() && pipeHint ? `; ${pipeHint}` : ''}`);
  try {
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw unusable(path, error);
  }
}

/** A file we may write (and, with `read`, read back): a regular file, or a new one in an existing directory. */
export function checkWritableFile(path: string, read = false): void {
  const stats = statOf(path);
  if (stats === undefined) {
    const dir = statOf(dirname(path));
    if (!dir?.isDirectory()) throw new UnusableFile(`${path}: its directory ${dirname(path)} does not exist`);
    return;
  }
  if (!stats.isFile()) throw new UnusableFile(`${path}: ${kindOf(stats)}, not a regular file`);
  try {
    accessSync(path, constants.W_OK | (read ? constants.R_OK : 0));
  } catch (error) {
    throw unusable(path, error);
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw unusable(path, error);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

function unusable(path: string, error: unknown): UnusableFile {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'a directory' : code === 'ENOENT' ? 'no such file' : (error as Error).message;
  return new UnusableFile(`${path}: ${why}`);
}
