import { terminalLine } from '../report/terminalText.ts';
import type { GeneratedTests } from '../testgen/generateTests.ts';
import { formatSkipped, SKIP_KINDS, summarizeSkipKinds } from '../testgen/skipReasons.ts';

/**
 * On stderr: one line per kind of skip (with `verbose`, one line per skipped call instead), then the
 * summary, and a note when the tests import snipexec through a helper.
 */
export function printTestsSummary(generated: GeneratedTests, outDir: string, verbose = false): void {
  const lines = verbose ? generated.skipped.map(formatSkipped) : summarizeSkipKinds(generated.skipped, (kind) => SKIP_KINDS[kind]);
  for (const line of lines) process.stderr.write(`snipexec: ${terminalLine(line)}\n`);
  const hint = !verbose && generated.skipped.length > 0 ? '; --verbose lists each skipped call' : '';
  process.stderr.write(`snipexec: ${terminalLine(`${generated.summary}${generated.files.length > 0 ? ` (node --test ${outDir})` : ''}${hint}`)}\n`);
  if (generated.replayHelper !== undefined) {
    process.stderr.write(`snipexec: ${terminalLine(`the tests import snipexec through ${generated.replayHelper}, by a relative path to this installation: add snipexec to the project's devDependencies and generate them again for tests that hold after a move or npm ci`)}\n`);
  }
}
