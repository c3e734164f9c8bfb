import type { EnvironmentFailure } from '../core/runResult.ts';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleGuest, type GuestBundle, type GuestBundleRequest } from '../sandbox/bundleGuest.ts';
import { ENVIRONMENTS, environmentsFor, type EnvironmentSpec, type SnippetNames } from './registry.ts';
import { npmPackageOf, type ModuleSearch } from './findInstalledModule.ts';
import { moduleEnvironments, type ModuleUse } from './npmModules.ts';
import { isRelativeSpecifier, projectModules } from './projectModules.ts';


export interface LoadedEnvironments {
  /** Guest bundles in load order, for the sandbox to evaluate before the snippet. */
  readonly bundles: readonly GuestBundle[];
  /**
   * How many of the leading `bundles` are the registry's (the rest are npm modules'): their modules
   * may be evaluated into the isolate's startup snapshot (src/sandbox/environmentSnapshots.ts).
   */
  readonly fromRegistry: number;
  /** The environments the snippet needs, by name, in load order. */
  readonly names: readonly string[];
  readonly failures: readonly EnvironmentFailure[];
  /**
   * The installed npm modules the snippet loads (their bundles follow the registry's in `bundles`),
   * then, for a file of a project, its relative imports (projectModules), and the ones not bundled,
   * with why. Absent for environments a test gives inline.
   */
  readonly modules?: readonly ModuleUse[];
}

const GUEST_ENVIRONMENTS = new URL('../guest/environments/', import.meta.url);

/**
 * How a registry environment's guest bundle is built. Minified with names kept: a startup snapshot
 * holds the modules' source, and an isolate made from it starts in time proportional to its size
 * (the browser's snapshot: 3.2 → 2.1 MB, its isolate 17 → 9 ms; npm run bench's start rows).
 */
export function environmentBundleRequest(spec: EnvironmentSpec): GuestBundleRequest {
  return { name: spec.name, entry: fileURLToPath(new URL(spec.entry, GUEST_ENVIRONMENTS)), define: spec.define, alias: spec.alias, minify: 'keep-names' };
}

/**
 * The one place the engine asks which environments a run gets: the registry's environments the
 * snippet's names select, then the installed pure-JavaScript npm modules it loads
 * (docs/internals/environments.md), then, for a snippet that is a file of a project, the project's own files it
 * imports (projectModules). A bundle that fails to build is a failure of this snippet only: the
 * snippet runs without it, and its result says so.
 */
export async function loadEnvironments(
  names: SnippetNames,
  registry: readonly EnvironmentSpec[] = ENVIRONMENTS,
  search: ModuleSearch = { cwd: process.cwd(), dirs: [] },
): Promise<LoadedEnvironments> {
  // A project's own files run in the sandbox as Node runs them: with Node's globals (`process`, `module`) around them.
  const project = search.project !== undefined && names.modules.some(isRelativeSpecifier) ? search.project : undefined;
  const wanted = environmentsFor(project ? { ...names, globals: [...names.globals, 'process'] } : names, registry);
  const bundles: GuestBundle[] = [];
  const failures: EnvironmentFailure[] = [];
  for (const spec of wanted) {
    try {
      bundles.push(await bundleGuest(environmentBundleRequest(spec)));
    } catch (error) {
      failures.push({ name: spec.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  // Installed npm modules, after the registry's environments; a package an environment provides (jquery, react) is the environment's.
  const provided = new Set(registry.flatMap((e) => e.modules));
  const fromNpm = names.modules.filter((m) => !provided.has(m) && !provided.has(npmPackageOf(m)?.name ?? m));
  // The Node built-ins those environments give are given to the installed modules too (a package's `require('path')`).
  const builtins = [...new Set(wanted.flatMap((e) => e.modules).filter((m) => isBuiltin(m)))];
  const modules = await moduleEnvironments(fromNpm, { ...search, builtins });
  // The project's own modules last: their files require what the environments and npm modules define.
  const own = project ? await projectModules(names.modules, project) : { bundles: [], modules: [] };
  return {
    bundles: [...bundles, ...modules.bundles, ...own.bundles], fromRegistry: bundles.length, names: [...wanted.map((e) => e.name), ...own.bundles.map((b) => b.name)], failures,
    modules: [...modules.modules, ...own.modules],
  };
}
