import { writeFileSync } from 'node:fs';
import { InvalidOptions } from '../core/errors.ts';
import type { RunResult } from '../core/runResult.ts';
import { checkThresholds, coverageThresholdsSchema, THRESHOLD_METRICS, type CoverageThresholds } from '../report/coverageThresholds.ts';
import { renderRunHtml, HtmlBatchWriter } from '../report/htmlReport.ts';
import { CoverageCollector } from '../report/istanbulCoverage.ts';
import { checkWritableFile } from './inputFiles.ts';
import type { ReportFlags } from './reportFlags.ts';

/**
 * The coverage reports and HTML pages one command writes: made (and its flags checked) before
 * anything runs, fed each result as it finishes, finished once at the end.
 */
export class ReportOutputs {
  private readonly coverage: CoverageCollector | undefined;
  private readonly htmlPages: HtmlBatchWriter | undefined;
  private readonly flags: ReportFlags;

  constructor(flags: ReportFlags, kind: 'run' | 'batch', mode: string, resume = false) {
    this.flags = flags;
    const thresholds = THRESHOLD_METRICS.some((m) => flags[m] !== undefined);
    if (thresholds && !flags.checkCoverage) throw new InvalidOptions('--lines/--branches/--functions: need --check-coverage');
    if ((flags.checkCoverage || flags.reporter) && flags.coverageDir === undefined) throw new InvalidOptions(`${flags.checkCoverage ? '--check-coverage' : '--reporter'}: needs --coverage-dir DIR`);
    if (flags.checkCoverage) coverageThresholdsSchema.parse(thresholdsOf(flags));
    this.coverage = flags.coverageDir === undefined ? undefined : new CoverageCollector({ dir: flags.coverageDir, ...(flags.reporter ? { reporters: flags.reporter } : {}) });
    if (flags.html !== undefined && kind === 'run') checkWritableFile(flags.html);
    this.htmlPages = flags.html !== undefined && kind === 'batch' ? new HtmlBatchWriter(flags.html, mode, { resume }) : undefined;
  }

  /** `run`: the one result, under the file's own path (`undefined` for stdin). */
  addRun(file: string | undefined, code: string, result: RunResult): void {
    if (file === undefined) this.coverage?.addSnippet({ id: 'stdin', code, result });
    else this.coverage?.add({ path: file, code, result });
    if (this.flags.html !== undefined) writeFileSync(this.flags.html, renderRunHtml(result, code, file ? { title: file } : {}));
  }

  /** `batch`: one finished snippet. */
  addSnippet(id: string, code: string, result: RunResult): void {
    this.coverage?.addSnippet({ id, code, result });
    this.htmlPages?.add(id, result, code);
  }

  /** Writes what is kept to the end; returns the text reports to print and the thresholds missed. */
  finish(): { printed: string; failures: string[] } {
    this.htmlPages?.finish();
    if (!this.coverage) return { printed: '', failures: [] };
    const report = this.coverage.write();
    const failures = this.flags.checkCoverage ? checkThresholds(report.summary, thresholdsOf(this.flags)).map((f) => f.message) : [];
    return { printed: report.printed, failures };
  }
}

/** The thresholds the flags give (`--lines`, `--branches`, `--functions`), those given only. */
function thresholdsOf(flags: ReportFlags): CoverageThresholds {
  return Object.fromEntries(THRESHOLD_METRICS.filter((m) => flags[m] !== undefined).map((m) => [m, flags[m]]));
}
