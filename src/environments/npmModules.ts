import type { ModuleStatus } from '../core/runResult.ts';
import { isBuiltin } from 'node:module';
import { BundleFailed } from '../core/errors.ts';
import { bundleGuest, type GuestBundle } from '../sandbox/bundleGuest.ts';
import { OUTSIDE_PACKAGE } from '../sandbox/containModules.ts';
import { findInstalledModule, nativeAddonIn, npmPackageOf, subpathLeavesPackage, type ModuleSearch } from './findInstalledModule.ts';

export type { ModuleSearch } from './findInstalledModule.ts';


/** One npm module a snippet loads, or one of its project's files (projectModules). */
export interface ModuleUse {
  readonly specifier: string;
  /** The installed package's version, from its package.json. */
  readonly version?: string;
  /** The installed package's directory. */
  readonly dir?: string;
  readonly status: ModuleStatus;
  /** Why it was not bundled: a native addon, a Node built-in it needs, the bundler's error, its size. */
  readonly reason?: string;
}

export interface ModuleEnvironments {
  /** One guest bundle per bundled module, in the order of the specifiers; each defines its specifier's module. */
  readonly bundles: GuestBundle[];
  /** Every npm module among the specifiers, bundled or not. */
  readonly modules: ModuleUse[];
}

/** The largest module bundle loaded into the isolate: its code is parsed in every run. */
export const MAX_MODULE_BUNDLE_BYTES = 5 * 1024 * 1024;

/** The name of a module's bundle, and so of its script in the isolate (`snipexec:env:module:lodash`). */
export function moduleBundleName(specifier: string): string {
  return `module:${specifier}`;
}

/**
 * The npm modules among `specifiers` that are installed and pure JavaScript, each bundled (the
 * real module, with what it imports) into a guest environment that defines it for `require` and
 * `import`. Relative paths and Node built-ins are not npm modules and are left out. A module that
 * is not installed, is a native addon, needs a Node built-in no environment of the run gives, fails to bundle or is too large is
 * listed with why; the value generator then stands in for it, as for any missing module.
 * Bundles are cached in memory and on disk (bundleGuest), keyed by the installed files.
 */
export async function moduleEnvironments(
  specifiers: readonly string[],
  options: ModuleSearch & { readonly maxBundleBytes?: number; readonly builtins?: readonly string[] },
): Promise<ModuleEnvironments> {
  const wanted = [...new Set(specifiers)].filter((s) => npmPackageOf(s) !== undefined);
  const outcomes = await Promise.all(wanted.map((s) => moduleEnvironment(s, options, options.maxBundleBytes ?? MAX_MODULE_BUNDLE_BYTES, options.builtins ?? [])));
  return {
    bundles: outcomes.flatMap((o) => (o.bundle ? [o.bundle] : [])),
    modules: outcomes.map((o) => o.use),
  };
}

async function moduleEnvironment(specifier: string, search: ModuleSearch, maxBytes: number, builtins: readonly string[]): Promise<{ use: ModuleUse; bundle?: GuestBundle }> {
  // A path out of the package is no module: the same as one not installed, with why, and nothing is read.
  const leaves = subpathLeavesPackage(npmPackageOf(specifier)?.subpath ?? '');
  if (leaves) return { use: { specifier, status: 'not-installed', reason: leaves } };
  const installed = findInstalledModule(specifier, search);
  if (!installed) return { use: { specifier, status: 'not-installed' } };
  const found = { specifier, ...(installed.version ? { version: installed.version } : {}), dir: installed.dir };
  const native = nativeAddonIn(installed.dir);
  if (native) return { use: { ...found, status: 'not-pure', reason: native } };
  const external = builtins.flatMap((b) => [b, `node:${b}`]);
  let bundle: GuestBundle;
  try {
    bundle = await bundleGuest({
      name: moduleBundleName(specifier),
      entry: { contents: entrySource(specifier, external.length > 0), resolveDir: installed.resolveDir },
      // The built-ins the run's environments give are the snippet's require's, as in Node, where a package's `require('path')` is the program's `path`.
      ...(external.length > 0 ? { external, banner: BUILTIN_REQUIRE } : {}),
      // The isolate has no `process` and no `global`: the production build, and the global object by its standard name.
      define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
      // Parsed in every run: minified, it parses faster (lodash: 540 KB → 70 KB).
      minify: true,
      // Every file bundled lies inside an installed package and is JavaScript or JSON (containModules).
      packageDir: installed.dir,
    });
  } catch (error) {
    if (!(error instanceof BundleFailed)) throw error;
    if (error.message.includes(OUTSIDE_PACKAGE)) return { use: { specifier, status: 'not-installed', reason: error.message.slice(error.message.indexOf('"')) } };
    return { use: { ...found, status: 'not-pure', reason: whyNotBundled(error.message, moduleBundleName(specifier)) } };
  }
  const bytes = Buffer.byteLength(bundle.code);
  if (bytes > maxBytes) return { use: { ...found, status: 'too-large', reason: `its bundle is ${megabytes(bytes)}, over the ${megabytes(maxBytes)} a module may take` } };
  return { use: { ...found, status: 'bundled' }, bundle };
}

/** Before a module's bundle: the `require` its files call for the built-ins left out of it, which asks the sandbox's require once setup gave it. */
const BUILTIN_REQUIRE = 'var __snipexec_module = { require: undefined };\nvar require = function (specifier) { return __snipexec_module.require(specifier); };';

/** The bundle's entry: setup(host) defines the module, its built-ins required through the host (BUILTIN_REQUIRE) when some are left out. */
function entrySource(specifier: string, builtins: boolean): string {
  const s = JSON.stringify(specifier);
  return builtins
    ? `module.exports.setup = (host) => { __snipexec_module.require = host.require; host.defineModule(${s}, require(${s})); };`
    : `module.exports.setup = (host) => host.defineModule(${s}, require(${s}));`;
}

/** The bundler's error in the user's words: a Node built-in the module needs, else esbuild's own message. */
function whyNotBundled(message: string, name: string): string {
  const unresolved = /Could not resolve "([^"]+)"/.exec(message)?.[1];
  if (unresolved && isBuiltin(unresolved)) return `it needs the Node built-in "${unresolved.replace(/^node:/, '')}", which no environment of this run gives`;
  const native = /No loader is configured for "\.node" files: (\S+)/.exec(message)?.[1];
  if (native) return `a native addon: ${native}`;
  const prefix = `could not bundle ${name}: `;
  return `it could not be bundled: ${message.startsWith(prefix) ? message.slice(prefix.length) : message}`;
}

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
