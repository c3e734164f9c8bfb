/**
 * Memory that isolated-vm's memoryLimit does not count, held to --memory here. isolated-vm counts
 * what its ArrayBuffer allocator hands out (fixed-length ArrayBuffers and SharedArrayBuffers) and
 * the heap; V8 reserves and commits WebAssembly memories and resizable or growable buffers itself,
 * past that allocator, so a `WebAssembly.Memory` could grow to gigabytes under `--memory 128`.
 * This is the budget they draw on, and the way their built-ins are replaced: the constructors and
 * methods the snippet sees are wrappers behind native() (their source is not shown).
 */
import { native } from './native.ts';
import { rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { defineProperty, getOwnPropertyDescriptor, MathMax, MathTrunc, ownKeys, RangeErrorCtor } from './primordials.ts';

export const WASM_PAGE = 65536;
let memoryBudget = 128 * 1024 * 1024;
let memoryUsed = 0;

export function setMemoryBudget(megabytes: number): void {
  memoryBudget = (typeof megabytes === 'number' && megabytes > 0 ? megabytes : 128) * 1024 * 1024;
}
/** The whole budget, in bytes. */
export const budgetBytes = (): number => memoryBudget;
/** What is left of the budget, in bytes. */
export const bytesLeft = (): number => memoryBudget - memoryUsed;
/** Takes n bytes of the budget; false when they do not fit. */
export function reserveMemory(n: number): boolean {
  if (!(n >= 0) || memoryUsed + n > memoryBudget) return false;
  memoryUsed += n;
  return true;
}
export const releaseMemory = (n: number): void => {
  memoryUsed = MathMax(0, memoryUsed - n);
};
export const allocationFailed = (): RangeError => new RangeErrorCtor('Array buffer allocation failed');
/** ToIndex as the built-ins apply it (a BigInt or symbol throws its TypeError here). */
export function toIndex(v: unknown): number {
  const n = MathTrunc(+(v as number));
  return n === n ? n : 0;
}

/** Puts a wrapper in place of a built-in: on its holder, and as its prototype's constructor. */
export function replaceBuiltin(holder: object, name: string, wrapper: unknown, prototype?: object): void {
  defineProperty(holder, name, rec({ value: wrapper, writable: true, enumerable: false, configurable: true }));
  if (prototype !== undefined) defineProperty(prototype, 'constructor', rec({ value: wrapper, writable: true, enumerable: false, configurable: true }));
}
/** impl as the constructor Real: its length, prototype and statics, behind native(). */
export function wrapConstructor(Real: Dyn, impl: Dyn, name: string): Dyn {
  defineProperty(impl, 'length', rec({ value: Real.length }));
  impl.prototype = Real.prototype;
  const statics = ownKeys(Real);
  for (let i = 0; i < statics.length; i++) {
    const k = statics[i];
    if (k === 'prototype' || k === 'length' || k === 'name') continue;
    const d = getOwnPropertyDescriptor(Real, k);
    if (d !== undefined) defineProperty(impl, k, d);
  }
  return native(impl, name);
}
/** Puts impl (a method shorthand: it has no `prototype`) in place of proto[name], as it was defined. */
export function wrapMethod(proto: object, name: string, impl: Dyn): void {
  const real = getOwnPropertyDescriptor(proto, name);
  if (real === undefined || typeof real.value !== 'function') return;
  defineProperty(impl, 'length', rec({ value: real.value.length }));
  defineProperty(proto, name, rec({ value: native(impl, name), writable: real.writable, enumerable: real.enumerable, configurable: real.configurable }));
}
