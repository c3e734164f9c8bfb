import { z } from 'zod';
import { InvalidOptions } from '../core/errors.ts';
import type { CoverageTotals } from './istanbulCoverage.ts';

/** Minimum coverage percentages (`--check-coverage --lines N --branches N --functions N`); a missing one is not checked. */
export const coverageThresholdsSchema = z
  .object({
    lines: z.number().min(0).max(100).optional().describe('Minimum line coverage, in percent of the measured lines.'),
    branches: z.number().min(0).max(100).optional().describe('Minimum branch coverage, in percent of the branch outcomes.'),
    functions: z.number().min(0).max(100).optional().describe('Minimum function coverage, in percent of the functions of the snippet (a function is covered once called).'),
  })
  .strict();

export type CoverageThresholds = z.input<typeof coverageThresholdsSchema>;
export const THRESHOLD_METRICS = ['lines', 'branches', 'functions'] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];

export interface ThresholdFailure {
  readonly metric: ThresholdMetric;
  /** istanbul's percentage (two decimals, rounded down; 100 when nothing was measured). */
  readonly actual: number;
  readonly threshold: number;
  /** One line for the CLI, as nyc words it. */
  readonly message: string;
}

/** The thresholds the totals fall below, as nyc's check-coverage compares them (pct < threshold); empty when all pass. */
export function checkThresholds(summary: CoverageTotals, thresholds: CoverageThresholds): ThresholdFailure[] {
  const parsed = coverageThresholdsSchema.safeParse(thresholds);
  if (!parsed.success) throw new InvalidOptions(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const failures: ThresholdFailure[] = [];
  for (const metric of THRESHOLD_METRICS) {
    const threshold = parsed.data[metric];
    const actual = summary[metric].pct;
    if (threshold !== undefined && actual < threshold) {
      failures.push({ metric, actual, threshold, message: `Coverage for ${metric} (${actual}%) does not meet the threshold (${threshold}%)` });
    }
  }
  return failures;
}
