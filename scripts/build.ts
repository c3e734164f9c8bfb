/**
 * `npm run build` (run by `prepare` and `prepack`): writes the .js and .d.ts of the host code next
 * to its .ts sources (tsconfig.build.json), after removing the last build's, so a source deleted
 * since leaves nothing behind. The host part of src/ holds no hand-written .js or .d.ts (.gitignore
 * ignores them there); src/guest/ is left alone: it is TypeScript that esbuild bundles at run time.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function removeBuilt(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(SRC, 'guest')) removeBuilt(path);
    } else if (entry.name.endsWith('.js') || entry.name.endsWith('.d.ts')) rmSync(path);
  }
}

removeBuilt(SRC);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// --noCheck: only emit (seconds); the types are npm run typecheck's job.
execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit' });
