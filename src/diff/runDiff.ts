import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSnippet } from '../engine/runSnippet.ts';
import { SnipexecError } from '../errors.ts';
import type { ReportedError } from '../report/buildResult.ts';
import { findFragments, type Fragment } from './findFragments.ts';
import { gitChanges } from './gitChanges.ts';

/** A runtime type error the change's own values cause. */
export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly type: string;
  readonly message: string;
  readonly function: string;
  readonly attribution: 'snippet';
  /** 0..1: how many of the runs with differently synthesised values reproduced it, lower off a changed line. */
  readonly confidence: number;
  /** The injected elements of the run that reached it: the context it ran in. */
  readonly context: readonly string[];
  /** The code catches it itself: the run goes on, but the operation failed all the same. */
  readonly caught?: true;
}

export interface FragmentReport {
  readonly file: string;
  /** The file is new and not yet tracked by git: all of it is the change. */
  readonly untracked?: true;
  readonly function: string;
  readonly kind: Fragment['kind'];
  readonly startLine: number;
  readonly endLine: number;
  readonly changedLines: readonly number[];
  readonly status: string;
  readonly lineCoverage: number;
  readonly hints: readonly string[];
  readonly error?: string;
}

export interface DiffReport {
  readonly findings: Finding[];
  readonly fragments: FragmentReport[];
  /** The repository's top-level directory: every `file` is relative to it. */
  readonly root: string;
  /** When the diff started, as an ISO 8601 UTC time. */
  readonly startedAt: string;
  readonly elapsedMs: number;
}

export interface DiffOptions {
  readonly cwd: string;
  readonly base?: string;
  /** Seeds of the runs; a finding must appear in every one. */
  readonly seeds?: readonly number[];
  /** Also run the files git does not track and does not ignore, as wholly new (default true). */
  readonly untracked?: boolean;
}

/** The exit status of `snipexec diff` for a report: 1 with findings, 0 without. */
export function diffExitCode(report: DiffReport): 0 | 1 {
  return report.findings.length > 0 ? 1 : 0;
}

/** Error types that are runtime type errors (not the code's own `throw`, not a missing name). */
const TYPE_ERRORS = new Set(['TypeError', 'RangeError']);

/**
 * `snipexec diff`: runs every fragment a git change touched as a partial snippet in trace mode and
 * keeps the type errors whose culprit is the code's own value (literals, constants, call-site
 * arguments, results of real built-ins), not an injected one, and not one raised in a call drive
 * made (drive's receivers and arguments are synthesised). A candidate is re-run with other
 * seeds, so other synthesised values, and kept only if every run reproduces it.
 */
export async function runDiff(options: DiffOptions): Promise<DiffReport> {
  const started = Date.now();
  const seeds = options.seeds ?? [1, 2, 3];
  const findings: Finding[] = [];
  const fragments: FragmentReport[] = [];
  const { root, files } = gitChanges(options.cwd, options.base, options.untracked ?? true);
  for (const changed of files) {
    const path = join(root, changed.path);
    if (!existsSync(path)) continue; // deleted in the working tree
    const untracked = changed.untracked ? { untracked: true as const } : {};
    let found: Fragment[];
    try {
      found = findFragments(changed.path, readFileSync(path, 'utf8'), changed.lines);
    } catch (error) {
      fragments.push({ file: changed.path, ...untracked, function: '(file)', kind: 'top-level', startLine: 1, endLine: 1, changedLines: [...changed.lines], status: 'syntax-error', lineCoverage: 0, hints: [], error: message(error) });
      continue;
    }
    for (const fragment of found) {
      const { report, found: candidates } = await runFragment(fragment, seeds);
      fragments.push({ ...report, ...untracked });
      findings.push(...candidates);
    }
  }
  return { findings, fragments, root, startedAt: new Date(started).toISOString(), elapsedMs: Date.now() - started };
}

/** Runs one fragment with every seed; its report and the findings that persisted. */
export async function runFragment(fragment: Fragment, seeds: readonly number[]): Promise<{ report: FragmentReport; found: Finding[] }> {
  // The file name gives the language, as for `snipexec run`.
  // One execution: the findings are the first execution's errors, which exploring more scenarios would not change.
  const run = (seed: number) => runSnippet(fragment.code, { mode: 'trace', seed, scenarios: 1, fileName: fragment.file });
  const first = await run(seeds[0] ?? 1);
  const report: FragmentReport = {
    file: fragment.file, function: fragment.name, kind: fragment.kind, startLine: fragment.startLine, endLine: fragment.endLine,
    changedLines: fragment.changedLines, status: first.status, lineCoverage: first.lineCoverage, hints: fragment.hints,
  };
  const candidates = first.errors.filter((e) => own(e, fragment));
  if (candidates.length === 0) return { report, found: [] };
  let reproduced = candidates.map(() => 1);
  for (const seed of seeds.slice(1)) {
    const again = await run(seed);
    reproduced = candidates.map((c, i) => (reproduced[i] ?? 0) + (again.errors.some((e) => own(e, fragment) && e.line === c.line && e.type === c.type) ? 1 : 0));
  }
  const context = first.injections.map((i) => i.element);
  const found = candidates.flatMap((c, i): Finding[] => {
    if ((reproduced[i] ?? 0) < seeds.length) return [];
    const line = c.line + fragment.lineOffset;
    const onChange = fragment.changedLines.includes(line);
    return [{
      file: fragment.file, line, column: c.column, type: c.type, message: c.message, function: fragment.name, attribution: 'snippet',
      confidence: onChange ? 0.9 : 0.6, context, ...(c.caught ? { caught: true as const } : {}),
    }];
  });
  return { report, found };
}

/**
 * A type error of the code's own values, inside the fragment, and for the top level on a changed
 * line; whether the code catches it or not (a caught error is only reported when the code's own
 * operation raised it, see `caught` in the README).
 */
function own(e: ReportedError, fragment: Fragment): boolean {
  if (e.attribution !== 'snippet' || e.explicit || !TYPE_ERRORS.has(e.type) || e.line <= 0) return false;
  // Raised in a call drive made: its receiver and arguments are synthesised (a method called plain
  // shows as a lost `this`), so it is no evidence about the change; the run still reports it.
  if (e.drive !== undefined) return false;
  const line = e.line + fragment.lineOffset;
  if (fragment.kind === 'top-level') return fragment.changedLines.includes(line);
  return line >= fragment.startLine && line <= fragment.endLine;
}

function message(error: unknown): string {
  return error instanceof SnipexecError || error instanceof Error ? error.message : String(error);
}
