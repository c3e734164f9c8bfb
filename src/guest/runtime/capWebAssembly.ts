/**
 * WebAssembly memory held to the memory budget. A memory's maximum is reserved when the memory is
 * made: the one `new WebAssembly.Memory` is given (clamped to what is left), and the one of each
 * memory a module defines itself (its memory section is rewritten with that maximum before V8
 * compiles it), which `memory.grow` inside the module cannot pass. Growing past it fails as in a
 * real engine: grow throws a RangeError, `memory.grow` returns -1; an instance whose memories do
 * not fit is refused with V8's RangeError.
 */
import { budgetBytes, bytesLeft, releaseMemory, replaceBuiltin, reserveMemory, WASM_PAGE, wrapConstructor } from './memoryBudget.ts';
import { native, ownSpecies } from './native.ts';
import { list, push, rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, BigIntCtor, construct, defineProperty, getOwnPropertyDescriptor, getPrototypeOf, MathMax, MathMin, MathTrunc, NumberCtor, PromiseCtor, promiseReject, promiseThen, RangeErrorCtor, WM, wmGet, wmHas, wmSet } from './primordials.ts';

const getter = (o: object, k: string): (() => unknown) => (getOwnPropertyDescriptor(o, k) as PropertyDescriptor).get as () => unknown;

/** A module's bytes with its memories' maxima capped, and the pages those maxima add up to. */
interface CappedModule {
  readonly bytes: unknown;
  readonly pages: number;
}

