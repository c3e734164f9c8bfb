import { writeFileAtomically } from '../core/writeFileAtomically.ts';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as esbuild from 'esbuild';
import { BundleFailed } from '../core/errors.ts';
import { containModules, metafileOutside, projectOutside } from './containModules.ts';

export interface GuestBundleRequest {
  /** The entry module: a file, or source text resolved from `resolveDir`. */
  readonly entry: string | { readonly contents: string; readonly resolveDir: string; readonly loader?: 'ts' | 'js' };
  /** Names the cache entry and the bundle in messages. */
  readonly name: string;
  /** Replaces globals at build time, as esbuild's `define` does (`process.env.NODE_ENV`). */
  readonly define?: Readonly<Record<string, string>>;
  /** Module specifiers resolved to other files (`fs` → a memfs shim), as esbuild's `alias` does. */
  readonly alias?: Readonly<Record<string, string>>;
  /**
   * Minify: smaller and faster to parse; stack frames then point into one long line. `'keep-names'`
   * minifies whitespace and syntax but renames nothing, so every function and class keeps its name.
   */
  readonly minify?: boolean | 'keep-names';
  /**
   * An installed module's bundle: the package's directory. Every file the bundle loads must then lie,
   * after realpath, inside an installed package (the entry's inside this one), and be JavaScript or
   * JSON (containModules).
   */
  readonly packageDir?: string;
  /**
   * A project's own files (projectModules): the project's directory. Every file the bundle loads
   * must then lie, after realpath, inside it and outside any node_modules; npm packages and Node
   * built-ins stay out of the bundle (`require("x")` is left for the sandbox's require).
   */
  readonly projectDir?: string;
  /** Text put before the bundle's code, as esbuild's `banner.js`. */
  readonly banner?: string;
  /** Specifiers left out of the bundle (`require("path")` stays for the banner's require), as esbuild's `external`. */
  readonly external?: readonly string[];
}

/**
 * A guest bundle: the body of a CommonJS function `(module, exports)`. Evaluate it as
 * `function (module, exports) { <code> }` and read `module.exports`.
 */
