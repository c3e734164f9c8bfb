import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { CWD, FILENAME } from './processModel.ts';

/** The CommonJS module object the snippet runs as: Node's main module. */
export interface SnippetModule {
  exports: unknown;
  readonly id: string;
  readonly filename: string;
  readonly path: string;
  loaded: boolean;
  readonly children: unknown[];
  readonly paths: string[];
  parent: null;
}

/**
 * `__dirname`, `__filename`, `module`, `exports` (`module.exports === exports`), `global`, and
 * a global `require` whose `main` is `module` (or `.main` on a `require` someone already defined).
 */
export function defineModuleGlobals(host: EnvironmentHost, ownModules: ReadonlyMap<string, unknown>): SnippetModule {
  const module: SnippetModule = {
    exports: {},
    id: '.',
    filename: FILENAME,
    path: CWD,
    loaded: false,
    children: [],
    paths: ['/app/node_modules', '/node_modules'],
    parent: null,
  };
  host.defineGlobal('__dirname', CWD);
  host.defineGlobal('__filename', FILENAME);
  host.defineGlobal('module', module);
  host.defineGlobal('exports', module.exports);
  host.defineGlobal('global', host.global);
  const existing = (host.global as { require?: unknown }).require;
  if (typeof existing === 'function') {
    try {
      Object.defineProperty(existing, 'main', { value: module, writable: true, configurable: true });
    } catch {
      // a frozen require: require.main stays as it is
    }
  } else host.defineGlobal('require', createRequire(host, module, ownModules));
  return module;
}

/**
 * The global `require` when nothing defined one: `require.main`, `require.resolve` and
 * `require.cache` as Node's main module has them. It returns this environment's modules; any
 * other it asks the runtime for, as `valueOf('require("<spec>")')`: the module the runtime's own
 * require gives (another environment's, an installed one, else a learnt value), so a require of
 * a computed name goes on as it did before environments. MODULE_NOT_FOUND when there is none.
 */
function createRequire(host: EnvironmentHost, module: SnippetModule, ownModules: ReadonlyMap<string, unknown>): NodeJS.Require {
  const notFound = (spec: unknown) => Object.assign(new Error(`Cannot find module '${String(spec)}'`), { code: 'MODULE_NOT_FOUND' });
  const bare = (spec: unknown) => String(spec).replace(/^node:/, '');
  const require = (spec: unknown): unknown => {
    const key = bare(spec);
    if (ownModules.has(key)) return ownModules.get(key);
    const v = host.valueOf(`require(${JSON.stringify(String(spec))})`, `Cannot find module '${String(spec)}'`);
    if (v === undefined) throw notFound(spec);
    return v;
  };
  const resolve = (spec: unknown): string => {
    const text = String(spec);
    if (ownModules.has(bare(text))) return text;
    if (text.startsWith('/') || text.startsWith('.')) return text.startsWith('/') ? text : `${CWD}/${text.replace(/^\.\//, '')}`;
    throw notFound(spec);
  };
  resolve.paths = () => module.paths;
  return Object.assign(require, { main: module, resolve, cache: Object.create(null), extensions: Object.create(null) }) as unknown as NodeJS.Require;
}
