import { realpathSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import type * as esbuild from 'esbuild';
import { browserDisabled } from './browserDisabled.ts';

/** The kinds of file an installed module may bring into the isolate: JavaScript and JSON, as Node loads them. */
export const MODULE_FILE_KINDS: readonly string[] = ['.js', '.cjs', '.mjs', '.json'];

/** Marks every message of a refusal, so the caller can tell it from a bundler error. */
export const OUTSIDE_PACKAGE = 'outside its package';

const NODE_MODULES = `${sep}node_modules${sep}`;
const GUARD = Symbol('containModules');
/** The namespace of a module a package's `browser` field maps to false: empty, as esbuild makes it, and nothing is read. */
const DISABLED = 'snipexec-disabled';

/**
 * The directory of the installed package a real path lies in (`/p/node_modules/@s/n` for
 * `/p/node_modules/@s/n/lib/a.js`): the package after the last `node_modules` segment. Undefined
 * for a path in no package, or for a package directory itself.
 */
export function packageRootOf(path: string): string | undefined {
  const at = path.lastIndexOf(NODE_MODULES);
  if (at < 0) return undefined;
  const rest = path.slice(at + NODE_MODULES.length).split(sep);
  const depth = rest[0]?.startsWith('@') ? 2 : 1;
  if (rest.length <= depth || rest.slice(0, depth).some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return path.slice(0, at + NODE_MODULES.length) + rest.slice(0, depth).join(sep);
}

/** The real directory of the installed package a file lies in; undefined for none (the entry, source text given). */
function packageOfFile(file: string | undefined): string | undefined {
  const real = file === undefined ? undefined : realOrUndefined(file);
  return real === undefined ? undefined : packageRootOf(real);
}

function inside(path: string, dir: string): boolean {
  return path.startsWith(dir + sep);
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why an import may not enter a module bundle, or undefined when it may: the file (`resolved`, as the
 * bundler resolved `specifier`) must lie, after realpath, inside an installed package and be of a
 * kind in MODULE_FILE_KINDS; a relative or absolute import must stay inside its importer's package;
 * an import from outside any package (the entry) must land inside `entryRoot`, the real directory of
 * the package the snippet named.
 */
export function whyOutside(specifier: string, resolved: string, importer: string | undefined, entryRoot: string | undefined): string | undefined {
  const real = realOrUndefined(resolved);
  const root = real === undefined ? undefined : packageRootOf(real);
  if (real === undefined || root === undefined) return 'the file is in no installed package';
  const importerRoot = packageOfFile(importer);
  const relative = specifier.startsWith('.') || specifier.startsWith('/');
  if (importerRoot !== undefined && relative && !inside(real, importerRoot)) return 'the path leaves the importing package';
  if (importerRoot === undefined && (entryRoot === undefined || !inside(real, entryRoot))) return 'the file is not in the package named';
  const kind = extname(real).toLowerCase();
  if (!MODULE_FILE_KINDS.includes(kind)) return `a ${kind || 'extensionless'} file is not a module kind the sandbox loads (${MODULE_FILE_KINDS.join(', ')})`;
  return undefined;
}

function refusal(specifier: string, why: string): string {
  return `"${specifier}" resolves ${OUTSIDE_PACKAGE}: ${why}`;
}

/**
 * An esbuild plugin that keeps a module bundle inside installed packages (whyOutside), checked
 * before a file is read. esbuild's own resolution (the package's `exports`, `main`, `browser`)
 * decides which file a specifier names.
 */
export function containModules(entryPackage: string): esbuild.Plugin {
  return {
    name: 'snipexec-contain-modules',
    setup(build) {
      const entryRoot = realOrUndefined(entryPackage);
      build.onResolve({ filter: /.*/ }, async (args) => {
        if ((args.pluginData as { [GUARD]?: true } | undefined)?.[GUARD]) return undefined;
        const result = await build.resolve(args.path, { kind: args.kind, importer: args.importer, namespace: args.namespace, resolveDir: args.resolveDir, pluginData: { [GUARD]: true } });
        const importer = args.namespace === 'file' && args.importer !== '' ? args.importer : undefined;
        // The specifier the snippet named does not resolve in its package (not exported, no such file): not available, as Node says.
        const unresolved = result.errors[0];
        if (unresolved && packageOfFile(importer) === undefined) return { errors: [{ text: refusal(args.path, unresolved.notes[0]?.text ?? unresolved.text) }] };
        if (result.errors.length > 0) return { errors: result.errors };
        if (result.namespace !== 'file' || result.external) return { ...result, pluginData: undefined };
        const importerRoot = packageOfFile(importer);
        if (importerRoot !== undefined && browserDisabled(importerRoot, args.path, result.path)) return { path: result.path, namespace: DISABLED };
        const why = whyOutside(args.path, result.path, importer, entryRoot);
        if (why !== undefined) return { errors: [{ text: refusal(args.path, why) }] };
        return { path: result.path, namespace: 'file', sideEffects: result.sideEffects };
      });
      build.onLoad({ filter: /.*/, namespace: DISABLED }, () => ({ contents: '', loader: 'js' }));
    },
  };
}

/**
 * The same rule over a finished bundle's metafile, for esbuild's synchronous API, which takes no
 * plugins: the first import that breaks it, as a message, or undefined. Paths are relative to `cwd`.
 */
export function metafileOutside(metafile: esbuild.Metafile, cwd: string, entryPackage: string): string | undefined {
  const entryRoot = realOrUndefined(entryPackage);
  for (const [file, input] of Object.entries(metafile.inputs)) {
    const importer = file.startsWith('<') ? undefined : resolve(cwd, file);
    for (const imported of input.imports) {
      if (imported.external || imported.path.startsWith('<') || imported.path.startsWith('(disabled):')) continue;
      const specifier = imported.original ?? imported.path;
      const why = whyOutside(specifier, resolve(cwd, imported.path), importer, entryRoot);
      if (why !== undefined) return refusal(specifier, why);
    }
  }
  return undefined;
}

/** The kinds of file a project's own modules may be: JavaScript, TypeScript and JSON. */
export const PROJECT_FILE_KINDS: readonly string[] = [...MODULE_FILE_KINDS, '.jsx', '.ts', '.mts', '.cts', '.tsx'];

/**
 * The first file of a project bundle's metafile (paths relative to `cwd`; `stdin`, the entry
 * given as text, is none) that lies, after
 * realpath, outside `projectDir`, inside a node_modules directory, or is not of a kind in
 * PROJECT_FILE_KINDS, as a message; undefined when every file is the project's own.
 */
export function projectOutside(metafile: esbuild.Metafile, cwd: string, projectDir: string, stdin: string | undefined): string | undefined {
  const root = realOrUndefined(projectDir);
  if (root === undefined) return `the project directory ${projectDir} does not exist`;
  for (const file of Object.keys(metafile.inputs)) {
    if (file.startsWith('<') || file.startsWith('(disabled):') || resolve(cwd, file) === stdin) continue;
    const real = realOrUndefined(resolve(cwd, file));
    if (real === undefined || !inside(real, root)) return `"${file}" lies ${OUTSIDE_PACKAGE}: not in the project ${root}`;
    if (real.includes(NODE_MODULES)) return `"${file}" lies ${OUTSIDE_PACKAGE}: an installed package, not the project's own`;
    const kind = extname(real).toLowerCase();
    if (!PROJECT_FILE_KINDS.includes(kind)) return `"${file}": a ${kind || 'extensionless'} file is not a module kind the sandbox loads (${PROJECT_FILE_KINDS.join(', ')})`;
  }
  return undefined;
}
