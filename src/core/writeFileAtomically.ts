import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

/**
 * Writes `data` to `file` through a temporary file of this process and thread renamed over it: a
 * reader, in this process or another, sees the old file or the new one, never half of one; two
 * writers of the same file leave one of theirs whole. Throws what writeFileSync and renameSync
 * throw (callers with a read-only cache catch it), after removing the temporary file.
 */
export function writeFileAtomically(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}-${threadId}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // the directory refuses even that: the write's own error says why
    }
    throw error;
  }
}