export function capWebAssembly(WA: Dyn): void {
  const RealMemory = WA.Memory;
  const RealModule = WA.Module;
  const RealInstance = WA.Instance;
  const realCompile = WA.compile;
  const realInstantiate = WA.instantiate;
  const CompileErrorCtor = WA.CompileError;
  const Uint8ArrayCtor = Uint8Array;
  const TypedArrayProto = getPrototypeOf(Uint8Array.prototype) as object;
  const typedSet = (TypedArrayProto as Dyn).set;
  const viewBuffer = getter(TypedArrayProto, 'buffer');
  const viewOffset = getter(TypedArrayProto, 'byteOffset');
  const viewLength = getter(TypedArrayProto, 'byteLength');
  const abLength = getter(ArrayBuffer.prototype, 'byteLength');
  /** The budget in Wasm pages, read when used: the run's `start` sets the budget after this is installed. */
  const budgetPages = () => MathTrunc(budgetBytes() / WASM_PAGE);
  /** A module made here -> the pages its own memories may reach, per instance. */
  const modulePages: WeakMap<object, number> = new WM();
  const refuseInstance = (where: string) => new RangeErrorCtor(`${where}: Out of memory: Cannot allocate Wasm memory for new instance`);

  /**
   * A copy of the bytes V8 compiles from `source`, taken once (later writes to a shared buffer cannot
   * reach what is compiled); undefined for what V8 refuses as bytes (a DataView, a bare
   * SharedArrayBuffer, anything else), which the real function is then handed to refuse. A typed
   * array over a SharedArrayBuffer is bytes to V8: it is copied and capped like any other.
   */
  function bytesOf(source: unknown): Uint8Array | undefined {
    let buffer: Dyn;
    let offset: Dyn;
    let length: Dyn;
    try {
      buffer = apply(viewBuffer, source, []);
      offset = apply(viewOffset, source, []);
      length = apply(viewLength, source, []);
    } catch {
      try {
        length = apply(abLength, source, []);
      } catch {
        return undefined; // not a typed array, not an ArrayBuffer
      }
      buffer = source;
      offset = 0;
    }
    const copy = new Uint8ArrayCtor(length);
    apply(typedSet, copy, [new Uint8ArrayCtor(buffer, offset, length)]);
    return copy;
  }
  /** Reads an unsigned LEB128 at r.at (at most `bytes` bytes), as a number; undefined when malformed. */
  function leb(b: Uint8Array, r: { at: number }, bytes: number): number | undefined {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < bytes; i++) {
      if (r.at >= b.length) return undefined;
      const byte = b[r.at++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  }
  function lebBytes(n: number): number[] {
    const out = list<number>();
    do {
      let byte = n % 128;
      n = MathTrunc(n / 128);
      if (n > 0) byte |= 0x80;
      push(out, byte);
    } while (n > 0);
    return out;
  }
  /**
   * The module's bytes with each memory it defines given a maximum within the budget, and the pages
   * those maxima add up to. Bytes that are no module are handed on as they are: V8 refuses them.
   */
  function capModule(bytes: unknown): CappedModule {
    const b = bytesOf(bytes);
    if (b === undefined || b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) return rec({ bytes, pages: 0 });
    const out = list<number>();
    for (let i = 0; i < 8; i++) push(out, b[i]);
    const r = rec({ at: 8 });
    let pages = 0;
    while (r.at < b.length) {
      const id = b[r.at++];
      const size = leb(b, r, 5);
      if (size === undefined || r.at + size > b.length) return rec({ bytes, pages: 0 }); // malformed: V8 says so
      const start = r.at;
      const end = r.at + size;
      if (id !== 5) {
        push(out, id);
        const sizeBytes = lebBytes(size);
        for (let i = 0; i < sizeBytes.length; i++) push(out, sizeBytes[i]);
        for (let i = start; i < end; i++) push(out, b[i]);
        r.at = end;
        continue;
      }
      const section = list<number>();
      const count = leb(b, r, 5);
      if (count === undefined) return rec({ bytes, pages: 0 });
      const countBytes = lebBytes(count);
      for (let i = 0; i < countBytes.length; i++) push(section, countBytes[i]);
      for (let k = 0; k < count; k++) {
        if (r.at >= end) return rec({ bytes, pages: 0 });
        const flags = b[r.at++];
        if (flags > 7) throw new CompileErrorCtor('WebAssembly.Module(): snipexec: memory limits with a custom page size are not supported');
        const wide = (flags & 4) !== 0 ? 10 : 5;
        const min = leb(b, r, wide);
        const max = (flags & 1) !== 0 ? leb(b, r, wide) : Infinity;
        if (min === undefined || max === undefined) return rec({ bytes, pages: 0 });
        // A memory that cannot fit keeps a valid maximum (min); its instance is refused, as V8 refuses one it cannot allocate.
        const budget = budgetPages();
        const capped = MathMax(min, MathMin(max, budget, (flags & 4) !== 0 ? budget : 65536));
        pages += capped;
        push(section, flags | 1);
        const minBytes = lebBytes(min);
        const maxBytes = lebBytes(capped);
        for (let i = 0; i < minBytes.length; i++) push(section, minBytes[i]);
        for (let i = 0; i < maxBytes.length; i++) push(section, maxBytes[i]);
      }
      if (r.at !== end) return rec({ bytes, pages: 0 });
      push(out, 5);
      const sizeBytes = lebBytes(section.length);
      for (let i = 0; i < sizeBytes.length; i++) push(out, sizeBytes[i]);
      for (let i = 0; i < section.length; i++) push(out, section[i]);
    }
    const result = new Uint8ArrayCtor(out.length);
    for (let i = 0; i < out.length; i++) result[i] = out[i];
    return rec({ bytes: result, pages });
  }
  /** Reserves what an instance of the module takes: the maxima of its own memories. */
  function reserveInstance(module: object, where: string): number {
    const pages = wmGet(modulePages, module) as number | undefined;
    if (pages === undefined || pages === 0) return 0;
    if (!reserveMemory(pages * WASM_PAGE)) throw refuseInstance(where);
    return pages * WASM_PAGE;
  }
  const registered = (pages: number) => (module: object) => {
    wmSet(modulePages, module, pages);
    return module;
  };
  /** p.then(ok) with the built-in then; a promise of the engine's. */
  function thenOf(p: Promise<unknown>, ok: (v: Dyn) => unknown): Promise<unknown> {
    ownSpecies(p);
    return apply(promiseThen, p, [ok]);
  }
  const rejected = (e: unknown): Promise<never> => apply(promiseReject, PromiseCtor, [e]);

  let MemoryWrapper: Dyn;
  function MemoryImpl(descriptor: Dyn): unknown {
    if (new.target === undefined) return apply(RealMemory, undefined, [descriptor]); // its TypeError
    const newTarget = new.target === MemoryWrapper || new.target === MemoryImpl ? RealMemory : new.target;
    if ((typeof descriptor !== 'object' || descriptor === null) && typeof descriptor !== 'function') return construct(RealMemory, [descriptor], newTarget);
    // Each member read once, in the order V8 reads them, and handed on as read.
    const d: Dyn = rec({});
    let address = descriptor.address;
    if (address === undefined) address = descriptor.index;
    const wide = address === 'i64';
    const initial = descriptor.initial;
    const maximum = descriptor.maximum;
    const shared = descriptor.shared;
    if (address !== undefined) d.address = address;
    if (shared !== undefined) d.shared = shared;
    const number = (v: unknown): number => (typeof v === 'bigint' ? NumberCtor(v) : +(v as number));
    const min = initial === undefined ? undefined : number(initial);
    const max = maximum === undefined ? undefined : number(maximum);
    const valid = (n: number | undefined): n is number => (n as number) >= 0 && (n as number) < Infinity;
    if (!valid(min) || (max !== undefined && !valid(max))) {
      // The real constructor refuses it (a missing or non-finite size): with the values as read.
      d.initial = initial;
      if (maximum !== undefined) d.maximum = maximum;
      return construct(RealMemory, [d], newTarget);
    }
    const low = MathTrunc(min);
    const high = max === undefined ? Infinity : MathTrunc(max);
    const room = MathTrunc(bytesLeft() / WASM_PAGE);
    if (low > room && low <= high) throw new RangeErrorCtor('WebAssembly.Memory(): could not allocate memory');
    const capped = MathMax(0, MathMin(high, room, wide ? room : 65536));
    d.initial = wide ? BigIntCtor(low) : low;
    d.maximum = wide ? BigIntCtor(capped) : capped;
    if (!reserveMemory(capped * WASM_PAGE)) throw new RangeErrorCtor('WebAssembly.Memory(): could not allocate memory');
    try {
      return construct(RealMemory, [d], newTarget);
    } catch (e) {
      releaseMemory(capped * WASM_PAGE);
      throw e;
    }
  }
  MemoryWrapper = wrapConstructor(RealMemory, MemoryImpl, 'Memory');
  replaceBuiltin(WA, 'Memory', MemoryWrapper, RealMemory.prototype);

  let ModuleWrapper: Dyn;
  function ModuleImpl(bytes: unknown): unknown {
    if (new.target === undefined) return apply(RealModule, undefined, [bytes]);
    const newTarget = new.target === ModuleWrapper || new.target === ModuleImpl ? RealModule : new.target;
    const capped = capModule(bytes);
    const module = construct(RealModule, [capped.bytes], newTarget);
    wmSet(modulePages, module, capped.pages);
    return module;
  }
  ModuleWrapper = wrapConstructor(RealModule, ModuleImpl, 'Module');
  replaceBuiltin(WA, 'Module', ModuleWrapper, RealModule.prototype);

  let InstanceWrapper: Dyn;
  function InstanceImpl(module: Dyn, imports: unknown): unknown {
    if (new.target === undefined) return apply(RealInstance, undefined, [module, imports]);
    const newTarget = new.target === InstanceWrapper || new.target === InstanceImpl ? RealInstance : new.target;
    const taken = reserveInstance(module, 'WebAssembly.Instance()');
    try {
      return construct(RealInstance, imports === undefined ? [module] : [module, imports], newTarget);
    } catch (e) {
      releaseMemory(taken);
      throw e;
    }
  }
  InstanceWrapper = wrapConstructor(RealInstance, InstanceImpl, 'Instance');
  replaceBuiltin(WA, 'Instance', InstanceWrapper, RealInstance.prototype);

  // Method shorthands: they have no `prototype` that would lead back to them.
  const { compile, instantiate } = {
    compile(bytes: unknown): Promise<unknown> {
      let capped: CappedModule;
      try {
        capped = capModule(bytes);
      } catch (e) {
        return rejected(e);
      }
      return thenOf(apply(realCompile, WA, [capped.bytes]), registered(capped.pages));
    },
    instantiate(source: Dyn, imports: unknown): Promise<unknown> {
      const args = list<unknown>();
      if (wmHas(modulePages, source)) {
        try {
          reserveInstance(source, 'WebAssembly.instantiate()');
        } catch (e) {
          return rejected(e);
        }
        push(args, source);
        if (imports !== undefined) push(args, imports);
        return apply(realInstantiate, WA, args);
      }
      let capped: CappedModule;
      try {
        capped = capModule(source);
        if (capped.pages > 0 && !reserveMemory(capped.pages * WASM_PAGE)) throw refuseInstance('WebAssembly.instantiate()');
      } catch (e) {
        return rejected(e);
      }
      push(args, capped.bytes);
      if (imports !== undefined) push(args, imports);
      return thenOf(apply(realInstantiate, WA, args), (result: Dyn) => {
        wmSet(modulePages, result.module, capped.pages);
        return result;
      });
    },
  };
  defineProperty(WA, 'compile', rec({ value: native(compile), writable: true, enumerable: false, configurable: true }));
  defineProperty(WA, 'instantiate', rec({ value: native(instantiate), writable: true, enumerable: false, configurable: true }));
}
