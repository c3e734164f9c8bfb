import { InvalidDataset } from '../core/errors.ts';
import { LANGS, type Lang } from '../core/options.ts';
import { readJsonlLines } from './readLines.ts';

export interface DatasetItem {
  readonly id: string;
  readonly code: string;
  readonly lang?: Lang;
  /** The snippet's file, when it is one (a batch over files): its language and relative imports come from it. */
  readonly fileName?: string;
}

/** A dataset line that is not a `{id, code}` object: where it is, what is wrong, and its id when it has one. */
export interface InvalidLine {
  readonly file: string;
  readonly line: number;
  readonly message: string;
  readonly id?: string;
}

export interface ReadDatasetOptions {
  /** Called for each malformed line, which is then skipped; without it, a malformed line throws InvalidDataset. */
  readonly onInvalid?: (invalid: InvalidLine) => void;
}

/**
 * Whether `line`, the first non-empty line of a file, makes it a dataset: a JSON object. A file that
 * opens otherwise (source code, a JSON array, prose) is not JSONL, and is refused whole rather than
 * skipped line by line.
 */
function notJsonl(file: string, line: string, number: number): InvalidDataset | undefined {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    row = undefined;
  }
  if (typeof row === 'object' && row !== null && !Array.isArray(row)) return undefined;
  return new InvalidDataset(`${file}: not a JSONL dataset: line ${number} is not a JSON object (a dataset holds one {"id": …, "code": …} object per line)`);
}

/** Throws InvalidDataset, naming the file, when its first non-empty line is not a JSON object; reads no further. */
export async function checkDatasetFile(file: string): Promise<void> {
  for await (const { text, number } of readJsonlLines(file)) {
    if (text.trim() === '') continue;
    const problem = notJsonl(file, text, number);
    if (problem) throw problem;
    return;
  }
}

/**
 * Streams `{id, code, lang?}` lines of a file (or of a stream, such as stdin), split on `\n` only.
 * A malformed line is an error naming its line number, or is reported to `onInvalid` and skipped;
 * a first non-empty line that is not a JSON object is always an error: the file is not JSONL.
 * An id seen on an earlier line is malformed too: each id runs once, the first line's (the one
 * rule of a local batch and the queue, which both read datasets here).
 */
export async function* readDataset(source: string | NodeJS.ReadableStream, options: ReadDatasetOptions = {}): AsyncGenerator<DatasetItem> {
  const file = typeof source === 'string' ? source : '<stdin>';
  /** Each id's first line: only the ids are kept, so a dataset of any length streams. */
  const firstLine = new Map<string, number>();
  let opened = false;
  for await (const { text, number } of readJsonlLines(source)) {
    if (text.trim() === '') continue;
    if (!opened) {
      opened = true;
      const problem = notJsonl(file, text, number);
      if (problem) throw problem;
    }
    const parsed = parseItem(text);
    const first = typeof parsed === 'string' ? undefined : firstLine.get(parsed.id);
    const item = first === undefined ? parsed : `duplicate id, first on line ${first}: this line is not run`;
    if (typeof item !== 'string') {
      firstLine.set(item.id, number);
      yield item;
      continue;
    }
    const id = idOf(text);
    const invalid: InvalidLine = { file, line: number, message: item, ...(id === undefined ? {} : { id }) };
    if (!options.onInvalid) throw new InvalidDataset(`${file}:${number}: ${item}`);
    options.onInvalid(invalid);
  }
}

/** The item a line holds, or what is wrong with it. */
function parseItem(line: string): DatasetItem | string {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return 'not a JSON object';
  }
  const r = row as { id?: unknown; code?: unknown; lang?: unknown };
  if (typeof r !== 'object' || r === null || (typeof r.id !== 'string' && typeof r.id !== 'number') || typeof r.code !== 'string') {
    return 'needs a string "id" and a string "code"';
  }
  const lang = typeof r.lang === 'string' && (LANGS as readonly string[]).includes(r.lang) ? (r.lang as Lang) : undefined;
  return lang ? { id: String(r.id), code: r.code, lang } : { id: String(r.id), code: r.code };
}

function idOf(line: string): string | undefined {
  try {
    const id = (JSON.parse(line) as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}
