import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { InvalidDataset } from '../errors.ts';
import { LANGS, type Lang } from '../options.ts';

export interface DatasetItem {
  readonly id: string;
  readonly code: string;
  readonly lang?: Lang;
}

/** Streams `{id, code, lang?}` lines; a malformed line is an error naming its line number. */
export async function* readDataset(file: string): AsyncGenerator<DatasetItem> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new InvalidDataset(`${file}:${n}: not a JSON object`);
    }
    const r = row as { id?: unknown; code?: unknown; lang?: unknown };
    if (typeof r !== 'object' || r === null || (typeof r.id !== 'string' && typeof r.id !== 'number') || typeof r.code !== 'string') {
      throw new InvalidDataset(`${file}:${n}: needs a string "id" and a string "code"`);
    }
    const lang = typeof r.lang === 'string' && (LANGS as readonly string[]).includes(r.lang) ? (r.lang as Lang) : undefined;
    yield lang ? { id: String(r.id), code: r.code, lang } : { id: String(r.id), code: r.code };
  }
}
