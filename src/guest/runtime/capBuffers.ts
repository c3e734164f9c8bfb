/**
 * A resizable ArrayBuffer or growable SharedArrayBuffer counts what it has committed against the
 * memory budget: its length when made, resize/grow and transfer; past the budget they throw V8's
 * allocation RangeError.
 */
import { allocationFailed, releaseMemory, replaceBuiltin, reserveMemory, toIndex, wrapConstructor, wrapMethod } from './memoryBudget.ts';
import { rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, construct, G, getOwnPropertyDescriptor, MathMax, WM, wmGet, wmSet } from './primordials.ts';

/** A resizable or growable buffer made here -> the bytes it counts. */
const committed: WeakMap<object, number> = new WM();

/** Replaces Real (ArrayBuffer or SharedArrayBuffer) and its growName method (resize, grow) with counting ones. */
function capBuffer(Real: Dyn, growName: 'resize' | 'grow'): void {
  if (typeof Real !== 'function') return;
  const byteLength = (getOwnPropertyDescriptor(Real.prototype, 'byteLength') as PropertyDescriptor).get as () => number;
  const grow = Real.prototype[growName];
  let Wrapper: Dyn;
  function BufferImpl(length: unknown, options: Dyn): unknown {
    if (new.target === undefined) return apply(Real, undefined, [length, options]); // its TypeError
    const newTarget = new.target === Wrapper || new.target === BufferImpl ? Real : new.target;
    if ((typeof options !== 'object' || options === null) && typeof options !== 'function') return construct(Real, [length, options], newTarget);
    const n = toIndex(length);
    const max = options.maxByteLength;
    if (max === undefined) return construct(Real, [n], newTarget);
    const m = toIndex(max);
    if (n <= m && !reserveMemory(n)) throw allocationFailed();
    let buffer;
    try {
      buffer = construct(Real, [n, rec({ maxByteLength: m })], newTarget);
    } catch (e) {
      releaseMemory(n);
      throw e;
    }
    wmSet(committed, buffer, n);
    return buffer;
  }
  Wrapper = wrapConstructor(Real, BufferImpl, Real.name);
  replaceBuiltin(G, Real.name, Wrapper, Real.prototype);
  // Methods are written as method shorthands: they have no `prototype` that would lead to them.
  wrapMethod(
    Real.prototype,
    growName,
    {
      m(this: object, newLength: unknown) {
        const before = wmGet(committed, this) as number | undefined;
        if (before === undefined) return apply(grow, this, [newLength]); // not one of ours (a wasm memory's buffer): its memory's maximum holds it
        const n = toIndex(newLength);
        const current = apply(byteLength, this, []);
        if (n > current && n > before && !reserveMemory(n - before)) throw allocationFailed();
        try {
          apply(grow, this, [n]);
        } catch (e) {
          if (n > before) releaseMemory(n - before);
          throw e;
        }
        if (n < before) releaseMemory(before - n);
        wmSet(committed, this, n);
        return undefined;
      },
    }.m,
  );
  if (growName !== 'resize') return;
  // transfer() of a resizable buffer gives one with the same maximum: it counts as the old one did.
  const transfer = Real.prototype.transfer;
  const transferToFixed = Real.prototype.transferToFixedLength;
  const moved = (realFn: Dyn, keepResizable: boolean) =>
    ({
      m(this: object, newLength: unknown) {
        const before = wmGet(committed, this) as number | undefined;
        if (before === undefined) return apply(realFn, this, newLength === undefined ? [] : [newLength]);
        const n = newLength === undefined ? apply(byteLength, this, []) : toIndex(newLength);
        if (n > before && !reserveMemory(n - before)) throw allocationFailed();
        let out;
        try {
          out = apply(realFn, this, [n]);
        } catch (e) {
          if (n > before) releaseMemory(n - before);
          throw e;
        }
        wmSet(committed, this, 0);
        // The fixed-length one may keep the old backing store, uncounted by isolated-vm: it keeps its share.
        if (keepResizable) wmSet(committed, out, MathMax(n, before));
        else if (n < before) releaseMemory(before - n);
        return out;
      },
    }).m;
  if (typeof transfer === 'function') wrapMethod(Real.prototype, 'transfer', moved(transfer, true));
  if (typeof transferToFixed === 'function') wrapMethod(Real.prototype, 'transferToFixedLength', moved(transferToFixed, false));
}

export function capBuffers(): void {
  capBuffer(G.ArrayBuffer, 'resize');
  capBuffer(G.SharedArrayBuffer, 'grow');
}
