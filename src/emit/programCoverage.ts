import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8ToIstanbul from 'v8-to-istanbul';
import type { ProgramLayout } from '../core/runDetail.ts';
import { runWithNode, type NodeRun, type NodeRunOptions } from './runWithNode.ts';

/** What a program did under plain `node`, and which of the lines a run covered it did not. */
export interface ProgramCoverage {
  readonly run: NodeRun;
  /** Whether V8 wrote the program's coverage: not when the timeout killed it. */
  readonly measured: boolean;
  /** The program's lines (1-based) V8 counted as run, as v8-to-istanbul counts a line. */
  readonly coveredLines: ReadonlySet<number>;
  /** The expected snippet lines none of whose program lines ran, in order. */
  readonly missing: readonly number[];
}

/**
 * Runs a completed program under plain `node` with V8's coverage on, and checks that it covers
 * `expected`, the snippet lines a run covered: a snippet line holds when one of the program lines
 * holding its code ran. A line counts as run unless a block V8 counted 0 spans all of it
 * (v8-to-istanbul's rule): `} else {` reads as run whichever way the `if` went, so compare
 * statement lines (a result's `lines.measured`). A snippet line with no code in the program is missing.
 */
export async function programCoverage(layout: ProgramLayout, expected: Iterable<number>, options: NodeRunOptions = {}): Promise<ProgramCoverage> {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-coverage-'));
  try {
    const run = await runWithNode(layout.code, { ...options, env: { ...options.env, NODE_V8_COVERAGE: dir } });
    const functions = scriptCoverage(dir, pathToFileURL(run.file).href);
    const coveredLines = functions === undefined ? new Set<number>() : await linesRun(run.file, layout.code, functions);
    const missing = [...new Set(expected)].sort((a, b) => a - b).filter((line) => !(layout.snippetLines.get(line) ?? []).some((l) => coveredLines.has(l)));
    return { run, measured: functions !== undefined, coveredLines, missing };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The program's entry in the coverage files V8 wrote to `dir`, found by its URL; undefined when none was written. */
function scriptCoverage(dir: string, url: string): Profiler.FunctionCoverage[] | undefined {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const written = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { result?: Profiler.ScriptCoverage[] };
    const script = written.result?.find((s) => s.url === url);
    if (script) return script.functions;
  }
  return undefined;
}

/** The lines of `source` (1-based, split on `\n`) that v8-to-istanbul counts as run. */
async function linesRun(file: string, source: string, functions: readonly Profiler.FunctionCoverage[]): Promise<Set<number>> {
  // The source is given, not read back: runWithNode has removed the file. CommonJS has no wrapper in Node ≥ 12.
  const converter = v8ToIstanbul(file, 0, { source });
  await converter.load();
  converter.applyCoverage(functions);
  const covered = new Set<number>();
  for (const entry of Object.values(converter.toIstanbul())) {
    for (const [k, where] of Object.entries(entry.statementMap)) if ((entry.s[k] ?? 0) > 0) covered.add(where.start.line);
  }
  return covered;
}
