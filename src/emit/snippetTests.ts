import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidOptions } from '../core/errors.ts';
import type { RunResult } from '../core/runResult.ts';
import { recordProgram } from '../record/recordProgram.ts';
import type { GeneratedTests } from '../testgen/generateTests.ts';
import { generateCheckedTests } from '../testgen/checkTests.ts';
import { readTrace } from '../testgen/readTrace.ts';

export interface SnippetTests extends GeneratedTests {
  /** The completed program the tests import (DIR/program/NAME.js, or .ts for a TypeScript snippet). */
  readonly program: string;
  readonly tracePath: string;
  /** How the completed program ended when it was recorded. */
  readonly exitCode: number;
}

/**
 * `run SNIPPET --tests DIR`: the calls of the snippet's own functions in its completed program
 * (the first scenario's: definitions, the snippet, then the driven calls) become node:test tests.
 * The program is written to DIR and recorded once under plain node, as `snipexec record` does
 * (outside the sandbox: the tests run it there too); its injected definitions are the fixtures.
 */
export async function writeSnippetTests(result: RunResult, dir: string, name = 'snippet'): Promise<SnippetTests> {
  if (result.program === undefined) throw new InvalidOptions(`--tests: the snippet has no completed program (status ${result.status})`);
  const out = resolve(dir);
  // The program gets a folder of its own: only its files are the program's (the tests are not).
  const programDir = join(out, 'program');
  mkdirSync(programDir, { recursive: true });
  const program = join(programDir, `${name}${result.lang === 'ts' ? '.ts' : '.js'}`);
  writeFileSync(program, result.program);
  const run = await recordProgram(program, [], { cwd: programDir, stdio: 'ignore' });
  // Checked: a test that fails when run right away is skipped with its reason.
  const generated = await generateCheckedTests(readTrace(run.tracePath), { traceDir: programDir, programDir, outDir: out });
  return { ...generated, program, tracePath: run.tracePath, exitCode: run.exitCode };
}
