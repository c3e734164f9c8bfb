import { InvalidOptions } from '../core/errors.ts';
import { reportOptionsSchema, THRESHOLD_METRICS, type ThresholdMetric } from '../core/reportOptions.ts';
import type { CoverageTotals, FileTotals } from './istanbulCoverage.ts';

/** Minimum coverage percentages (`--check-coverage --lines N --statements N --branches N --functions N`); a missing one is not checked. */
export const coverageThresholdsSchema = reportOptionsSchema.pick({ lines: true, statements: true, branches: true, functions: true });

export type CoverageThresholds = Partial<Record<ThresholdMetric, number>>;

export interface ThresholdFailure {
  readonly metric: ThresholdMetric;
  /** istanbul's percentage (two decimals, rounded down; 100 when nothing was measured). */
  readonly actual: number;
  readonly threshold: number;
  /** The file that missed it, with per-file checking; undefined for the totals. */
  readonly file?: string;
  /** One line for the CLI, as nyc words it. */
  readonly message: string;
}

/** The thresholds the totals fall below, as nyc's check-coverage compares them (pct < threshold); empty when all pass. */
export function checkThresholds(summary: CoverageTotals, thresholds: CoverageThresholds, file?: string): ThresholdFailure[] {
  const parsed = coverageThresholdsSchema.safeParse(thresholds);
  if (!parsed.success) throw new InvalidOptions(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
  const failures: ThresholdFailure[] = [];
  for (const metric of THRESHOLD_METRICS) {
    const threshold = parsed.data[metric];
    const actual = summary[metric].pct;
    if (threshold !== undefined && actual < threshold) {
      const message = `Coverage for ${metric} (${actual}%) does not meet the threshold (${threshold}%)${file === undefined ? '' : ` for ${file}`}`;
      failures.push({ metric, actual, threshold, ...(file === undefined ? {} : { file }), message });
    }
  }
  return failures;
}

/** c8's --per-file: each file must meet every threshold; the failures name the file. */
export function checkThresholdsPerFile(files: readonly FileTotals[], thresholds: CoverageThresholds, name: (path: string) => string = (p) => p): ThresholdFailure[] {
  return files.flatMap((f) => checkThresholds(f.summary, thresholds, name(f.path)));
}
