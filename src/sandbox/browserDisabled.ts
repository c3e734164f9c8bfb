import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The endings esbuild tries for a relative path: a key `./a.js` disables `./a` too.
const ENDINGS = ['', '.js', '.cjs', '.mjs', '.json', '/index.js'];

/**
 * Whether the `browser` field of the package at `packageDir` maps an import to `false` (a file or
 * package it leaves out of browser builds): `specifier` as written, or the file it resolved to.
 * esbuild then bundles an empty module; its plugin API reports the path it would have loaded, so
 * containModules asks here instead of judging a path that is never read.
 */
export function browserDisabled(packageDir: string, specifier: string, resolved: string): boolean {
  let browser: unknown;
  try {
    browser = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { browser?: unknown }).browser;
  } catch {
    return false;
  }
  if (browser === null || typeof browser !== 'object') return false;
  for (const [key, value] of Object.entries(browser)) {
    if (value !== false) continue;
    if (!key.startsWith('.') && !key.startsWith('/')) {
      if (key === specifier) return true;
      continue;
    }
    const file = resolve(packageDir, key);
    if (ENDINGS.some((e) => file === resolved + e || file + e === resolved)) return true;
  }
  return false;
}
