import { renameSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `file` through a temporary file of this process renamed over it: a reader, in
 * this process or another, sees the old file or the new one, never half of one. Throws what
 * writeFileSync and renameSync throw (callers with a read-only cache catch it).
 */
export function writeFileAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
