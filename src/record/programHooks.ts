import { realpathSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModuleFormat } from './instrumentCalls.ts';

/** The extensions of the program's own files that are instrumented. */
export const PROGRAM_EXTENSIONS: readonly string[] = ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts'];

const FORMATS = new Set<string>(['module', 'commonjs', 'module-typescript', 'commonjs-typescript']);

/** A program directory as an absolute, symlink-free path (Node loads modules by their real path). */
export function programDirectory(programDir: string | URL): string {
  const dir = programDir instanceof URL || programDir.startsWith('file:') ? fileURLToPath(programDir) : resolve(programDir);
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * The module name of a file of the program: its path relative to the program's directory with `/`
 * separators; undefined for a file outside it, under `node_modules`, or of another extension.
 */
export function programModuleOf(programDir: string, file: string): string | undefined {
  const rel = relative(programDir, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const parts = rel.split(sep);
  if (parts.includes('node_modules') || !PROGRAM_EXTENSIONS.includes(extname(file))) return undefined;
  return parts.join('/');
}

/** Rewrites one module's source; returns undefined to leave it as it is. */
export type ModuleTransform = (source: string, module: string, format: ModuleFormat, url: string) => string | undefined;

/**
 * Registers in-thread load hooks (`module.registerHooks`, for `require` and `import` alike) that hand
 * the program's own files to `transform`. Other files load untouched. A TypeScript file keeps its
 * format, so Node strips its types as it would without the hooks.
 */
export function registerProgramHooks(programDir: string, transform: ModuleTransform): void {
  registerHooks({
    load(url, context, nextLoad) {
      const result = nextLoad(url, context);
      // No format yet: a .js file Node will detect as CommonJS or ESM; it is parsed as either.
      const format = result.format ?? 'commonjs';
      if (!url.startsWith('file:') || result.source == null || !FORMATS.has(String(format))) return result;
      const module = programModuleOf(programDir, fileURLToPath(url));
      if (module === undefined) return result;
      const source = typeof result.source === 'string' ? result.source : Buffer.from(result.source as Uint8Array).toString('utf8');
      const code = transform(source, module, format as ModuleFormat, url);
      return code === undefined ? result : { ...result, source: code };
    },
  });
}
