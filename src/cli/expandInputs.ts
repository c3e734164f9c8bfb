import { globSync, readdirSync, statSync, type Stats } from 'node:fs';
import { basename, extname, join, sep } from 'node:path';
import { UnusableFile } from '../core/errors.ts';

/**
 * What `run` and `batch` are given, made into files before anything runs: a file is itself, a
 * directory its snippet files (recursively, sorted, node_modules and dot-directories left out), and a
 * glob snipexec expands itself (quoted, so the shell left it alone: `'snippets/**\/*.{js,ts}'`) its
 * matching snippet and dataset files, sorted. A glob that matches nothing, or a directory without a
 * snippet, is an error naming it. Paths keep the form they were given in (relative stays relative),
 * with `/` between their parts; a file named twice runs once.
 */

/** The extensions of snippet files: what a directory expands to, and what `batch` runs as one snippet each. */
export const SNIPPET_EXTENSIONS: readonly string[] = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'];
/** The extensions of JSONL datasets (`batch` also reads a file of any other extension as one, when it is JSONL). */
export const DATASET_EXTENSIONS: readonly string[] = ['.jsonl', '.ndjson'];

const GLOB_CHARACTERS = /[*?[\]{}]/;

export const isSnippetFile = (path: string): boolean => SNIPPET_EXTENSIONS.includes(extname(path).toLowerCase());
const isDatasetFile = (path: string): boolean => DATASET_EXTENSIONS.includes(extname(path).toLowerCase());
const skippedDirectory = (name: string): boolean => name === 'node_modules' || name.startsWith('.');
const slashed = (path: string): string => path.split(sep).join('/');

/** The files `inputs` name, in order, each once; `-` (standard input) and paths that do not exist are left as given, for the reader to refuse. */
export function expandInputs(inputs: readonly string[]): string[] {
  const files: string[] = [];
  for (const input of inputs) {
    const stats = input === '-' ? undefined : statOrUndefined(input);
    if (stats?.isDirectory()) files.push(...directoryFiles(input));
    else if (stats === undefined && input !== '-' && GLOB_CHARACTERS.test(input)) files.push(...globFiles(input));
    else files.push(input);
  }
  return [...new Set(files)];
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined; // missing or unreadable: the file check says which
  }
}

function directoryFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!skippedDirectory(entry.name)) walk(path);
      } else if (isSnippetFile(entry.name)) files.push(slashed(path));
    }
  };
  walk(dir);
  if (files.length === 0) throw new UnusableFile(`${dir}: a directory with no snippet file (${SNIPPET_EXTENSIONS.join(', ')})`);
  return files;
}

function globFiles(pattern: string): string[] {
  const matches = globSync(pattern, { exclude: (path) => basename(String(path)) === 'node_modules' })
    .filter((path) => (isSnippetFile(path) || isDatasetFile(path)) && statOrUndefined(path)?.isFile() === true)
    .map(slashed)
    .sort();
  if (matches.length === 0) throw new UnusableFile(`${pattern}: no snippet file matches this pattern`);
  return matches;
}
