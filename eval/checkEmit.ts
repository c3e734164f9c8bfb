// The emit property, under plain Node: for every snippet a mode fully executes, its --emit'ted
// program is run with plain `node` (this process's binary: Node 24 through npm), not through
// snipexec, in a child process in a temporary directory, and so is each kept exploration
// scenario's program (`result.detail.scenarios`) that is fully executed in its own right. A program
// holds when it exits within the timeout (default 10 s) with its run's exit code (0, or the code of the process.exit that
// ended the run), its console output (stdout and stderr as one stream, in order: the
// sandbox has one console) equals the run's stdout, and it covers the lines its run covered: run
// with V8's coverage on (NODE_V8_COVERAGE), every snippet line the run covered (lines.measured
// less lines.uncovered) is run in the program (src/emit/programCoverage.ts, through where
// buildProgram put the snippet's lines). When the run's capture was capped (64 KiB), what
// it kept must be the start of the program's output.
// Usage: npm run check-emit -- [--mode trace] [--no-drive] [--all-completed] [--timeout MS] [--out FILE] [DATASET.jsonl|DIR…]
// --all-completed checks every completed run (and scenario), fully executed or not. Each dataset's line also counts
// the programs that load environments (the registry's, and installed modules as module:<name>).
// With no dataset: ../shared/datasets/so-node-edits.jsonl, ../shared/datasets/npm-readme-examples.jsonl
// and datasets/handwritten.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { programCoverage } from '../src/emit/programCoverage.ts';
import { runSnippet } from '../src/index.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { HANDWRITTEN_DIR, SHARED_DIR, readHandwritten } from '../datasets/loadDatasets.ts';

const CONCURRENCY = 2;
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const mode = (flag('--mode') ?? 'trace') as 'none' | 'dummy' | 'trace';
const timeoutMs = Number(flag('--timeout') ?? 10_000);
const outFile = flag('--out');
const switchOn = (name: string): boolean => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const drive = !switchOn('--no-drive');
// Every completed run, not only the fully executed ones: a program whose run left lines uncovered must print the same too.
const allCompleted = switchOn('--all-completed');
const sources = args.length > 0 ? args : [join(SHARED_DIR, 'so-node-edits.jsonl'), join(SHARED_DIR, 'npm-readme-examples.jsonl'), HANDWRITTEN_DIR];

/** A program that did not hold: `id` is the snippet's, with `#K` for the kept scenario K ≥ 2. */
interface Failure { readonly id: string; readonly cause: string; readonly detail: string; readonly environments: readonly string[] }

/** The environments a run loaded: the registry's by name, then the installed modules it bundled (`module:lodash`). */
function environmentsOf(r: { environments?: { loaded: readonly string[] }; modules?: readonly { specifier: string; provider?: string }[] }): string[] {
  return [...(r.environments?.loaded ?? []), ...(r.modules ?? []).filter((m) => m.provider === 'module').map((m) => `module:${m.specifier}`)];
}

/** The cause of a failed program, coarse enough to group by: the error's name and code, a timeout, or differing output. */
function causeOf(exitCode: number | null, timedOut: boolean, output: string, expected: string, expectedExit: number): { cause: string; detail: string } {
  if (timedOut) return { cause: 'timeout', detail: output.slice(-300) };
  if (exitCode !== expectedExit) {
    const line = output.split('\n').find((l) => /^\w*Error\b/.test(l)) ?? output.trim().split('\n').pop() ?? '';
    const code = /\[(ERR_\w+)\]/.exec(output)?.[1];
    const name = /^(\w*Error)\b/.exec(line)?.[1] ?? 'Error';
    return { cause: `exit ${exitCode}: ${code ?? name}`, detail: line.slice(0, 300) };
  }
  const got = output.split('\n');
  const want = expected.split('\n');
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  return { cause: 'stdout differs', detail: `line ${i + 1}: expected ${JSON.stringify(want[i] ?? '<end>').slice(0, 140)}, got ${JSON.stringify(got[i] ?? '<end>').slice(0, 140)}` };
}

const DROPPED = /\n\[snipexec: \d+ more bytes of console output dropped\]\n$/;
/** The program printed what the run printed; when the run's capture was capped, what it kept is a prefix of the program's. */
function sameOutput(output: string, stdout: string): boolean {
  const capped = DROPPED.exec(stdout);
  return capped ? output.startsWith(stdout.slice(0, capped.index)) : output === stdout;
}

/** How the programs of one kind (each snippet's own, or its kept scenarios') fared. */
interface Tally {
  checked: number;
  /** Exit code, output and covered lines all as in the run. */
  holds: number;
  /** Exit code and output as in the run (the property before coverage was checked). */
  holdsOutput: number;
  /** Snippet lines whose coverage was compared, over the programs whose exit code and output held. */
  lines: number;
}

interface Checked {
  /** Each snippet's program: scenario 1, the first execution. */
  readonly programs: Tally;
  /** The kept scenarios' programs, 2, 3, …. */
  readonly scenarios: Tally;
  /** Of the programs checked (scenarios included): how many loaded an environment, and how many of those held. */
  readonly withEnvironments: number;
  readonly holdsWithEnvironments: number;
  /** Per environment (registry name or `module:<specifier>`): programs that loaded it, and those that held. */
  readonly byEnvironment: Record<string, { full: number; holds: number }>;
  readonly failures: Failure[];
}

/** The lines a run covered: measured, not uncovered. */
const coveredBy = (r: RunResult): number[] => r.lines.measured.filter((l) => !r.lines.uncovered.includes(l));

