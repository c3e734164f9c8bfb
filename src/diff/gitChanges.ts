import { execFileSync } from 'node:child_process';
import { SnipexecError } from '../errors.ts';

/** The diff could not be computed: not a git repository, an unknown BASE, no git. */
export class DiffFailed extends SnipexecError {
  constructor(message: string) {
    super('DIFF_FAILED', message);
  }
}

/** One changed file of the working tree and its changed lines (1-based, in the new version). */
export interface ChangedFile {
  readonly path: string;
  readonly lines: ReadonlySet<number>;
}

export const SOURCE_EXTENSIONS = /\.(?:[cm]?js|jsx|ts|tsx|mts|cts)$/i;

/**
 * The JavaScript and TypeScript files that differ between BASE and the working tree, as
 * `git diff BASE` sees them, with the lines added or changed. A pure deletion touches the line
 * after it, so the function it was cut from still counts as changed.
 */
export function gitChanges(cwd: string, base = 'HEAD'): ChangedFile[] {
  let out: string;
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${base}^{commit}`], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new DiffFailed(`${base} is not a commit in a git repository at ${cwd}${reason(error)}`);
  }
  try {
    out = execFileSync('git', ['diff', '--unified=0', '--no-color', '--no-ext-diff', '--no-renames', base, '--'], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new DiffFailed(`git diff ${base} failed${reason(error)}`);
  }
  return parseUnifiedDiff(out).filter((f) => SOURCE_EXTENSIONS.test(f.path));
}

/** Parses `git diff --unified=0` output into changed files and new-side line numbers. */
export function parseUnifiedDiff(text: string): ChangedFile[] {
  const files: { path: string; lines: Set<number> }[] = [];
  let current: { path: string; lines: Set<number> } | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('+++ ')) {
      const target = line.slice(4).trim();
      current = target === '/dev/null' ? undefined : { path: target.replace(/^b\//, ''), lines: new Set() };
      if (current) files.push(current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      if (count === 0) current.lines.add(start + 1);
      for (let i = 0; i < count; i++) current.lines.add(start + i);
    }
  }
  return files.filter((f) => f.lines.size > 0);
}

function reason(error: unknown): string {
  const stderr = (error as { stderr?: Buffer | string }).stderr;
  const text = stderr ? String(stderr).trim() : '';
  return text ? `: ${text.split('\n')[0]}` : '';
}
