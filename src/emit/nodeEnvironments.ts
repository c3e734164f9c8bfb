import Module from 'node:module';
import { runInThisContext } from 'node:vm';
import { SnipexecError } from '../core/errors.ts';
import { environmentFilename, type EnvironmentHost, type GuestEnvironment } from '../protocol/environment.ts';
import type { ValueOutcome } from '../core/explored.ts';
import { bundleGuestSync, type GuestBundleRequest } from '../sandbox/bundleGuest.ts';

/**
 * One environment as the `--emit`ted program names it: the request its bundle was built from (the
 * loader builds the same bundle again, from bundleGuest's cache), or, for a bundle made by other
 * means (a test's inline environment), its code.
 */
export type EmittedEnvironment =
  | { readonly name: string; readonly request: GuestBundleRequest }
  | { readonly name: string; readonly code: string };

/**
 * A top-level function of the snippet as the program sees it: its name, a getter for it (which
 * throws or gives undefined before its statement ran), and whether the run had called it before
 * the drivers ran.
 */
export type EmittedFunction = readonly [name: string, get: () => unknown, called: boolean];

export interface NodeEnvironmentOptions {
  /** The program's own module: only its `require` (and the injected table's fallback) gets the environments' modules. */
  readonly module: object;
  readonly environments: readonly EmittedEnvironment[];
  /** Per element id the environments asked for in the run, the value the run gave it (a definition of the program's prelude). */
  readonly values?: Readonly<Record<string, () => unknown>>;
  /** The other outcomes the run's exploration scenario asked of values (a file left missing), by element id. */
  readonly outcomes?: Readonly<Record<string, ValueOutcome>>;
}

/** What the program drives its environments with, after loading them. */
export interface NodeEnvironments {
  /** Where topLevelFunctions() reads the snippet's top-level functions from (set by the snippet's scope). */
  functions(list: () => readonly EmittedFunction[]): void;
  /** Runs the drivers the environments added (fire the listeners, call the handlers), in order; whether any ran (then the timers run again, as in the sandbox). */
  afterSnippet(): boolean;
  /** Runs the drivers once Node's event loop is empty (a program without the sandbox's clock has no `__snipexec_afterTimers`). */
  afterEventLoop(): void;
  /** The value an environment gave the global `name` (`__dirname`: `/app`), else the program's own. */
  moduleValue(name: string, own: unknown): unknown;
}

/** An environment the run loaded could not be loaded again by the program. */
export class EmittedEnvironmentFailed extends SnipexecError {
  constructor(message: string, options?: ErrorOptions) {
    super('EMITTED_ENVIRONMENT_FAILED', message, options);
  }
}

type Require = (this: unknown, id: unknown) => unknown;
// The method every module's `require` calls (`function require(id) { return mod.require(id); }`).
const modulePrototype = Module.prototype as unknown as { require: Require };
// Node's own process, taken before an environment replaces the global `process` with its model.
const nodeProcess = process;
const exitProcess = process.exit.bind(process);

/**
 * Loads the environments a run used into plain Node, for the `--emit`ted program: the same guest
 * bundles, each evaluated as `function (module, exports)` in a script named as in the sandbox
 * (`snipexec:env:<name>`), and its `setup(host)` called with a host that works on Node's own
 * global object. Globals are defined as the environment defines them (its model of `process` or
 * `Buffer` replaces Node's, since the run saw the model); the program's own `require`, `module`
 * and `exports` stay Node's (it is Node's main module: `require.main === module` holds), while
 * `__dirname` and `__filename` take the environment's values (moduleValue). Modules are what the
 * program's `require(spec)` returns. `exit` is Node's
 * `process.exit`; `isProbe` is always false (no recording proxies run here); `valueOf` answers
 * from the values the run gave.
 */