/** Runs one result's program under plain node: `failure` says why it does not hold, when it does not; `output`, whether exit code and output held. */
async function checkProgram(r: RunResult): Promise<{ output: boolean; failure?: { cause: string; detail: string } }> {
  const layout = r.detail?.programLayout();
  if (layout === undefined || layout.code !== r.program) return { output: false, failure: { cause: 'no layout', detail: layout === undefined ? 'the result has no program layout' : "the layout's text is not the program's" } };
  const covered = await programCoverage(layout, coveredBy(r), { timeoutMs });
  const run = covered.run;
  // A run ended by process.exit(code) (an environment's exit) is completed; its program exits with that code.
  const exitCode = r.exitCode ?? 0;
  if (run.exitCode !== exitCode || run.timedOut || !sameOutput(run.output, r.stdout)) return { output: false, failure: causeOf(run.exitCode, run.timedOut, run.output, r.stdout, exitCode) };
  if (!covered.measured) return { output: true, failure: { cause: 'no coverage written', detail: 'V8 wrote no coverage of the program' } };
  if (covered.missing.length === 0) return { output: true };
  const absent = covered.missing.filter((l) => !layout.snippetLines.has(l));
  const detail = `snippet line${covered.missing.length === 1 ? '' : 's'} ${covered.missing.join(', ')} of ${coveredBy(r).length} covered did not run${absent.length > 0 ? ` (${absent.join(', ')} not in the program)` : ''}`;
  return { output: true, failure: { cause: 'lines not covered', detail } };
}

async function check(name: string, items: AsyncIterable<DatasetItem>): Promise<Checked> {
  const programs: Tally = { checked: 0, holds: 0, holdsOutput: 0, lines: 0 };
  const scenarios: Tally = { checked: 0, holds: 0, holdsOutput: 0, lines: 0 };
  let withEnvironments = 0;
  let holdsWithEnvironments = 0;
  const byEnvironment: Record<string, { full: number; holds: number }> = {};
  const failures: Failure[] = [];
  const iterator = items[Symbol.asyncIterator]();
  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const item = next.value;
      const r = await runSnippet(item.code, { mode, drive, ...(item.lang ? { lang: item.lang } : {}) });
      // Scenario 1 is the result itself; the kept scenarios 2, 3, … have their own results.
      for (const [i, s] of [r, ...(r.detail?.scenarios ?? [])].entries()) {
        if ((!allCompleted && !s.fullyExecuted) || s.status !== 'completed' || s.program === undefined) continue;
        const tally = i === 0 ? programs : scenarios;
        tally.checked++;
        const environments = environmentsOf(s);
        const checked = await checkProgram(s);
        const failure = checked.failure;
        const held = failure === undefined;
        if (checked.output) {
          tally.holdsOutput++;
          tally.lines += coveredBy(s).length;
        }
        if (held) tally.holds++;
        else failures.push({ id: i === 0 ? item.id : `${item.id}#${i + 1}`, ...failure, environments });
        if (environments.length > 0) {
          withEnvironments++;
          if (held) holdsWithEnvironments++;
        }
        for (const e of environments) {
          const t = (byEnvironment[e] ??= { full: 0, holds: 0 });
          t.full++;
          if (held) t.holds++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  process.stderr.write(`${name}: done\n`);
  return { programs, scenarios, withEnvironments, holdsWithEnvironments, byEnvironment, failures };
}

const report: unknown[] = [];
for (const source of sources) {
  if (!existsSync(source)) {
    console.log(`${source}: absent, skipped`);
    continue;
  }
  const isDir = statSync(source).isDirectory();
  const name = isDir ? source.replace(/\/+$/, '').split('/').pop() ?? source : source.split('/').pop()?.replace(/\.jsonl$/, '') ?? source;
  const checked = await check(name, isDir ? readHandwritten(source) : readDataset(source));
  const { programs, scenarios, failures } = checked;
  const pct = (t: Tally) => (t.checked === 0 ? 100 : (100 * t.holds) / t.checked).toFixed(1);
  const which = allCompleted ? 'completed' : 'fully executed';
  console.log(`\n${name} (mode ${mode}${drive ? '' : ', no-drive'}): ${programs.holds} of ${programs.checked} ${which} snippets' emitted programs exit with the run's code (0 unless process.exit ended it), print the same stdout and cover the lines the run covered (${pct(programs)} %; exit and stdout alone: ${programs.holdsOutput}; ${programs.lines} covered lines compared)`);
  console.log(`  kept scenarios (2, 3, …): ${scenarios.holds} of ${scenarios.checked} ${which} scenarios' programs hold (${pct(scenarios)} %; exit and stdout alone: ${scenarios.holdsOutput}; ${scenarios.lines} covered lines compared)`);
  const tallies = Object.entries(checked.byEnvironment).sort((a, b) => b[1].full - a[1].full).map(([e, t]) => `${e} ${t.holds}/${t.full}`);
  console.log(`  with environments: ${checked.holdsWithEnvironments} of ${checked.withEnvironments}${tallies.length > 0 ? ` (${tallies.join(', ')})` : ''}`);
  const groups = new Map<string, Failure[]>();
  for (const f of failures) groups.set(f.cause, [...(groups.get(f.cause) ?? []), f]);
  for (const [cause, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${list.length} × ${cause}`);
    for (const f of list.slice(0, 5)) console.log(`      ${f.id}${f.environments.length > 0 ? ` [${f.environments.join(', ')}]` : ''}: ${f.detail}`);
  }
  report.push({ dataset: name, mode, drive, allCompleted, programs, scenarioPrograms: scenarios, withEnvironments: checked.withEnvironments, holdsWithEnvironments: checked.holdsWithEnvironments, byEnvironment: checked.byEnvironment, failures });
}
if (outFile) writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
