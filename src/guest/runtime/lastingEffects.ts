/**
 * What a run did whose effects can outlive its context in the isolate, so the host runs no other
 * snippet in that isolate (src/sandbox/isolatePool.ts): the host reuses an isolate for a fresh
 * context of the next run, and contexts of one isolate share its task queue, its heap and the
 * memory V8 keeps outside it. A FinalizationRegistry's cleanups and a pending Atomics.waitAsync
 * run as the isolate's tasks (inside a later run); a WeakRef (and a registry) tells when the GC
 * ran, which earlier runs' garbage decides in a shared heap; a SharedArrayBuffer, a WebAssembly
 * memory and a module compiled asynchronously live outside the heap or settle through the
 * isolate's tasks.
 *
 * The built-ins that make them are replaced, when the runtime starts (before any environment,
 * prelude or snippet code runs), by proxies that note the use and then do as the built-in does.
 * The notes are in this module's closure: no code of the snippet's can reach or clear them; the
 * report carries them (RuntimeReport.tainted).
 */
import { list, push, rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, construct, defineProperty, G, getOwnPropertyDescriptor, ObjectFreeze, ownKeys, ProxyCtor, strSlice } from './primordials.ts';

const notes = list<string>();

/** Notes that the run used `what`, whose effects may outlive its context. */
export function taint(what: string): void {
  for (let i = 0; i < notes.length; i++) if (notes[i] === what) return;
  push(notes, what);
}

/** What the run used whose effects may outlive its context (empty when nothing). */
export function taints(): readonly string[] {
  return notes;
}

/**
 * The notes of work V8 finishes off the isolate's thread and settles through its task queue, which
 * a top level may await with no timer left: only the asynchronous compiles, not the synchronous
 * WebAssembly API (a Memory, a Module compiled at once), which settles nothing later.
 */
const BACKGROUND_WORK = ['WebAssembly.compile', 'WebAssembly.instantiate', 'WebAssembly.compileStreaming', 'WebAssembly.instantiateStreaming', 'Atomics.waitAsync'];

/** Whether the run started work that settles off the isolate's thread (BACKGROUND_WORK). */
export function startedBackgroundWork(): boolean {
  for (let i = 0; i < notes.length; i++) for (let j = 0; j < BACKGROUND_WORK.length; j++) if (notes[i] === BACKGROUND_WORK[j]) return true;
  return false;
}

/**
 * fn as a proxy that notes `what` whenever it is called or constructed, then calls or constructs
 * fn as it was (a subclass's `new.target` is kept; the proxy's own is fn's). Its handler has no
 * prototype, so nothing put on Object.prototype becomes a trap.
 */
function marked(fn: Dyn, what: string): Dyn {
  let proxy: Dyn;
  const handler = ObjectFreeze(
    rec({
      apply(target: Dyn, self: unknown, args: unknown[]): unknown {
        taint(what);
        return apply(target, self, args);
      },
      construct(target: Dyn, args: unknown[], newTarget: Dyn): object {
        taint(what);
        return construct(target, args, newTarget === proxy ? target : newTarget);
      },
    }),
  );
  proxy = new ProxyCtor(fn, handler);
  return proxy;
}

/** Replaces holder[name] (a function) by its marking proxy, as it was defined; and, for a constructor, its prototype's constructor, which leads back to it. */
function mark(holder: Dyn, name: PropertyKey, what: string): void {
  const d = getOwnPropertyDescriptor(holder, name);
  if (d === undefined || typeof d.value !== 'function') return;
  const proxy = marked(d.value, what);
  defineProperty(holder, name, rec({ value: proxy, writable: d.writable, enumerable: d.enumerable, configurable: d.configurable }));
  const proto = getOwnPropertyDescriptor(d.value, 'prototype');
  if (proto !== undefined && typeof proto.value === 'object' && proto.value !== null) {
    const c = getOwnPropertyDescriptor(proto.value, 'constructor');
    if (c !== undefined && c.value === d.value) defineProperty(proto.value, 'constructor', rec({ value: proxy, writable: c.writable, enumerable: c.enumerable, configurable: c.configurable }));
  }
}

/**
 * Installs the marks; after the memory cap (installMemoryCap), whose wrappers they then wrap.
 * WebAssembly's error classes make no lasting effect and stay as they are.
 */
export function watchLastingEffects(): void {
  // The methods, not the constructors: a registry's cleanups are for what was registered, and a WeakRef tells of the GC only
  // through deref. Their prototypes are also those of constructors an environment's module captured in the startup snapshot.
  const registry = G.FinalizationRegistry;
  if (typeof registry === 'function') mark(registry.prototype, 'register', 'FinalizationRegistry');
  const weakRef = G.WeakRef;
  if (typeof weakRef === 'function') mark(weakRef.prototype, 'deref', 'WeakRef');
  mark(G, 'SharedArrayBuffer', 'SharedArrayBuffer');
  const atomics = G.Atomics;
  if (typeof atomics === 'object' && atomics !== null) {
    mark(atomics, 'wait', 'Atomics.wait');
    mark(atomics, 'waitAsync', 'Atomics.waitAsync');
  }
  const WA = G.WebAssembly;
  if (typeof WA !== 'object' || WA === null) return;
  const names = ownKeys(WA);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (typeof name !== 'string' || (name.length > 5 && apply(strSlice, name, [-5]) === 'Error')) continue;
    mark(WA, name, `WebAssembly.${name}`);
  }
}
