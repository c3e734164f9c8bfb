import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { langFromFileName } from '../src/parse/parseSnippet.ts';

/** A dataset the evaluation runs: where it is, and what it stands for. */
export interface DatasetSource {
  readonly name: string;
  /** `functions` (bodies cut out of packages) or `snippets` (Stack Overflow-style code). */
  readonly kind: 'functions' | 'snippets';
  readonly items: () => AsyncIterable<DatasetItem>;
  readonly describe: string;
}

const here = new URL('.', import.meta.url).pathname;
export const SHARED_DIR = join(here, '..', '..', 'shared', 'datasets');
export const FUNCTIONS_FILE = join(here, 'generated', 'functions.jsonl');
export const HANDWRITTEN_DIR = join(here, 'handwritten');
const HANDWRITTEN_PARTS = ['dom', 'jquery', 'react'] as const;

/** The hand-written set: one file per snippet, `category/name.ext`; the extension gives the language. */
export async function* readHandwritten(dir = HANDWRITTEN_DIR, only?: string): AsyncGenerator<DatasetItem> {
  for (const category of readdirSync(dir).sort()) {
    if (only !== undefined && category !== only) continue;
    const sub = join(dir, category);
    if (!statSync(sub).isDirectory()) continue;
    for (const file of readdirSync(sub).sort()) {
      const lang = langFromFileName(file);
      if (!lang) continue;
      yield { id: `${category}/${file.replace(/\.[^.]+$/, '')}`, code: readFileSync(join(sub, file), 'utf8'), lang };
    }
  }
}

/**
 * Every dataset present, and a message for each one that is absent: the function bodies (built
 * by `npm run datasets`), the hand-written set (always there), and ../shared/datasets/*.jsonl.
 */
export function availableDatasets(): { datasets: DatasetSource[]; absent: string[] } {
  const datasets: DatasetSource[] = [];
  const absent: string[] = [];
  if (existsSync(FUNCTIONS_FILE)) {
    datasets.push({ name: 'functions', kind: 'functions', items: () => readDataset(FUNCTIONS_FILE), describe: 'function bodies of express, lodash, axios, moment and eslint (datasets/generated/functions.jsonl)' });
  } else absent.push(`functions: ${FUNCTIONS_FILE} is absent; build it with \`npm run datasets\` (fetches five pinned npm packages)`);
  datasets.push({ name: 'handwritten', kind: 'snippets', items: () => readHandwritten(), describe: 'browser DOM, jQuery, React/JSX, TypeScript, async and class snippets (datasets/handwritten/)' });
  // The parts whose snippets load the browser environments, on rows of their own.
  for (const part of HANDWRITTEN_PARTS) {
    datasets.push({ name: `handwritten-${part}`, kind: 'snippets', items: () => readHandwritten(HANDWRITTEN_DIR, part), describe: `the ${part} snippets of datasets/handwritten/${part}/ (also in handwritten)` });
  }
  if (existsSync(SHARED_DIR)) {
    for (const f of readdirSync(SHARED_DIR).filter((f) => f.endsWith('.jsonl')).sort()) {
      datasets.push({ name: f.replace(/\.jsonl$/, ''), kind: 'snippets', items: () => readDataset(join(SHARED_DIR, f)), describe: `../shared/datasets/${f}` });
    }
  } else absent.push(`shared: ${SHARED_DIR} is absent; the shared Stack Overflow and npm README sets are skipped`);
  return { datasets, absent };
}
