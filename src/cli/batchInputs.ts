import { readFileSync } from 'node:fs';
import { checkDatasetFile, type DatasetItem } from '../batch/readDataset.ts';
import { InvalidOptions } from '../core/errors.ts';
import { snippetFileName } from './commandOptions.ts';
import { expandInputs, isSnippetFile, SNIPPET_EXTENSIONS } from './expandInputs.ts';
import { checkReadableFile } from './inputFiles.ts';

/** What `batch` runs: one JSONL dataset, or snippet files (one row each, its path as its id). */
export type BatchInput = { readonly dataset: string } | { readonly files: readonly string[] };

/**
 * `batch`'s inputs, checked before anything runs. The rule is by extension: a snippet file
 * (.js, .ts, …) is one snippet; any other file is a dataset, which must be JSONL (its first
 * non-empty line a JSON object) and come alone. A wrong input is one error naming it.
 */
export async function batchInput(inputs: readonly string[]): Promise<BatchInput> {
  const files = expandInputs(inputs);
  const datasets = files.filter((file) => !isSnippetFile(file));
  if (datasets.length === 0) {
    for (const file of files) checkReadableFile(file);
    return { files };
  }
  const [dataset] = datasets;
  if (files.length > 1 || dataset === undefined) {
    throw new InvalidOptions(`batch: runs one JSONL dataset, or snippet files (${SNIPPET_EXTENSIONS.join(', ')}); ${datasets.join(', ')} ${datasets.length === 1 ? 'is not a snippet file' : 'are not snippet files'}, among ${files.length} files`);
  }
  checkReadableFile(dataset);
  await checkDatasetFile(dataset);
  return { dataset };
}

/** The snippet files as a dataset's items, each file read when the batch reaches it. */
export async function* snippetFileItems(files: readonly string[], projectDir: string | undefined): AsyncGenerator<DatasetItem> {
  for (const file of files) yield { id: file, code: readFileSync(file, 'utf8'), fileName: snippetFileName(file, projectDir) };
}
