import parseDiff from 'parse-diff';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SnipexecError } from '../core/errors.ts';

/** The diff could not be computed: not a git repository, an unknown BASE, no git. */
export class DiffFailed extends SnipexecError {
  constructor(message: string) {
    super('DIFF_FAILED', message);
  }
}

/** One changed file of the working tree and its changed lines (1-based, in the new version). */
export interface ChangedFile {
  /** Relative to the repository's top-level directory, with `/`. */
  readonly path: string;
  readonly lines: ReadonlySet<number>;
  /** Not tracked by git (and not ignored): every line of it is new. */
  readonly untracked?: true;
}

/** The changed files and the directory their paths are relative to. */
export interface GitChanges {
  /** The repository's top-level directory, absolute. */
  readonly root: string;
  readonly files: ChangedFile[];
}

export const SOURCE_EXTENSIONS = /\.(?:[cm]?js|jsx|ts|tsx|mts|cts)$/i;

/** Installed dependencies are not the change, even where no .gitignore says so. */
const DEPENDENCIES = /(?:^|\/)node_modules\//;

/**
 * The JavaScript and TypeScript files that differ between BASE and the working tree, as
 * `git diff BASE` sees them, with the lines added or changed; and, unless `untracked` is false,
 * the files git does not track and does not ignore (`git ls-files --others --exclude-standard`),
 * every line of them changed. A pure deletion touches the line after it, so the function it was
 * cut from still counts as changed. Paths are relative to the repository's top level, wherever
 * in the repository `cwd` is.
 */
export function gitChanges(cwd: string, base = 'HEAD', untracked = true): GitChanges {
  const root = topLevel(cwd, base);
  try {
    git(root, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`]);
  } catch (error) {
    throw new DiffFailed(`${base} is not a commit in a git repository at ${cwd}${reason(error)}`);
  }
  let out: string;
  try {
    out = git(root, ['-c', 'core.quotePath=false', 'diff', '--unified=0', '--no-color', '--no-ext-diff', '--no-renames', base, '--']);
  } catch (error) {
    throw new DiffFailed(`git diff ${base} failed${reason(error)}`);
  }
  const files = parseUnifiedDiff(out).filter((f) => SOURCE_EXTENSIONS.test(f.path) && !DEPENDENCIES.test(f.path));
  if (untracked) files.push(...untrackedFiles(root));
  return { root, files };
}

/** The untracked, not ignored source files under `root`, each with all its lines. */
function untrackedFiles(root: string): ChangedFile[] {
  let out: string;
  try {
    // -z: paths as they are, never quoted.
    out = git(root, ['ls-files', '--others', '--exclude-standard', '-z']);
  } catch (error) {
    throw new DiffFailed(`git ls-files --others failed${reason(error)}`);
  }
  return out.split('\0').filter((p) => p !== '' && SOURCE_EXTENSIONS.test(p) && !DEPENDENCIES.test(p)).sort().flatMap((path): ChangedFile[] => {
    let count: number;
    try {
      count = lineCount(readFileSync(join(root, path), 'utf8'));
    } catch {
      return []; // a dangling symlink or a directory named like a source file: nothing to run
    }
    return count === 0 ? [] : [{ path, lines: new Set(Array.from({ length: count }, (_, i) => i + 1)), untracked: true }];
  });
}

/** Lines of a text, a final newline ending the last line rather than starting another. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split(/\r\n|\r|\n/).length;
  return /(?:\r\n|\r|\n)$/.test(text) ? lines - 1 : lines;
}

function topLevel(cwd: string, base: string): string {
  try {
    return git(cwd, ['rev-parse', '--show-toplevel']).trim();
  } catch (error) {
    throw new DiffFailed(`${base} is not a commit in a git repository at ${cwd}${reason(error)}`);
  }
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Parses `git diff --unified=0` output (parse-diff) into changed files and new-side line numbers:
 * every added line, and for a hunk that only deletes, the line after the deletion.
 */
export function parseUnifiedDiff(text: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  for (const file of parseDiff(text)) {
    if (file.to === undefined || file.to === '/dev/null') continue;
    const lines = new Set<number>();
    for (const chunk of file.chunks) {
      if (chunk.newLines === 0) lines.add(chunk.newStart + 1);
      for (const change of chunk.changes) if (change.type === 'add') lines.add(change.ln);
    }
    if (lines.size > 0) files.push({ path: file.to, lines });
  }
  return files;
}

function reason(error: unknown): string {
  const stderr = (error as { stderr?: Buffer | string }).stderr;
  const text = stderr ? String(stderr).trim() : '';
  return text ? `: ${text.split('\n')[0]}` : '';
}

/** A file's text at BASE (`git show BASE:path`); undefined when BASE has no such file. */
export function baseText(root: string, base: string, path: string): string | undefined {
  try {
    return git(root, ['show', `${base}:${path}`]);
  } catch {
    return undefined;
  }
}
