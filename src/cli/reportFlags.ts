import type { Command } from 'commander';
import { COVERAGE_REPORTERS, reportOptionsSchema, type ReportOptionsInput } from '../core/reportOptions.ts';
import { addFlags, percent, type FlagTable } from './optionFlags.ts';

/** The report flags of `run` and `batch`, by commander's attribute names, which are their config keys. */
export type ReportFlags = ReportOptionsInput & { readonly html?: string };

/** The coverage flags: each a field of reportOptionsSchema, which describes and validates it; a config file takes the same names. */
export const REPORT_FLAGS = {
  coverageDir: { flag: '--coverage-dir', value: 'dir' },
  reporter: { flag: '--reporter', value: 'names', list: COVERAGE_REPORTERS },
  checkCoverage: { flag: '--check-coverage' },
  lines: { flag: '--lines', value: 'pct', parse: percent },
  statements: { flag: '--statements', value: 'pct', parse: percent },
  branches: { flag: '--branches', value: 'pct', parse: percent },
  functions: { flag: '--functions', value: 'pct', parse: percent },
  perFile: { flag: '--per-file' },
} as const satisfies FlagTable<ReportOptionsInput>;

/** Adds the coverage and HTML flags; `html` says what --html names for this command. */
export function addReportFlags(cmd: Command, html: 'file' | 'dir'): Command {
  return addFlags(cmd, REPORT_FLAGS, reportOptionsSchema)
    .option('--html <path>', html === 'file' ? 'write an HTML report of the run to FILE' : 'write an HTML report into DIR: index.html and one page per snippet');
}
