import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { InvalidOptions } from '../core/errors.ts';
import type { ResolvedReportOptions } from '../core/reportOptions.ts';
import type { RunResult } from '../core/runResult.ts';
import { checkThresholds, checkThresholdsPerFile } from '../report/coverageThresholds.ts';
import type { HtmlBatchWriter } from '../report/htmlReport.ts';
import type { CoverageCollector } from '../report/istanbulCoverage.ts';
import { checkWritableFile } from './inputFiles.ts';

/** What ReportOutputs writes: the resolved coverage settings (commandOptions.ts toReportOptions) and --html. */
export type ReportSettings = ResolvedReportOptions & { readonly html?: string };

/**
 * The coverage reports and HTML pages one command writes: made (and its settings checked) before
 * anything runs, fed each result as it finishes, finished once at the end.
 */
export class ReportOutputs {
  private readonly settings: ReportSettings;
  private readonly coverage: CoverageCollector | undefined;
  private readonly html: typeof import('../report/htmlReport.ts') | undefined;
  private readonly htmlPages: HtmlBatchWriter | undefined;

  private constructor(settings: ReportSettings, coverage: CoverageCollector | undefined, html: typeof import('../report/htmlReport.ts') | undefined, htmlPages: HtmlBatchWriter | undefined) {
    this.settings = settings;
    this.coverage = coverage;
    this.html = html;
    this.htmlPages = htmlPages;
  }

  /** The outputs `settings` ask for, their modules loaded (istanbul's only with a coverage directory, the HTML report's only with --html). */
  static async open(settings: ReportSettings, kind: 'run' | 'batch', mode: string, resume = false): Promise<ReportOutputs> {
    const coverage = settings.coverageDir === undefined ? undefined : collector((await import('../report/istanbulCoverage.ts')).CoverageCollector, settings.coverageDir, settings.reporter);
    if (settings.html !== undefined && kind === 'run') checkWritableFile(settings.html);
    const html = settings.html === undefined ? undefined : await import('../report/htmlReport.ts');
    const htmlPages = html !== undefined && settings.html !== undefined && kind === 'batch' ? new html.HtmlBatchWriter(settings.html, mode, { resume }) : undefined;
    return new ReportOutputs(settings, coverage, html, htmlPages);
  }

  /** `run`: the one result, under the file's own path (`undefined` for stdin). */
  addRun(file: string | undefined, code: string, result: RunResult): void {
    if (file === undefined) this.coverage?.addSnippet({ id: 'stdin', code, result });
    else this.coverage?.add({ path: file, code, result });
    if (this.settings.html !== undefined && this.html) writeFileSync(this.settings.html, this.html.renderRunHtml(result, code, file ? { title: file } : {}));
  }

  /** `batch`: one finished snippet. */
  addSnippet(id: string, code: string, result: RunResult): void {
    this.coverage?.addSnippet({ id, code, result });
    this.htmlPages?.add(id, result, code);
  }

  /** Writes what is kept to the end; returns the text reports to print and the thresholds missed (per file with --per-file). */
  finish(): { printed: string; failures: string[] } {
    this.htmlPages?.finish();
    if (!this.coverage) return { printed: '', failures: [] };
    const report = this.coverage.write();
    const { thresholds, perFile } = this.settings;
    if (thresholds === undefined) return { printed: report.printed, failures: [] };
    const failures = perFile ? checkThresholdsPerFile(report.perFile, thresholds, (path) => relative(process.cwd(), path) || path) : checkThresholds(report.summary, thresholds);
    return { printed: report.printed, failures: failures.map((f) => f.message) };
  }
}

/** The collector of --coverage-dir; a refused directory is named by its flag. */
function collector(Collector: typeof CoverageCollector, dir: string, reporters: ResolvedReportOptions['reporter']): CoverageCollector {
  try {
    return new Collector({ dir, ...(reporters ? { reporters: [...reporters] } : {}) });
  } catch (error) {
    if (error instanceof InvalidOptions) throw new InvalidOptions(`--coverage-dir ${dir}: ${error.message.replace(/^dir: /, '')}`);
    throw error;
  }
}
