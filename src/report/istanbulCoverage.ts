import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';
import { z } from 'zod';
import { InvalidOptions } from '../core/errors.ts';
import type { RunResult } from '../core/runResult.ts';
import type { BranchKind, CoverageDetail } from '../core/coverageDetail.ts';
import { COVERAGE_REPORTERS, DEFAULT_REPORTERS, type CoverageReporter } from '../core/reportOptions.ts';


/** Options of an istanbul coverage report. Every field has a description and a default; unknown keys are rejected. */
export const coverageOptionsSchema = z
  .object({
    dir: z
      .string()
      .min(1)
      .refine((dir) => !existsSync(dir) || statSync(dir).isDirectory(), { error: (issue) => `not a directory: ${String(issue.input)}` })
      .describe('Directory the reports are written to (made when missing); a batch also writes each snippet under DIR/snippets/.'),
    reporters: z
      .array(z.enum(COVERAGE_REPORTERS))
      .min(1)
      .default([...DEFAULT_REPORTERS])
      .describe('istanbul reporters: text, text-summary (written to DIR/text.txt, DIR/text-summary.txt and returned for printing), lcov (lcov.info and lcov-report/), lcovonly (lcov.info), html, json (coverage-final.json), json-summary (coverage-summary.json), cobertura (cobertura-coverage.xml), clover (clover.xml).'),
    projectRoot: z.string().min(1).optional().describe('Directory the file paths of lcov.info and cobertura-coverage.xml are relative to; the working directory by default, as nyc and c8 write them.'),
  })
  .strict();

export type CoverageOptionsInput = z.input<typeof coverageOptionsSchema>;
export type CoverageOptions = z.output<typeof coverageOptionsSchema>;

/** One figure of a coverage summary, as istanbul computes it: `pct` is 100 when `total` is 0. */
export interface CoverageFigure {
  readonly total: number;
  readonly covered: number;
  readonly pct: number;
}

/** Totals over every file of a report. A function is covered once it was called. */
export interface CoverageTotals {
  readonly lines: CoverageFigure;
  readonly statements: CoverageFigure;
  readonly branches: CoverageFigure;
  readonly functions: CoverageFigure;
}

/** One file's totals: `path` as the reports name it. */
export interface FileTotals {
  readonly path: string;
  readonly summary: CoverageTotals;
}

export interface CoverageReport {
  readonly summary: CoverageTotals;
  /** Each file's totals, in the order the files were added. */
  readonly perFile: readonly FileTotals[];
  /** What the text and text-summary reporters wrote, in the order asked, for the CLI to print. */
  readonly printed: string;
  /** Files in the report. */
  readonly files: number;
  /** Results left out because they carry no coverage (a syntax error: nothing was measured). */
  readonly skipped: number;
}

// C0 and C1 controls, DEL and the Unicode line separators: a line-based report (lcov) would split on some of them.
const UNSAFE_PATH = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A file the coverage belongs to: `path` names it in the reports, `code` is its source, as run. */
export interface CoverageFile {
  readonly path: string;
  readonly code: string;
  readonly result: RunResult;
}

/** A snippet with no file of its own (a batch row, stdin): it is written to DIR/snippets/ so the HTML report can show it. */
export interface CoverageSnippet {
  readonly id: string;
  readonly code: string;
  readonly result: RunResult;
}

/** The reporters that name files relative to a project root. */
const RELATIVE_PATHS = new Set<CoverageReporter>(['lcov', 'lcovonly', 'cobertura']);

/** The file names the text reporters write, read back for `printed`. */
const PRINTED_FILE: Partial<Record<CoverageReporter, string>> = { text: 'text.txt', 'text-summary': 'text-summary.txt' };

// istanbul's branch types; a loop's two outcomes (entered, left without one iteration) have none, so keep ours.
const BRANCH_TYPE: Record<BranchKind, string> = { if: 'if', 'cond-expr': 'cond-expr', logical: 'binary-expr', switch: 'switch', loop: 'loop' };

// Babel's line terminators, which number the lines of the detail.
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/;

/**
 * The istanbul coverage of one file: a statement for each statement that decides a line (so
 * istanbul's lines are the result's, covered and measured), a branch for each branch point and a
 * function for each function of the snippet's own code. Undefined when the result measured nothing (a syntax error).
 * A location ends at the end of its start line: the detail keeps starts only, and istanbul's HTML
 * marks no more than the start line of a statement anyway.
 */
