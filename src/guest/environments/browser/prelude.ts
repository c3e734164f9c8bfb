/**
 * Runs before linkedom's modules are evaluated (import it first): linkedom's entity decoder needs
 * `atob` while it loads, and its canvas module tries `require('canvas')`, which must not reach the
 * runtime's module loader (it falls back to its own shim when require fails). Both are undone by
 * `restoreGlobals`, called once linkedom has loaded.
 */
import { atob } from './base64.ts';

const G = globalThis as unknown as Record<string, unknown>;
const saved = new Map<string, PropertyDescriptor | undefined>();
for (const [name, value] of [['atob', atob], ['require', undefined]] as const) {
  saved.set(name, Object.getOwnPropertyDescriptor(G, name));
  // Defined whether or not an earlier environment has one (node's): reading it would make the module
  // load differently after node, which keeps it out of a startup snapshot (environmentProbe.ts).
  Object.defineProperty(G, name, { value, writable: true, configurable: true });
}

/** Puts back `atob` and `require` as they were before linkedom loaded. */
export function restoreGlobals(): void {
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(G, name, descriptor);
    else delete G[name];
  }
  saved.clear();
}
