import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNCTIONS_FILE } from '../datasets/loadDatasets.ts';
import { readDataset } from '../src/batch/readDataset.ts';
import { runDiff, runFragment } from '../src/diff/runDiff.ts';

const CASES = new URL('../datasets/type-errors/cases.jsonl', import.meta.url).pathname;

interface DiffCase { id: string; file: string; before: string; after: string; expect: { line: number } | null }

export interface DiffEvaluation {
  readonly buggy: number;
  readonly detected: number;
  readonly clean: number;
  readonly falsePositives: number;
  readonly missed: readonly string[];
  readonly flagged: readonly string[];
  /** Function bodies of released packages with a persistent own-value type error, when the set is built. */
  readonly stable: { readonly fragments: number; readonly flagged: number; readonly examples: readonly string[] } | undefined;
}

/**
 * The diff command against ground truth: each case is a commit (`before`) and a working-tree change
 * (`after`) in a fresh git repository; a buggy case counts as detected when a finding lands on its
 * line. Then the false-positive rate on stable code: every function body of the function-body set
 * run as a changed fragment.
 */
export async function evaluateDiff(limit?: number): Promise<DiffEvaluation> {
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
  let stable: DiffEvaluation['stable'];
  if (existsSync(FUNCTIONS_FILE)) {
    let fragments = 0;
    let hits = 0;
    const examples: string[] = [];
    for await (const item of readDataset(FUNCTIONS_FILE)) {
      if (limit !== undefined && fragments >= limit) break;
      fragments++;
      const lines = item.code.split('\n').length;
      const { found } = await runFragment({ file: `${item.id}.js`, name: item.id, kind: 'function', lineOffset: 0, startLine: 1, endLine: lines, changedLines: Array.from({ length: lines }, (_, i) => i + 1), code: item.code, hints: [] }, [1, 2, 3]);
      if (found.length > 0) {
        hits++;
        if (examples.length < 10) examples.push(`${item.id}: ${found[0]?.message ?? ''}`);
      }
    }
    stable = { fragments, flagged: hits, examples };
  }
  const buggy = cases.filter((c) => c.expect).length;
  return { buggy, detected, clean: cases.length - buggy, falsePositives, missed, flagged, stable };
}
