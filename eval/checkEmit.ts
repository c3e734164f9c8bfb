// The emit property, under plain Node: for every snippet a mode fully executes, its --emit'ted
// program is run with plain `node` (this process's binary: Node 24 through npm), not through
// snipexec, in a child process in a temporary directory. It holds when the program exits within
// the timeout (default 10 s) with the run's exit code (0, or the code of the process.exit that
// ended the run) and its console output (stdout and stderr as one stream, in order: the
// sandbox has one console) equals the run's stdout. When the run's capture was capped (64 KiB), what
// it kept must be the start of the program's output.
// Usage: npm run check-emit -- [--mode trace] [--no-drive] [--all-completed] [--timeout MS] [--out FILE] [DATASET.jsonl|DIR…]
// --all-completed checks every completed run, fully executed or not. Each dataset's line also counts
// the programs that load environments (the registry's, and installed modules as module:<name>).
// With no dataset: ../shared/datasets/so-node-edits.jsonl, ../shared/datasets/npm-readme-examples.jsonl
// and datasets/handwritten.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { runWithNode } from '../src/emit/runWithNode.ts';
import { runSnippet } from '../src/index.ts';
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

interface Checked {
  readonly full: number;
  readonly holds: number;
  /** Of the fully executed: how many loaded an environment, and how many of those held. */
  readonly withEnvironments: number;
  readonly holdsWithEnvironments: number;
  /** Per environment (registry name or `module:<specifier>`): programs that loaded it, and those that held. */
  readonly byEnvironment: Record<string, { full: number; holds: number }>;
  readonly failures: Failure[];
}

async function check(name: string, items: AsyncIterable<DatasetItem>): Promise<Checked> {
  let full = 0;
  let holds = 0;
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
      if ((!allCompleted && !r.fullyExecuted) || r.status !== 'completed' || r.program === undefined) continue;
      full++;
      const environments = environmentsOf(r);
      const run = await runWithNode(r.program, { timeoutMs });
      // A run ended by process.exit(code) (an environment's exit) is completed; its program exits with that code.
      const exitCode = r.exitCode ?? 0;
      const held = run.exitCode === exitCode && !run.timedOut && sameOutput(run.output, r.stdout);
      if (held) holds++;
      else failures.push({ id: item.id, ...causeOf(run.exitCode, run.timedOut, run.output, r.stdout, exitCode), environments });
      if (environments.length > 0) {
        withEnvironments++;
        if (held) holdsWithEnvironments++;
      }
      for (const e of environments) {
        const tally = (byEnvironment[e] ??= { full: 0, holds: 0 });
        tally.full++;
        if (held) tally.holds++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  process.stderr.write(`${name}: done\n`);
  return { full, holds, withEnvironments, holdsWithEnvironments, byEnvironment, failures };
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
  const { full, holds, failures } = checked;
  const pct = full === 0 ? 100 : (100 * holds) / full;
  console.log(`\n${name} (mode ${mode}${drive ? '' : ', no-drive'}): ${holds} of ${full} ${allCompleted ? 'completed' : 'fully executed'} snippets' emitted programs exit with the run's code (0 unless process.exit ended it) and the same stdout (${pct.toFixed(1)} %)`);
  const tallies = Object.entries(checked.byEnvironment).sort((a, b) => b[1].full - a[1].full).map(([e, t]) => `${e} ${t.holds}/${t.full}`);
  console.log(`  with environments: ${checked.holdsWithEnvironments} of ${checked.withEnvironments}${tallies.length > 0 ? ` (${tallies.join(', ')})` : ''}`);
  const groups = new Map<string, Failure[]>();
  for (const f of failures) groups.set(f.cause, [...(groups.get(f.cause) ?? []), f]);
  for (const [cause, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${list.length} × ${cause}`);
    for (const f of list.slice(0, 5)) console.log(`      ${f.id}${f.environments.length > 0 ? ` [${f.environments.join(', ')}]` : ''}: ${f.detail}`);
  }
  report.push({ dataset: name, mode, drive, allCompleted, [allCompleted ? 'completed' : 'fullyExecuted']: full, holds, withEnvironments: checked.withEnvironments, holdsWithEnvironments: checked.holdsWithEnvironments, byEnvironment: checked.byEnvironment, failures });
}
if (outFile) writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
