import { writeFileAtomically } from '../core/writeFileAtomically.ts';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { BundleFailed } from '../core/errors.ts';
import { siblingModule } from '../core/moduleFile.ts';
import { cacheDir, isFileInput } from '../sandbox/bundleGuest.ts';

/** The preload's source: recordHooks.ts (recordHooks.js when snipexec runs from its build) and what it imports. */
export const RECORD_HOOKS_PATH = fileURLToPath(siblingModule(import.meta.url, './recordHooks'));

const ROOT = resolve(dirname(RECORD_HOOKS_PATH), '../..');
/** The input files of the last bundle built, relative to ROOT: the hash of their contents names the bundle that is up to date. */
const MANIFEST = 'record-preload.json';
const PREFIX = 'record-preload-';
/** How coarse a file system's mtimes may be (FAT's two seconds): a change this close to a build may not show in its stamp. */
const MTIME_GRANULARITY_MS = 2_000;
/** A superseded bundle is removed once it is this old: a recording that was handed it a moment ago still finds it. */
const STALE_AFTER_MS = 60 * 60 * 1000;

const BUILD = {
  entryPoints: [RECORD_HOOKS_PATH],
  bundle: true,
  write: false,
  metafile: true,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  // The sources are ES modules, strict by definition; a CommonJS bundle is strict only when it says so.
  banner: { js: '"use strict";' },
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'silent',
  absWorkingDir: ROOT,
} as const satisfies esbuild.BuildOptions;

/**
 * The file `recordProgram` passes to `--require`: recordHooks.ts and everything it imports
 * (@babel/parser included) as one CommonJS bundle, so the recorded program's Node neither strips
 * types nor resolves modules before the program starts (~140 ms of TypeScript stripping), run by a
 * small loader with a V8 code cache, which the first recorded run writes at its exit, so later runs
 * compile little of the parser again. Built with esbuild on first use and kept in the bundle cache
 * (bundleGuest.ts's cacheDir), named by a hash of its inputs' contents, which are read again on
 * every use: an edited source is rebuilt. When no bundle can be kept (a read-only cache, or an
 * input that changed while it was being built) it is recordHooks.ts itself, which records the
 * same, only slower to start.
 */
export async function recordPreload(): Promise<string> {
  const dir = cacheDir();
  const known = readManifest(dir);
  const current = known === undefined ? undefined : preloadFiles(dir, known);
  if (current !== undefined && exists(current.bundle) && exists(current.loader)) return current.loader;
  const started = Date.now();
  let result: esbuild.BuildResult<typeof BUILD>;
  try {
    result = await esbuild.build(BUILD);
  } catch (error) {
    throw new BundleFailed(`record: could not bundle the preload ${RECORD_HOOKS_PATH}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  // A warning is code that would run differently bundled (`import.meta` in CommonJS is an empty object).
  const warning = result.warnings[0];
  if (warning) throw new BundleFailed(`record: the preload cannot be bundled as it is: ${warning.text}${warning.location ? ` (${warning.location.file}:${warning.location.line})` : ''}`);
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new BundleFailed('record: could not bundle the preload: esbuild wrote nothing');
  const inputs = Object.keys(result.metafile.inputs).filter(isFileInput).sort();
  const files = preloadFiles(dir, inputs);
  if (files === undefined || !settled(inputs, started)) return RECORD_HOOKS_PATH;
  try {
    writeFileAtomically(files.bundle, code); // before the loader, which is what says the bundle is there
    writeFileAtomically(files.loader, loaderSource(files));
    writeFileAtomically(join(dir, MANIFEST), JSON.stringify(inputs));
  } catch {
    return RECORD_HOOKS_PATH; // the cache cannot be written: every recording starts from the sources, which is only slower
  }
  removeStale(dir, files.stem);
  return files.loader;
}

interface PreloadFiles {
  /** The path of all three without its extension: `record-preload-HASH`. */
  readonly stem: string;
  /** The bundle: a CommonJS module. */
  readonly bundle: string;
  /** What `--require` loads: it runs the bundle with the code cache. */
  readonly loader: string;
  /** V8's code cache of the bundle, written by a recorded run when it is missing or V8 rejected it. */
  readonly codeCache: string;
}

/**
 * The loader: it compiles the bundle as Node would a CommonJS module, with the code cache when
 * there is one; when there is none, or V8 rejected it (another Node or other flags), it writes
 * one at exit, after the trace, with what the run compiled (the parser's functions included).
 */
function loaderSource(files: PreloadFiles): string {
  return `'use strict';
// Written by snipexec (src/record/recordPreload.ts): runs the record preload's bundle with a V8 code cache.
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');
const bundle = ${JSON.stringify(files.bundle)};
const codeCache = ${JSON.stringify(files.codeCache)};
let cachedData;
try { cachedData = readFileSync(codeCache); } catch {}
const script = new Script('(function (exports, require, module, __filename, __dirname) {' + readFileSync(bundle, 'utf8') + '\\n})', { filename: bundle, cachedData });
const bundleModule = { exports: {} };
script.runInThisContext().call(bundleModule.exports, bundleModule.exports, require, bundleModule, bundle, __dirname);
if (cachedData === undefined || script.cachedDataRejected) {
  process.on('exit', () => {
    try {
      const temp = codeCache + '.' + process.pid + '.tmp';
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, codeCache);
    } catch {}
  });
}
`;
}

function readManifest(dir: string): string[] | undefined {
  try {
    const inputs: unknown = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8'));
    return Array.isArray(inputs) && inputs.every((f) => typeof f === 'string') ? inputs : undefined;
  } catch {
    return undefined; // none yet, or half-written by a crash: build again
  }
}

/** The files these inputs give, named by esbuild's version, the build options and the inputs' paths and contents; undefined when one is gone. */
function preloadFiles(dir: string, inputs: readonly string[]): PreloadFiles | undefined {
  const hash = createHash('sha256').update(JSON.stringify([esbuild.version, BUILD, loaderSource({ stem: '', bundle: '', loader: '', codeCache: '' })]));
  try {
    for (const f of inputs) hash.update(`\0${f}\0`).update(readFileSync(resolve(ROOT, f)));
  } catch {
    return undefined;
  }
  const stem = join(dir, `${PREFIX}${hash.digest('hex').slice(0, 32)}`);
  return { stem, bundle: `${stem}.js`, loader: `${stem}.cjs`, codeCache: `${stem}.v8cache` };
}

/** Whether no input changed from shortly before the build on: the contents hashed after it are those esbuild read. */
function settled(inputs: readonly string[], started: number): boolean {
  try {
    return inputs.every((f) => statSync(resolve(ROOT, f)).mtimeMs < started - MTIME_GRANULARITY_MS);
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}


/** Removes the files of superseded bundles (and temporary files a crash left) once they are old. */
function removeStale(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (!name.startsWith(PREFIX) || file.startsWith(`${keep}.`)) continue;
    try {
      if (now - statSync(file).mtimeMs > STALE_AFTER_MS) rmSync(file, { force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}
