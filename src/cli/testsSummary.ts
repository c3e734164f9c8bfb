import { terminalLine } from '../report/terminalText.ts';
import type { GeneratedTests } from '../testgen/generateTests.ts';
import { formatSkipped } from '../testgen/skipReasons.ts';

/** Each skipped call's one-line reason, then the summary, on stderr. */
export function printTestsSummary(generated: GeneratedTests, outDir: string): void {
  for (const skipped of generated.skipped) process.stderr.write(`snipexec: ${terminalLine(formatSkipped(skipped))}\n`);
  process.stderr.write(`snipexec: ${terminalLine(`${generated.summary}${generated.files.length > 0 ? ` (node --test ${outDir})` : ''}`)}\n`);
  if (generated.replayHelper !== undefined) {
    process.stderr.write(`snipexec: ${terminalLine(`the tests import snipexec through ${generated.replayHelper}, by a relative path to this installation: add snipexec to the project's devDependencies and generate them again for tests that hold after a move or npm ci`)}\n`);
  }
}