export function loadNodeEnvironments(options: NodeEnvironmentOptions): NodeEnvironments {
  const modules = new Map<string, unknown>();
  const loaders = new Map<string, () => unknown>();
  const drivers: { name: string; drive: () => unknown }[] = [];
  const known = new Map<string, unknown>();
  const globals = new Map<string, unknown>();
  let functions: () => readonly EmittedFunction[] = () => [];
  // The real process.nextTick, taken before the node environment defines its model as `process`.
  const realNextTick = process.nextTick.bind(process);
  const host: EnvironmentHost = Object.freeze({
    global: globalThis,
    nextTick(fn: (...args: never[]) => unknown, args: readonly unknown[]) {
      realNextTick(() => (fn as (...a: unknown[]) => unknown)(...args));
    },
    defineGlobal(name: string, value: unknown) {
      Object.defineProperty(globalThis, String(name), { value, writable: true, configurable: true, enumerable: false });
      globals.set(String(name), value);
    },
    defineModule(specifier: string, value: unknown) {
      modules.set(bareSpecifier(String(specifier)), value);
    },
    defineModuleLoader(specifier: string, load: () => unknown) {
      if (typeof load === 'function') loaders.set(String(specifier), load);
    },
    require(specifier: string) {
      return modulePrototype.require.call(options.module, specifier);
    },
    afterSnippet(name: string, drive: () => void) {
      if (typeof drive === 'function') drivers.push({ name: String(name), drive });
    },
    topLevelFunctions() {
      return functions().flatMap(([name, get, called]) => {
        const fn = valueOrUndefined(get);
        return typeof fn === 'function' ? [Object.freeze({ name, fn: fn as (...args: never[]) => unknown, called })] : [];
      });
    },
    exit(code: number): never {
      return exitProcess(typeof code === 'number' && code === code ? code : 0);
    },
    valueOf(id: string) {
      const key = String(id);
      if (!known.has(key)) known.set(key, options.values?.[key]?.());
      return known.get(key);
    },
    isProbe: () => false,
    outcomeOf: (id: string) => options.outcomes?.[String(id)],
  });
  hookRequire(options.module, modules, loaders, () => globals.get('require'));
  for (const env of options.environments) {
    try {
      const code = 'code' in env ? env.code : bundleGuestSync(env.request).code;
      const factory = runInThisContext(`(function (module, exports) {\n${code}\n})`, { filename: environmentFilename(env.name) }) as (m: { exports: unknown }, e: unknown) => void;
      const module = { exports: {} as unknown };
      factory.call(module.exports, module, module.exports);
      const setup = (module.exports as Partial<GuestEnvironment>).setup;
      if (typeof setup !== 'function') throw new Error('it exports no setup function');
      setup(host);
    } catch (error) {
      // The run loaded it (else the program would not name it): Node and the isolate differ here.
      throw new EmittedEnvironmentFailed(`environment ${env.name} could not be loaded: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return {
    functions(list) {
      functions = list;
    },
    afterSnippet() {
      for (const { drive } of drivers) drive(); // an error it lets escape ends the program, as it ended the run
      return drivers.length > 0;
    },
    moduleValue(name, own) {
      return globals.has(name) ? globals.get(name) : own;
    },
    afterEventLoop() {
      nodeProcess.once('beforeExit', () => void this.afterSnippet());
    },
  };
}

/** A `let`/`const` function read before its statement ran throws: it is not there yet. */
function valueOrUndefined(get: () => unknown): unknown {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/** `node:path` and `path` are the same module. */
function bareSpecifier(specifier: string): string {
  return specifier.startsWith('node:') ? specifier.slice(5) : specifier;
}

/**
 * The program's `require(spec)`, and only its own module's, looks up as the sandbox did: an
 * environment's module for the specifiers environments define; a project's own file at its first
 * require (defineModuleLoader); then the global `require` an
 * environment defined (Node's environment gives one, which answers with the values the run gave,
 * `require(file)` of a computed name included, and takes any value as the run's did), unless it
 * says MODULE_NOT_FOUND; then Node's own.
 */
function hookRequire(program: object, modules: Map<string, unknown>, loaders: Map<string, () => unknown>, environmentRequire: () => unknown): void {
  const original = modulePrototype.require;
  modulePrototype.require = function (this: unknown, id: unknown) {
    if (this === program) {
      if (typeof id === 'string' && modules.has(bareSpecifier(id))) return modules.get(bareSpecifier(id));
      const load = typeof id === 'string' ? loaders.get(id) : undefined;
      if (load !== undefined) {
        // A project's own file, loaded at its first require; one that fails to load is what the run gave in its place.
        loaders.delete(id as string);
        try {
          const value = load();
          modules.set(id as string, value);
          return value;
        } catch {
          // as in the sandbox: the module the environments' require gives
        }
      }
      const required = environmentRequire();
      if (typeof required === 'function') {
        try {
          return (required as (spec: unknown) => unknown)(id);
        } catch (error) {
          if ((error as { code?: unknown } | null)?.code !== 'MODULE_NOT_FOUND') throw error;
        }
      }
    }
    return original.call(this, id);
  };
}
