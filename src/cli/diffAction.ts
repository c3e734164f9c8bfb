import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiff } from '../diff/formatDiff.ts';
import { diffExitCode, runDiff, type DiffReport } from '../diff/runDiff.ts';
import { toSarif } from '../diff/toSarif.ts';
import { jsonText } from '../report/terminalText.ts';
import { colorEnabled } from './colorMode.ts';
import type { CommandContext } from './commandContext.ts';
import { checkWritableFile } from './inputFiles.ts';

/** `diff`'s parsed flags. */
export type DiffFlags = { json?: boolean; sarif?: string; untracked: boolean; edges: number; repro?: string };

/** `snipexec diff BASE`: runs the changed code and its base version, prints the findings; diffExitCode gives the exit code. */
export async function diffAction(base: string, flags: DiffFlags, context: CommandContext): Promise<void> {
  if (flags.sarif) checkWritableFile(flags.sarif);
  let report = await runDiff({ cwd: process.cwd(), base, untracked: flags.untracked, edgeBudget: flags.edges, reproductions: flags.repro !== undefined });
  if (flags.repro !== undefined) report = writeReproductions(report, flags.repro);
  if (flags.sarif) writeFileSync(flags.sarif, JSON.stringify(toSarif(report, context.version), null, 2) + '\n');
  process.stdout.write(flags.json ? jsonText(report) + '\n' : formatDiff(report, colorEnabled(process.stdout)));
  process.exitCode = diffExitCode(report);
}

/** Writes each finding's reproduction into `dir` (`lib__qs.js-6-1.test.cjs`: file, line, finding number); the report names the files instead of holding their source. */
function writeReproductions(report: DiffReport, dir: string): DiffReport {
  mkdirSync(dir, { recursive: true });
  const findings = report.findings.map((f, i) => {
    if (f.reproduction === undefined) return f;
    const file = join(dir, `${f.file.replace(/[^\w.-]+/g, '__')}-${f.line}-${i + 1}.test.cjs`);
    writeFileSync(file, f.reproduction);
    return { ...f, reproduction: file };
  });
  return { ...report, findings };
}
