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
 * `require.main === module` when the runtime's `require` is a global we may mark.
 */
export function defineModuleGlobals(host: EnvironmentHost): SnippetModule {
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
  const require = (host.global as { require?: unknown }).require;
  if (typeof require === 'function') {
    try {
      Object.defineProperty(require, 'main', { value: module, writable: true, configurable: true });
    } catch {
      // a frozen require of the runtime's: require.main stays as the runtime has it
    }
  }
  return module;
}
