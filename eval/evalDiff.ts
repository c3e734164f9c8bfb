import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDiff } from '../src/diff/runDiff.ts';

const CASES = new URL('../datasets/type-errors/cases.jsonl', import.meta.url).pathname;

interface DiffCase { id: string; file: string; before: string; after: string; expect: { line: number } | null }

export interface DiffEvaluation {
  readonly buggy: number;
  readonly detected: number;
  readonly clean: number;
  readonly falsePositives: number;
  readonly missed: readonly string[];
  readonly flagged: readonly string[];
}

/**
 * The diff command against ground truth: each case is a commit (`before`) and a working-tree change
 * (`after`) in a fresh git repository; a buggy case counts as detected when a finding lands on its
 * line. The real-history set is evalDiffHistory.ts's.
 */
export async function evaluateDiff(): Promise<DiffEvaluation> {
  const cases = readFileSync(CASES, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as DiffCase);
  let detected = 0;
  let falsePositives = 0;
  const missed: string[] = [];
  const flagged: string[] = [];
  for (const c of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'snipexec-evaldiff-'));
    try {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
      git('init', '-q');
      git('-c', 'user.email=eval@example.invalid', '-c', 'user.name=eval', 'commit', '-q', '--allow-empty', '-m', 'empty');
      writeFileSync(join(dir, c.file), c.before);
      git('add', '.');
      git('-c', 'user.email=eval@example.invalid', '-c', 'user.name=eval', 'commit', '-q', '-m', 'before');
      writeFileSync(join(dir, c.file), c.after);
      const { findings } = await runDiff({ cwd: dir });
      if (c.expect) {
        if (findings.some((f) => f.line === c.expect?.line)) detected++;
        else missed.push(c.id);
      } else if (findings.length > 0) {
        falsePositives++;
        flagged.push(c.id);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const buggy = cases.filter((c) => c.expect).length;
  return { buggy, detected, clean: cases.length - buggy, falsePositives, missed, flagged };
}
