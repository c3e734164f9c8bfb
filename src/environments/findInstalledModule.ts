import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { ProjectFile } from './projectModules.ts';

/** Where installed modules are looked for: the working directory (walked up as Node does) and `--modules` directories. */
export interface ModuleSearch {
  readonly cwd: string;
  /** Each a `node_modules` directory or a directory holding one; relative ones are read from `cwd`. Searched first, in order. */
  readonly dirs: readonly string[];
  /** The snippet is this file of a project: its relative imports load the project's files (projectModules). */
  readonly project?: ProjectFile;
}

/** An installed package a specifier names. */
export interface InstalledPackage {
  /** The package's name (`lodash`, `@scope/pkg`) and the specifier's path inside it (`fp` for `lodash/fp`). */
  readonly name: string;
  readonly subpath: string;
  /** The package's directory. */
  readonly dir: string;
  /** The directory whose `node_modules` holds the package: the bundler resolves the specifier from there, as Node would. */
  readonly resolveDir: string;
  readonly version?: string;
}

// npm's rules for a package name, loosely: lower-case URL-safe characters, an optional @scope.
const PACKAGE = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*$/i;

/**
 * The package name and subpath of a bare specifier that names an npm package; undefined for a
 * relative or absolute path, a URL, or a Node built-in (`fs`, `fs/promises`, `node:path`), which
 * are never npm modules.
 */
export function npmPackageOf(specifier: string): { name: string; subpath: string } | undefined {
  if (isBuiltin(specifier) || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const scoped = specifier.startsWith('@');
  const name = parts.slice(0, scoped ? 2 : 1).join('/');
  if (!PACKAGE.test(name)) return undefined;
  return { name, subpath: parts.slice(scoped ? 2 : 1).join('/') };
}

/**
 * Why a specifier's subpath may leave its package before any file is looked at: a `.` or `..`
 * segment, an empty one, a backslash or a NUL. Undefined for a plain subpath (`fp`, `lib/a.js`).
 * Node would follow `lodash/../../x`; the sandbox treats it as a package that is not installed.
 */
export function subpathLeavesPackage(subpath: string): string | undefined {
  if (subpath === '') return undefined;
  if (/[\\\0]/.test(subpath)) return 'its path holds a backslash or a NUL';
  if (subpath.split('/').some((s) => s === '' || s === '.' || s === '..')) return 'its path leaves the package (a ".", ".." or empty segment)';
  return undefined;
}

/** The `node_modules` directories searched, in order: `--modules` directories first, then from `cwd` up to the root. */
export function searchPath(search: ModuleSearch): string[] {
  const out: string[] = [];
  for (const d of search.dirs) {
    const dir = resolve(search.cwd, d);
    out.push(basename(dir) === 'node_modules' ? dir : join(dir, 'node_modules'));
  }
  for (let d = resolve(search.cwd); ; d = dirname(d)) {
    // Node never looks in node_modules/node_modules.
    if (basename(d) !== 'node_modules') out.push(join(d, 'node_modules'));
    if (dirname(d) === d) break;
  }
  return out;
}

/** The installed package a bare specifier names, found as Node finds it; undefined when none is installed. */
export function findInstalledModule(specifier: string, search: ModuleSearch): InstalledPackage | undefined {
  const pkg = npmPackageOf(specifier);
  if (!pkg) return undefined;
  for (const modules of searchPath(search)) {
    const dir = join(modules, pkg.name);
    if (!isDirectory(dir)) continue;
    const version = versionOf(dir);
    return { ...pkg, dir, resolveDir: dirname(modules), ...(version ? { version } : {}) };
  }
  return undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function versionOf(dir: string): string | undefined {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof json.version === 'string' ? json.version : undefined;
  } catch {
    return undefined; // a package without a readable package.json still loads (index.js)
  }
}

// A package larger than this many files is not scanned to its end; the bundler still refuses a .node it reaches.
const MAX_SCANNED = 20_000;

/**
 * Why a package is a native addon and so cannot run in the isolate: its `binding.gyp`, a compiled
 * `.node` file or `"gypfile": true` in package.json. Undefined for a package with none of them.
 */
export function nativeAddonIn(dir: string): string | undefined {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { gypfile?: unknown };
    if (json.gypfile === true) return 'a native addon: its package.json sets "gypfile"';
  } catch {
    // no package.json: the files below decide
  }
  const stack = [dir];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_SCANNED) {
    const current = stack.pop() as string;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue; // unreadable directory: the bundler reports what it cannot read
    }
    for (const e of entries) {
      seen++;
      const path = join(current, e.name);
      // Symbolic links are not followed: a link loop cannot stall the scan.
      if (e.isDirectory()) stack.push(path);
      else if (e.isFile() && (e.name === 'binding.gyp' || e.name.endsWith('.node'))) return `a native addon: ${relative(dir, path)}`;
    }
  }
  return undefined;
}

