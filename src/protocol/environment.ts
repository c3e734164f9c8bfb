/**
 * The contract between the guest runtime and an environment (a browser, Node's built-ins, a
 * server framework, a bundled npm module). Imported by both sides; holds types only.
 *
 * An environment is a guest bundle evaluated in the context after the runtime and before the
 * snippet. Its entry module exports `setup(host)`; the runtime calls it with the host below, which
 * is reachable from nowhere else (no global names it).
 */

import type { ValueOutcome } from '../core/explored.ts';

/** What the runtime gives an environment's `setup`, inside the isolate. */
export interface EnvironmentHost {
  /** The context's global object (the snippet's `globalThis`). */
  readonly global: typeof globalThis;
  /** Defines a global the snippet reads: writable, configurable, not enumerable. */
  defineGlobal(name: string, value: unknown): void;
  /** `require(specifier)` and `import … from specifier` give this value; `node:x` and `x` are the same module. */
  defineModule(specifier: string, value: unknown): void;
  /**
   * `require(specifier)` and `import … from specifier` give what `load()` returns, called at the
   * first of them (a project's own file: its top level runs when the snippet loads it, as in
   * Node). When `load` throws, the module is what it would be without the loader (a learnt value).
   */
  defineModuleLoader(specifier: string, load: () => unknown): void;
  /** The module the snippet's own `require(specifier)` gives: an environment's, an installed one, else a learnt value. */
  require(specifier: string): unknown;
  /**
   * Called after the snippet ran and its timers settled, before the top-level functions nothing
   * called are driven (see topLevelFunctions), in the order added: fire the listeners it
   * registered, call the handlers it mounted.
   * What a driver queues (timers, promises) runs after it; an error it lets escape ends the run
   * as the snippet's uncaught error would.
   */
  afterSnippet(name: string, drive: () => void): void;
  /**
   * The functions the snippet declares at its top level, in source order, with whether anything
   * has called them yet (a React environment renders the components among them). A function an
   * environment's driver calls counts as called: the runtime does not call it again. Drivers run
   * before the runtime calls the top-level functions nothing called (`callUncalled`).
   */
  topLevelFunctions(): readonly { readonly name: string; readonly fn: (...args: never[]) => unknown; readonly called: boolean }[];
  /** Ends the run as completed, as `process.exit(code)` does: nothing after it runs. */
  exit(code: number): never;
  /**
   * The value the value generator gives the element `id` (for example `fetch("/api/users").json()`
   * or `req.params.id`), asked for as a missing global would be: a recording proxy in a learning
   * run of trace mode, a synthesized value after. `undefined` when the generator has none.
   * `reason` says why the value is needed, in the words of the error that would happen without it.
   */
  valueOf(id: string, reason: string): unknown;
  /**
   * The other outcome an exploration scenario asks of the value `id` (docs/internals/how-it-works.md "Explore"), if any:
   * `error` for a missing file's content (fileElementId) leaves the file missing, so reading it fails as Node's would.
   */
  outcomeOf(id: string): ValueOutcome | undefined;
  /** Whether v is a recording proxy of trace mode (its shape is still being learnt). */
  isProbe(v: unknown): boolean;
  /**
   * Queues fn(...args) as Node's process.nextTick: it runs when the current macrotask (the top
   * level, a timer, a driver) ends, before the promise jobs that macrotask queued.
   */
  nextTick(fn: (...args: never[]) => unknown, args: readonly unknown[]): void;
}

/** An environment's guest entry module. */
export interface GuestEnvironment {
  setup(host: EnvironmentHost): void;
}

/** The file name of an environment's script in the isolate: stack frames in it are the environment's. */
export function environmentFilename(name: string): string {
  return `snipexec:env:${name}`;
}
