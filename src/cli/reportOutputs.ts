import { writeFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { InvalidOptions } from '../core/errors.ts';
import type { RunResult } from '../core/runResult.ts';
import { checkThresholds, coverageThresholdsSchema, THRESHOLD_METRICS, type CoverageThresholds } from '../report/coverageThresholds.ts';
import { renderRunHtml, HtmlBatchWriter } from '../report/htmlReport.ts';
import { COVERAGE_REPORTERS, CoverageCollector, type CoverageReporter } from '../report/istanbulCoverage.ts';
import { checkWritableFile } from './inputFiles.ts';

/** The report flags of `run` and `batch`, by commander's attribute names. */
export interface ReportFlags {
  readonly coverageDir?: string;
  readonly reporter?: CoverageReporter[];
  readonly checkCoverage?: boolean;
  readonly lines?: number;
  readonly branches?: number;
  readonly functions?: number;
  readonly html?: string;
}

function percent(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100');
  return n;
}

/** Adds the coverage and HTML flags; `html` says what --html names for this command. */
export function addReportFlags(cmd: Command, html: 'file' | 'dir'): Command {
  return cmd
    .option('--coverage-dir <dir>', 'write istanbul coverage reports of the snippet\'s own lines into DIR (nyc, c8 and genhtml read them)')
    .addOption(new Option('--reporter <name>', 'a coverage report to write with --coverage-dir; repeatable (default: json, lcov, text-summary)').choices(COVERAGE_REPORTERS).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]))
    .option('--check-coverage', 'exit 1 when coverage is below --lines, --branches or --functions')
    .option('--lines <pct>', 'with --check-coverage: the least line coverage, in percent', percent)
    .option('--branches <pct>', 'with --check-coverage: the least branch coverage, in percent', percent)
    .option('--functions <pct>', 'with --check-coverage: the least function coverage, in percent', percent)
    .option('--html <path>', html === 'file' ? 'write an HTML report of the run to FILE' : 'write an HTML report into DIR: index.html and one page per snippet');
}

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
