import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A fresh project's node_modules made from this clone's, for the tests that install the packed
 * tarball without the network (package.test.ts, installTarball.test.ts): the production packages,
 * hard-linked, and their command links.
 */

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Hard-links `from` into `to` file by file (copies when the two are on different file systems). */
export function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

/** This clone's installed packages that are not development-only (npm's own `dev` flag in the lockfile), top-level ones with what they nest. */
export function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && path.lastIndexOf('node_modules/') === 0 && entry.dev !== true)
    .map(([path]) => path)
    .filter((path) => existsSync(join(ROOT, path))); // an optional one for another platform is not installed
}

/**
 * Gives `dir` this clone's production packages (but those `leaveOut` names) and the command links
 * among them: npm installs again a package whose bin is not linked, and that would need the registry.
 */
export function linkProductionPackages(dir: string, leaveOut: readonly string[] = []): void {
  for (const path of productionPackages()) {
    if (!leaveOut.includes(path.slice('node_modules/'.length))) linkTree(join(ROOT, path), join(dir, path));
  }
  const bins = join(dir, 'node_modules/.bin');
  mkdirSync(bins);
  for (const name of readdirSync(join(ROOT, 'node_modules/.bin'))) {
    const target = readlinkSync(join(ROOT, 'node_modules/.bin', name));
    if (existsSync(resolve(bins, target))) symlinkSync(target, join(bins, name));
  }
}