export function fileCoverageOf(path: string, code: string, result: RunResult): libCoverage.FileCoverageData | undefined {
  const detail: CoverageDetail | undefined = result.detail?.coverage;
  if (!detail) return undefined;
  const lines = code.split(LINE_BREAK);
  const range = (line: number, column: number): libCoverage.Range => ({
    start: { line, column: column - 1 },
    end: { line, column: Math.max(column - 1, lines[line - 1]?.length ?? 0) },
  });
  const data: libCoverage.FileCoverageData = { path, statementMap: {}, fnMap: {}, branchMap: {}, s: {}, f: {}, b: {} };
  detail.statements.forEach((s, i) => {
    data.statementMap[i] = range(s.line, s.column);
    data.s[i] = s.count;
  });
  detail.branches.forEach((b, i) => {
    const loc = range(b.line, b.column);
    data.branchMap[i] = { loc, type: BRANCH_TYPE[b.kind], locations: b.counts.map(() => loc), line: b.line };
    data.b[i] = [...b.counts];
  });
  detail.functions.forEach((f, i) => {
    const loc = range(f.line, f.column);
    data.fnMap[i] = { name: f.name, decl: loc, loc, line: f.line };
    data.f[i] = f.count;
  });
  return data;
}

/**
 * A file name under DIR/snippets/ for a snippet id: the id itself when it is a plain file name,
 * else its safe characters and a hash of it, so two ids never share a file.
 */
export function snippetFileName(id: string, lang: string | undefined): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_').slice(0, 80) || '_';
  const name = safe === id ? safe : `${safe}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
  return `${name}.${lang ?? 'js'}`;
}

/**
 * Collects the coverage of results as they come, then writes istanbul reports. It keeps each file's
 * coverage (statement and branch maps), not the results or their code: a batch adds each row as it
 * finishes and calls `write()` at the end.
 */
export class CoverageCollector {
  private readonly options: CoverageOptions;
  private readonly map = libCoverage.createCoverageMap({});
  private readonly names = new Set<string>();
  private skipped = 0;

  /** Validates the options (InvalidOptions); nothing is written before the first snippet or `write()`. */
  constructor(input: CoverageOptionsInput) {
    const parsed = coverageOptionsSchema.safeParse(input);
    if (!parsed.success) throw new InvalidOptions(parsed.error.issues.map((i) => `${i.path.join('.') || 'coverage'}: ${i.message}`).join('; '));
    this.options = parsed.data;
  }

  /**
   * Adds a result whose source is a file of its own, named by `path` in the reports. A path with a
   * control character (a newline would start a forged `SF:`/`DA:` record in lcov.info) is not
   * written into any report: the code is kept as a snippet of DIR/snippets/ instead, named safely.
   */
  add({ path, code, result }: CoverageFile): void {
    if (UNSAFE_PATH.test(path)) {
      this.addSnippet({ id: basename(path), code, result });
      return;
    }
    const data = fileCoverageOf(resolve(path), code, result);
    if (data) this.map.addFileCoverage(data);
    else this.skipped++;
  }

  /** Adds a snippet without a file: its code is written to DIR/snippets/<id>.<lang> at once. Returns that path. */
  addSnippet({ id, code, result }: CoverageSnippet): string {
    const file = snippetFileName(id, result.lang);
    let name = file;
    for (let k = 2; this.names.has(name); k++) name = file.replace(/(\.[a-z]+)$/, `-${k}$1`);
    this.names.add(name);
    const dir = join(resolve(this.options.dir), 'snippets');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, code);
    this.add({ path, code, result });
    return path;
  }

  /** Writes every reporter's output into DIR and returns the totals. */
  write(): CoverageReport {
    const { dir, reporters, projectRoot } = this.options;
    const context = libReport.createContext({ dir, coverageMap: this.map });
    for (const name of reporters) {
      const file = PRINTED_FILE[name];
      const lcov = RELATIVE_PATHS.has(name) ? { projectRoot: projectRoot ?? process.cwd() } : {};
      reports.create(name, { ...(file ? { file } : {}), ...lcov }).execute(context);
    }
    const printed = reporters.map((name) => PRINTED_FILE[name]).filter((f) => f !== undefined).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
    const perFile = this.map.files().map((path) => ({ path, summary: totalsOf(this.map.fileCoverageFor(path).toSummary()) }));
    return { summary: totalsOf(this.map.getCoverageSummary()), perFile, printed, files: perFile.length, skipped: this.skipped };
  }
}

/** Writes the reports of a few results at once (`run`: one file). */
export function writeCoverage(options: CoverageOptionsInput & { readonly files: readonly CoverageFile[] }): CoverageReport {
  const { files, ...rest } = options;
  const collector = new CoverageCollector(rest);
  for (const file of files) collector.add(file);
  return collector.write();
}

function totalsOf(summary: libCoverage.CoverageSummary): CoverageTotals {
  const figure = ({ total, covered, pct }: libCoverage.Totals): CoverageFigure => ({ total, covered, pct });
  return { lines: figure(summary.lines), statements: figure(summary.statements), branches: figure(summary.branches), functions: figure(summary.functions) };
}
