import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixture project of real npm packages (its own lock file; `prepare` installs it) and their examples. */
export const RECORD_PACKAGES = fileURLToPath(new URL('./fixtures/record-packages/', import.meta.url));

export interface PackageExample {
  /** The package's name: the example's file name without its extension. */
  readonly name: string;
  /** The example's file name (`semver.cjs`). */
  readonly file: string;
}

export const PACKAGE_EXAMPLES: readonly PackageExample[] = readdirSync(join(RECORD_PACKAGES, 'examples'))
  .sort()
  .map((file) => ({ name: file.replace(/\.[cm]?js$/, ''), file }));

/**
 * `into/NAME/` holding the example and a copy of its package by name, outside node_modules so that
 * record instruments the package as the program's own; the package's own dependencies resolve
 * through a node_modules link to the fixture's, and stay uninstrumented.
 */
export function layOutExample(example: PackageExample, into: string): string {
  const dir = join(into, example.name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(RECORD_PACKAGES, 'node_modules', example.name), join(dir, example.name), { recursive: true });
  cpSync(join(RECORD_PACKAGES, 'examples', example.file), join(dir, example.file));
  symlinkSync(join(RECORD_PACKAGES, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}
