/**
 * The test-time side of the contract in callTrace.ts: generated tests call `registerTestHooks` before
 * they import the program, then mock program functions through `mocks()` and reach functions the
 * modules do not export through `reach(module)`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { callKey, CALLS_SYMBOL, MOCKS_SYMBOL, REACH_SYMBOL } from './callTrace.ts';
import { instrumentModule, type AnalysedFunction, type ModuleFormat } from './instrumentCalls.ts';
import { programDirectory, programModuleOf, registerProgramHooks } from './programHooks.ts';

/** A stand-in for a program function; typed loosely so any function can be set. */
export type MockFn = (this: never, ...args: never[]) => unknown;

const registered = new Set<string>();

/**
 * Instruments the program's own files under `programDir` (not `node_modules`; .js .cjs .mjs .ts .cts .mts)
 * as they load, by `require` or `import`: every mockable function first looks itself up in `mocks()`,
 * and every module publishes its top-level functions and classes for `reach`. Call it before the
 * program is imported (import the program with `await import()` after it). Calling it again for the
 * same directory does nothing. Lines do not move: stack traces keep the program's line numbers.
 */
export function registerTestHooks(programDir: string | URL): void {
  const dir = programDirectory(programDir);
  mocks();
  reachMap();
  callCounts();
  if (registered.has(dir)) return;
  registered.add(dir);
  registerProgramHooks(dir, (source, module, format) => {
    try {
      return instrumentModule(source, module, format, { kind: 'test' }).code;
    } catch {
      return undefined; // not parseable: Node reports the syntax error as plain `node` would
    }
  });
}

/**
 * The mocks Map (callKey → function). While a key is set, every call of that program function returns
 * what the mapped function returns, called with the same `this` and arguments.
 */
export function mocks(): Map<string, MockFn> {
  const g = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(MOCKS_SYMBOL);
  if (!(g[key] instanceof Map)) g[key] = new Map<string, MockFn>();
  return g[key] as Map<string, MockFn>;
}

/** How many times each anonymous or nested program function ran (callKey → count), since the hooks were registered. */
function callCounts(): Map<string, number> {
  const g = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(CALLS_SYMBOL);
  if (!(g[key] instanceof Map)) g[key] = new Map<string, number>();
  return g[key] as Map<string, number>;
}

function reachMap(): Map<string, Record<string, unknown>> {
  const g = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(REACH_SYMBOL);
  if (!(g[key] instanceof Map)) g[key] = new Map<string, Record<string, unknown>>();
  return g[key] as Map<string, Record<string, unknown>>;
}

/**
 * A module's top-level function and class declarations and top-level `const/let/var` function
 * bindings, by name (live: each property reads the binding). Throws when the module has not been
 * loaded through `registerTestHooks`.
 */
export function reach(module: string): Record<string, unknown> {
  const found = reachMap().get(module);
  if (found === undefined) {
    const loaded = [...reachMap().keys()];
    throw new Error(`reach: module '${module}' has not been loaded through registerTestHooks (call registerTestHooks(programDir) first, then import the program); loaded: ${loaded.length ? loaded.join(', ') : 'none'}`);
  }
  return found;
}

/** The functions of one program module as the hooks see them, with whether each can be mocked. */
export function moduleFunctions(programDir: string | URL, module: string): readonly AnalysedFunction[] {
  const dir = programDirectory(programDir);
  const file = join(dir, ...module.split('/'));
  const source = readFileSync(file, 'utf8');
  return instrumentModule(source, module, formatGuess(file), { kind: 'test' }).functions;
}

/**
 * The callKeys a generated test may set in `mocks()`: functions with a unique qualname in their
 * module whose arguments can be forwarded (not generators, not arrows with destructured parameters,
 * not constructors). `modules` limits the search; by default every program file under `programDir`.
 * A module that does not parse has none.
 */
export function mockableKeys(programDir: string | URL, modules?: readonly string[]): Set<string> {
  return functionKeys(programDir, modules).mockable;
}

/** The callKeys of the functions of these modules (by default every program file) that mockableKeys gives, and of those no other function of their module shares a qualname with. */
export function functionKeys(programDir: string | URL, modules?: readonly string[]): { readonly mockable: Set<string>; readonly unique: Set<string> } {
  const dir = programDirectory(programDir);
  const keys = { mockable: new Set<string>(), unique: new Set<string>() };
  for (const module of modules ?? programModules(dir)) {
    let functions: readonly AnalysedFunction[];
    try {
      functions = moduleFunctions(dir, module);
    } catch {
      continue;
    }
    for (const f of functions) {
      if (f.mockable) keys.mockable.add(callKey(f.module, f.qualname));
      if (f.unique) keys.unique.add(callKey(f.module, f.qualname));
    }
  }
  return keys;
}

/** The program's files under `dir`, skipping `node_modules` and dot folders. */
function programModules(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      const module = entry.isFile() ? programModuleOf(dir, path) : undefined;
      if (module !== undefined) out.push(module);
    }
  };
  walk(dir);
  return out.sort();
}

/** The format Node would give a file, near enough for parsing ('commonjs' parses as 'unambiguous': import/export make it a module). */
function formatGuess(file: string): ModuleFormat {
  const ext = extname(file);
  if (ext === '.mjs') return 'module';
  if (ext === '.mts') return 'module-typescript';
  return ext === '.ts' || ext === '.cts' ? 'commonjs-typescript' : 'commonjs';
}
