import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnusableFile } from '../../core/errors.ts';
import type { RunResult } from '../../core/runResult.ts';
import { renderRunHtml } from './runPage.ts';
import { indexRowOf, renderBatchIndex, type BatchIndexRow } from './batchIndex.ts';
import { htmlPageName } from './pageName.ts';

/** The file beside index.html that holds its rows, one JSON object a line, so a resumed batch's index lists the earlier snippets too. */
export const INDEX_ROWS_FILE = 'index.jsonl';

export interface HtmlBatchWriterOptions {
  /** Keep the rows of an earlier batch written to the same directory (`batch --resume`); otherwise they are dropped. */
  readonly resume?: boolean;
  /** The index's title. */
  readonly title?: string;
}

/**
 * Writes a batch's HTML report into a directory: each snippet's page as it finishes
 * (`htmlPageName(id)`), and `index.html` at the end. Only the index rows are kept, on disk in
 * `index.jsonl`, so a batch of any length holds no results in memory.
 */
export class HtmlBatchWriter {
  readonly dir: string;
  private readonly mode: string;
  private readonly title: string | undefined;

  /** Creates `dir` when it is missing; throws UnusableFile when it cannot. */
  constructor(dir: string, mode: string, options: HtmlBatchWriterOptions = {}) {
    this.dir = dir;
    this.mode = mode;
    this.title = options.title;
    attempt(dir, () => {
      mkdirSync(dir, { recursive: true });
      if (!options.resume || !existsSync(this.rowsFile)) writeFileSync(this.rowsFile, '');
    });
  }

  /** Writes the page of one snippet (`code` as it ran) and records its index row; returns the page's path. */
  add(id: string, result: RunResult, code: string): string {
    const name = htmlPageName(id);
    const file = join(this.dir, name);
    const page = renderRunHtml(result, code, { title: `snipexec: ${id}`, back: { href: 'index.html', label: '← all snippets' } });
    attempt(file, () => {
      writeFileSync(file, page);
      appendFileSync(this.rowsFile, JSON.stringify(indexRowOf(id, this.mode, result, name)) + '\n');
    });
    return file;
  }

  /** Writes `index.html` from every row recorded (an id run again keeps its last row); returns its path. */
  finish(): string {
    const file = join(this.dir, 'index.html');
    const rows = new Map<string, BatchIndexRow>();
    // A line cut off by a kill is skipped: its snippet is run again by --resume.
    for (const line of attempt(this.rowsFile, () => readFileSync(this.rowsFile, 'utf8')).split('\n')) {
      const row = parseRow(line);
      if (row) rows.set(row.id, row);
    }
    attempt(file, () => writeFileSync(file, renderBatchIndex([...rows.values()], this.title !== undefined ? { title: this.title } : {})));
    return file;
  }

  private get rowsFile(): string {
    return join(this.dir, INDEX_ROWS_FILE);
  }
}

function parseRow(line: string): BatchIndexRow | undefined {
  if (line.trim() === '') return undefined;
  try {
    const row = JSON.parse(line) as Partial<BatchIndexRow> | null;
    return row && typeof row.id === 'string' && typeof row.mode === 'string' && typeof row.status === 'string' ? (row as BatchIndexRow) : undefined;
  } catch {
    return undefined;
  }
}

function attempt<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw new UnusableFile(`cannot write the HTML report at ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