export interface GuestBundle {
  readonly name: string;
  readonly code: string;
  /** What it was built from: the `--emit`ted program builds the same bundle again from it (bundleGuestSync, same cache). */
  readonly request?: GuestBundleRequest;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The directory esbuild works from, which the paths it writes into a bundle are relative to: a
 * project's for a project bundle (its module keys then name no directory of the host), else the package's.
 */
function workDir(request: GuestBundleRequest): string {
  return request.projectDir ?? ROOT;
}
const memory = new Map<string, GuestBundle>();

const require = createRequire(import.meta.url);
let api: typeof esbuild | undefined;
/**
 * esbuild, loaded when a bundle is first built: a run whose bundles all come from the cache (most
 * CLI starts) does not pay for loading it (~40 ms). The cache key takes its version from its package.json.
 */
function esbuildApi(): typeof esbuild {
  api ??= require('esbuild') as typeof esbuild;
  return api;
}
let version: string | undefined;
/** The installed esbuild's version, as `esbuild.version` gives it, read without loading esbuild. */
function esbuildVersion(): string {
  version ??= (JSON.parse(readFileSync(require.resolve('esbuild/package.json'), 'utf8')) as { version: string }).version;
  return version;
}

/**
 * Bundles a guest module and everything it imports into one script for the isolate (esbuild,
 * browser platform, no Node built-ins). Bundles are kept in memory for the process and on disk
 * between processes; a disk entry is used only while every input file has the size and mtime it
 * had when the bundle was built.
 */
export async function bundleGuest(request: GuestBundleRequest): Promise<GuestBundle> {
  const key = cacheKey(request);
  const known = cachedBundle(key, request);
  if (known) return known;
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  const started = Date.now();
  try {
    result = await esbuildApi().build(buildOptions(request));
  } catch (error) {
    throw new BundleFailed(`could not bundle ${request.name}: ${firstMessage(error)}`, { cause: error });
  }
  checkProject(request, result.metafile);
  return keep(key, request, result, started);
}

/** A project bundle that loaded a file from outside the project: refused before it is kept. */
function checkProject(request: GuestBundleRequest, metafile: esbuild.Metafile): void {
  const entry = request.entry;
  const stdin = typeof entry === 'string' ? undefined : resolve(workDir(request), entry.resolveDir, request.name);
  const outside = request.projectDir === undefined ? undefined : projectOutside(metafile, workDir(request), request.projectDir, stdin);
  if (outside !== undefined) throw new BundleFailed(`could not bundle ${request.name}: ${outside}`);
}

/**
 * bundleGuest, synchronously (esbuild's buildSync), with the same memory and disk cache: for the
 * `--emit`ted program, which loads its environments before the snippet's first line runs.
 */
export function bundleGuestSync(request: GuestBundleRequest): GuestBundle {
  const key = cacheKey(request);
  const known = cachedBundle(key, request);
  if (known) return known;
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  const started = Date.now();
  try {
    // The synchronous API takes no plugins: an installed module's containment is checked on what was bundled, before it is kept.
    const { plugins: _plugins, ...options } = buildOptions(request);
    result = esbuildApi().buildSync(options);
  } catch (error) {
    throw new BundleFailed(`could not bundle ${request.name}: ${firstMessage(error)}`, { cause: error });
  }
  const outside = request.packageDir === undefined ? undefined : metafileOutside(result.metafile, ROOT, request.packageDir);
  if (outside !== undefined) throw new BundleFailed(`could not bundle ${request.name}: ${outside}`);
  checkProject(request, result.metafile);
  return keep(key, request, result, started);
}

/** The bundle of this key from memory, else from disk (then kept in memory too). */
function cachedBundle(key: string, request: GuestBundleRequest): GuestBundle | undefined {
  const known = memory.get(key);
  if (known) return known;
  const cached = readCache(key);
  if (cached === undefined) return undefined;
  const bundle = { name: request.name, code: cached, request };
  memory.set(key, bundle);
  return bundle;
}

function buildOptions(request: GuestBundleRequest): esbuild.BuildOptions & { write: false; metafile: true } {
  return {
    ...(typeof request.entry === 'string'
      ? { entryPoints: [request.entry] }
      : { stdin: { contents: request.entry.contents, resolveDir: request.entry.resolveDir, loader: request.entry.loader ?? 'js', sourcefile: request.name } }),
    bundle: true,
    write: false,
    metafile: true,
    format: 'cjs',
    platform: 'browser',
    target: 'es2024',
    ...(request.minify === 'keep-names' ? { minifyWhitespace: true, minifySyntax: true } : { minify: request.minify ?? false }),
    legalComments: 'none',
    logLevel: 'silent',
    absWorkingDir: workDir(request),
    define: { ...request.define },
    alias: { ...request.alias },
    ...(request.projectDir === undefined ? {} : { packages: 'external' as const }),
    ...(request.banner === undefined ? {} : { banner: { js: request.banner } }),
    ...(request.external === undefined ? {} : { external: [...request.external] }),
    ...(request.packageDir === undefined ? {} : { plugins: [containModules(request.packageDir)] }),
  };
}

/** Keeps a bundle esbuild just built, in memory and on disk; `started` is when the build began (Date.now()). */
function keep(key: string, request: GuestBundleRequest, result: esbuild.BuildResult<{ write: false; metafile: true }>, started: number): GuestBundle {
  const file = result.outputFiles[0];
  if (!file) throw new BundleFailed(`could not bundle ${request.name}: esbuild wrote nothing`);
  const bundle = { name: request.name, code: file.text, request };
  memory.set(key, bundle);
  // Source text given as the entry is an input named `name` in its resolveDir: it is in the key, not a file to stamp.
  const entry = request.entry;
  const stdin = typeof entry === 'string' ? undefined : resolve(workDir(request), entry.resolveDir, request.name);
  // Stamped by absolute path: a project bundle's paths are relative to the project, the others' to the package.
  const inputs = Object.keys(result.metafile.inputs).map((f) => (isFileInput(f) ? resolve(workDir(request), f) : f));
  writeCache(key, bundle.code, inputs.filter((f) => f !== stdin), started);
  return bundle;
}

function firstMessage(error: unknown): string {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
  const first = errors?.[0];
  if (first) return first.location ? `${first.text} (${first.location.file}:${first.location.line})` : first.text;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A bundle's cache key: esbuild's version, the request, and the checkout it was built in (ROOT): two
 * checkouts that share one cache directory (a worktree whose node_modules is a link) hold guest
 * files of the same relative names with other content.
 */
function cacheKey(request: GuestBundleRequest): string {
  return createHash('sha256').update(JSON.stringify([esbuildVersion(), ROOT, request])).digest('hex').slice(0, 32);
}

/** Where bundles (and the probe's verdicts) are kept between processes: the package's node_modules/.cache, else the temp dir. */
export function cacheDir(): string {
  const preferred = join(ROOT, 'node_modules', '.cache', 'snipexec');
  try {
    mkdirSync(preferred, { recursive: true });
    return preferred;
  } catch {
    const fallback = join(tmpdir(), 'snipexec-cache');
    mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}

/** How coarse a file system's mtimes may be (FAT's two seconds): a change this close to a build may not show in its stamp. */
const MTIME_GRANULARITY_MS = 2_000;

/** Whether an input esbuild names is a file (not `<define:…>`, `<stdin>` or a `(disabled):…` module). */
export function isFileInput(input: string): boolean {
  return !input.startsWith('<') && !input.startsWith('(disabled):');
}

interface CacheEntry {
  readonly inputs: readonly (readonly [string, number, number])[];
  readonly code: string;
}

function readCache(key: string): string | undefined {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(join(cacheDir(), `${key}.json`), 'utf8')) as CacheEntry;
  } catch {
    return undefined; // no entry, or one a crash left half-written: build again
  }
  for (const [file, size, mtime] of entry.inputs) {
    try {
      const s = statSync(resolve(ROOT, file));
      if (s.size !== size || s.mtimeMs !== mtime) return undefined;
    } catch {
      return undefined;
    }
  }
  return typeof entry.code === 'string' ? entry.code : undefined;
}

/**
 * Writes a bundle to disk with the size and mtime of each input file. Inputs that are no files
 * (`<define:…>`, a module esbuild left out as `(disabled):fs`) are not stamped. A bundle one of
 * whose inputs changed while it was built (an mtime from the build's start on, within the clock's
 * granularity) is not written: its stamp would vouch for content the bundle may not hold.
 */
function writeCache(key: string, code: string, inputs: readonly string[], started: number): void {
  try {
    const stamped = inputs.filter(isFileInput).map((f) => {
      const s = statSync(resolve(ROOT, f));
      return [f, s.size, s.mtimeMs] as const;
    });
    if (stamped.some(([, , mtime]) => mtime >= started - MTIME_GRANULARITY_MS)) return;
    const dir = cacheDir();
    writeFileAtomically(join(dir, `${key}.json`), JSON.stringify({ inputs: stamped, code } satisfies CacheEntry));
  } catch {
    // a read-only install: the bundle is rebuilt by the next process, which is only slower
  }
}
