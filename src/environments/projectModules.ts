import { dirname, resolve } from 'node:path';
import { BundleFailed } from '../core/errors.ts';
import { bundleGuest } from '../sandbox/bundleGuest.ts';
import { OUTSIDE_PACKAGE } from '../sandbox/containModules.ts';
import { MAX_MODULE_BUNDLE_BYTES, type ModuleEnvironments, type ModuleUse } from './npmModules.ts';

/** A snippet that is a file of a project: its relative imports name the project's own files. */
export interface ProjectFile {
  /** The project's directory: nothing outside it is loaded. */
  readonly root: string;
  /** The snippet's file, relative to `root` or absolute. */
  readonly file: string;
}

/** The name of the project bundle, and so of its script in the isolate (`snipexec:env:project`). */
export const PROJECT_BUNDLE = 'project';

/** A relative specifier (`./utils`, `../lib`, `..`): a file of the project, not a package. */
export function isRelativeSpecifier(specifier: string): boolean {
  return specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');
}

const RESOLVE_FAILED = /Could not resolve "([^"]+)"/;

/**
 * The project's own modules among `specifiers` (the relative ones), bundled from the snippet's
 * directory into one guest environment, so that `require('./utils')` is the real file, as the
 * code's own callers see it, not a learnt value (diff compares two versions of a file on the
 * same values: a helper of the next file must behave as it does). Each is loaded when the snippet
 * first requires it (defineModuleLoader: its top level runs then, as in Node); the npm packages
 * and Node built-ins those files import are not bundled: they are what the snippet's own
 * `require` gives them (an environment's module, an installed one, else a learnt value). Every
 * file bundled lies inside the project and outside node_modules (projectOutside). Each specifier
 * is listed as a module use, as npm modules are: `bundled`, or left to the value generator with
 * why (`not-installed`: no such file, or a file outside the project; `too-large`; `not-pure`: the
 * bundler failed).
 */
export async function projectModules(specifiers: readonly string[], project: ProjectFile, maxBytes = MAX_MODULE_BUNDLE_BYTES): Promise<ModuleEnvironments> {
  let wanted = [...new Set(specifiers.filter(isRelativeSpecifier))];
  const skipped: ModuleUse[] = [];
  const resolveDir = dirname(resolve(project.root, project.file));
  const dir = resolve(project.root);
  while (wanted.length > 0) {
    let why: ModuleUse;
    try {
      const bundle = await bundleGuest({
        name: PROJECT_BUNDLE,
        entry: { contents: entrySource(wanted), resolveDir },
        banner: BANNER,
        define: { global: 'globalThis' },
        minify: 'keep-names',
        projectDir: project.root,
      });
      const bytes = Buffer.byteLength(bundle.code);
      if (bytes <= maxBytes) return { bundles: [bundle], modules: [...wanted.map((specifier): ModuleUse => ({ specifier, dir, status: 'bundled' })), ...skipped] };
      why = { specifier: '', status: 'too-large', reason: `the project's bundle is ${Math.ceil(bytes / 1024)} KB, over the ${Math.ceil(maxBytes / 1024)} KB it may take` };
    } catch (error) {
      if (!(error instanceof BundleFailed)) throw error;
      // A specifier of the snippet's own that names no file: left out, the rest bundled again.
      const missing = RESOLVE_FAILED.exec(error.message)?.[1];
      if (missing !== undefined && wanted.includes(missing) && error.message.includes(`(${PROJECT_BUNDLE}:`)) {
        wanted = wanted.filter((s) => s !== missing);
        skipped.push({ specifier: missing, status: 'not-installed', reason: 'no such file in the project' });
        continue;
      }
      why = { specifier: '', status: error.message.includes(OUTSIDE_PACKAGE) ? 'not-installed' : 'not-pure', reason: error.message };
    }
    return { bundles: [], modules: [...wanted.map((specifier) => ({ ...why, specifier })), ...skipped] };
  }
  return { bundles: [], modules: skipped };
}

/**
 * Before the bundle's code: the `require` its files call for what is not bundled (packages,
 * built-ins, a computed name), which asks the sandbox's require once setup gave it.
 */
const BANNER = 'var __snipexec_project = { require: undefined };\nvar require = function (specifier) { return __snipexec_project.require(specifier); };';

/**
 * The bundle's entry: setup(host) defines a loader per specifier. The snippet's `import x from`
 * and `import * as x from` both become `require` (normalizeSyntax): an ES module whose only export
 * is its default is that value, any other its namespace.
 */
function entrySource(specifiers: readonly string[]): string {
  const loaders = specifiers.map((s) => `  host.defineModuleLoader(${JSON.stringify(s)}, function () { return moduleValue(require(${JSON.stringify(s)})); });`);
  return [
    'function moduleValue(m) {',
    '  var keys = m !== null && typeof m === "object" && m.__esModule === true ? Object.keys(m) : [];',
    '  return keys.length === 1 && keys[0] === "default" ? m.default : m;',
    '}',
    'module.exports.setup = function (host) {', '  __snipexec_project.require = host.require;', ...loaders, '};',
  ].join('\n');
}
