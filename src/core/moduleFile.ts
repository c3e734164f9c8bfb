import { extname } from 'node:path';

/**
 * The file URL of a snipexec module named relative to the calling one, without its extension
 * (`siblingModule(import.meta.url, '../record/testHooks')`), given the caller's own extension: `.ts`
 * when snipexec runs from its TypeScript sources (inside its clone), `.js` when it runs from the
 * build next to them (installed under node_modules, where Node strips no types). For a module
 * snipexec hands to another process or loader (a `--require` preload, a generated test's import).
 */
export function siblingModule(importMetaUrl: string, specifier: string): URL {
  return new URL(`${specifier}${extname(new URL(importMetaUrl).pathname)}`, importMetaUrl);
}
