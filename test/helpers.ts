import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runSnippet } from '../src/engine/runSnippet.ts';
import type { RuntimeConfig } from '../src/protocol/runtime.ts';
import type { RunResult } from '../src/core/runResult.ts';

export const BIN = fileURLToPath(new URL('../bin/snipexec.cjs', import.meta.url));

/** Spawns the real CLI with the Node that runs the tests; returns exit code, stdout and stderr. */
export function cli(args: string[], input?: string | Buffer, timeoutMs = 60_000, env: NodeJS.ProcessEnv = process.env, cwd?: string) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', BIN, ...args], { input, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env, ...(cwd ? { cwd } : {}) });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** `FILTER=name npm test` runs only the table cases whose name contains it. */
export function selected<T extends { name: string }>(cases: readonly T[]): readonly T[] {
  const filter = process.env.FILTER;
  return filter ? cases.filter((c) => c.name.includes(filter)) : cases;
}

/** A snippet run end to end (runSnippet in trace mode, environments chosen by the names it uses), and what its result must show. */
export interface SnippetCase {
  readonly name: string;
  readonly code: string;
  readonly check: (r: RunResult) => void;
}

/** One test per case (those FILTER selects), named `<prefix>: <case>`, each run with a 30 s run timeout. */
export function testSnippets(prefix: string, cases: readonly SnippetCase[]): void {
  for (const c of selected(cases)) {
    test(`${prefix}: ${c.name}`, { timeout: 120_000 }, async () => {
      c.check(await runSnippet(c.code, { timeoutMs: 30_000 }));
    });
  }
}

const repos: string[] = [];
after(() => { for (const d of repos) rmSync(d, { recursive: true, force: true }); });

/** A temporary git repository (real git) with `files` committed; removed after the test file. */
export function gitRepo(files: Record<string, string>, prefix = 'snipexec-repo-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  repos.push(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('config', 'user.email', 'test@example.invalid');
  git('config', 'user.name', 'test');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  return dir;
}

/** The source of the definition injected for `element`, if one was. */
export const injected = (r: RunResult, element: string): string | undefined => r.injections.find((i) => i.element === element)?.source;

/** The run completed without an error, with these environments loaded. */
export function completes(r: RunResult, environments: readonly string[]): void {
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.environments?.loaded, environments);
}

/** The run stopped on exactly one error, of this type and message, blamed on the snippet at this line. */
export function blamesSnippet(r: RunResult, type: string, message: string, line: number): void {
  assert.equal(r.status, 'stopped', JSON.stringify(r.errors));
  assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
  assert.deepEqual({ ...r.errors[0], column: undefined }, { type, message, line, column: undefined, attribution: 'snippet' });
}

/** A runtime config for starting the guest runtime on its own (no snippet sites): one statement, one two-way branch. */
export const UNIT_CONFIG: RuntimeConfig = {
  hook: '__snx_unit',
  shownHook: '__snx_unit',
  statements: 1,
  branches: [2],
  sites: [],
  messages: {},
  seed: 1,
  startTime: 0,
  maxConsoleBytes: 10_000,
  staleTimerTicks: 1_000,
  prefer: {},
  driveTargets: [],
  drive: false,
  positions: [],
};

/** A finding's reproduction under plain node: against the changed file (fails with the error?) and against `before` (passes?). */
export function replayed(dir: string, file: string, before: string, reproduction: string): { failsOnChanged: boolean; passesOnBase: boolean; output: string } {
  const test = join(dir, 'repro.test.cjs');
  writeFileSync(test, reproduction);
  const base = join(dir, `base-${file}`);
  writeFileSync(base, before);
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', test], { cwd: dir, encoding: 'utf8', env: { ...outside, ...env } });
  const changed = run({});
  return { failsOnChanged: changed.status === 1, passesOnBase: run({ SNIPEXEC_TARGET: base }).status === 0, output: changed.stdout };
}
