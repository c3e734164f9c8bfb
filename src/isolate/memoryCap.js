// Runs INSIDE the isolate, in the same closure as runtime.js (appended to it): memory that
// isolated-vm's memoryLimit does not count is held to --memory here. isolated-vm counts what its
// ArrayBuffer allocator hands out (fixed-length ArrayBuffers and SharedArrayBuffers) and the heap;
// V8 reserves and commits WebAssembly memories and resizable or growable buffers itself, past that
// allocator, so a `WebAssembly.Memory` could grow to gigabytes under `--memory 128`.
// - A WebAssembly memory's maximum is reserved from the budget when the memory is made: the one
//   `new WebAssembly.Memory` is given (clamped to what is left), and the one of each memory a module
//   defines itself (its memory section is rewritten with that maximum before V8 compiles it), which
//   `memory.grow` inside the module cannot pass. Growing past it fails as in a real engine: grow
//   throws a RangeError, `memory.grow` returns -1; an instance whose memories do not fit is refused
//   with V8's RangeError.
// - A resizable ArrayBuffer or growable SharedArrayBuffer counts what it has committed: its length
//   when made, resize/grow and transfer; past the budget they throw V8's allocation RangeError.
// The constructors and methods the snippet sees are these, behind native() (their source is not shown).

const memoryBudget = (typeof $3 === 'number' && $3 > 0 ? $3 : 128) * 1024 * 1024;
let memoryUsed = 0;
const WASM_PAGE = 65536;
/** Takes n bytes of the budget; false when they do not fit. */
function reserveMemory(n) {
  if (!(n >= 0) || memoryUsed + n > memoryBudget) return false;
  memoryUsed += n;
  return true;
}
const releaseMemory = (n) => { memoryUsed = MathMax(0, memoryUsed - n); };
const allocationFailed = () => new RangeErrorCtor('Array buffer allocation failed');
/** ToIndex as the built-ins apply it (a BigInt or symbol throws its TypeError here). */
function toIndex(v) {
  const n = MathTrunc(+v);
  return n === n ? n : 0;
}

/** Puts a wrapper in place of a built-in: on its holder, and as its prototype's constructor. */
function replaceBuiltin(holder, name, wrapper, prototype) {
  defineProperty(holder, name, { __proto__: null, value: wrapper, writable: true, enumerable: false, configurable: true });
  if (prototype !== undefined) defineProperty(prototype, 'constructor', { __proto__: null, value: wrapper, writable: true, enumerable: false, configurable: true });
}
function wrapConstructor(Real, impl, name) {
  defineProperty(impl, 'length', { __proto__: null, value: Real.length });
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
function wrapMethod(proto, name, impl) {
  const real = getOwnPropertyDescriptor(proto, name);
  if (real === undefined || typeof real.value !== 'function') return;
  defineProperty(impl, 'length', { __proto__: null, value: real.value.length });
  defineProperty(proto, name, { __proto__: null, value: native(impl, name), writable: real.writable, enumerable: real.enumerable, configurable: real.configurable });
}

// ---- resizable ArrayBuffer, growable SharedArrayBuffer ------------------------------------------
const committed = new WM(); // a resizable or growable buffer made here -> the bytes it counts
function capBuffer(Real, growName) {
  if (typeof Real !== 'function') return;
  const byteLength = getOwnPropertyDescriptor(Real.prototype, 'byteLength').get;
  const grow = Real.prototype[growName];
  let Wrapper;
  function BufferImpl(length, options) {
    if (new.target === undefined) return apply(Real, undefined, [length, options]); // its TypeError
    const newTarget = new.target === Wrapper || new.target === BufferImpl ? Real : new.target;
    if ((typeof options !== 'object' || options === null) && typeof options !== 'function') return construct(Real, [length, options], newTarget);
    const n = toIndex(length);
    const max = options.maxByteLength;
    if (max === undefined) return construct(Real, [n], newTarget);
    const m = toIndex(max);
    if (n <= m && !reserveMemory(n)) throw allocationFailed();
    let buffer;
    try { buffer = construct(Real, [n, { __proto__: null, maxByteLength: m }], newTarget); } catch (e) { releaseMemory(n); throw e; }
    apply(wmSet, committed, [buffer, n]);
    return buffer;
  }
  Wrapper = wrapConstructor(Real, BufferImpl, Real.name);
  replaceBuiltin(G, Real.name, Wrapper, Real.prototype);
  // Methods are written as method shorthands: they have no `prototype` that would lead to them.
  wrapMethod(Real.prototype, growName, { m(newLength) {
    const before = apply(wmGet, committed, [this]);
    if (before === undefined) return apply(grow, this, [newLength]); // not one of ours (a wasm memory's buffer): its memory's maximum holds it
    const n = toIndex(newLength);
    const current = apply(byteLength, this, []);
    if (n > current && n > before && !reserveMemory(n - before)) throw allocationFailed();
    try { apply(grow, this, [n]); } catch (e) { if (n > before) releaseMemory(n - before); throw e; }
    if (n < before) releaseMemory(before - n);
    apply(wmSet, committed, [this, n]);
  } }.m);
  if (growName !== 'resize') return;
  // transfer() of a resizable buffer gives one with the same maximum: it counts as the old one did.
  const transfer = Real.prototype.transfer, transferToFixed = Real.prototype.transferToFixedLength;
  const moved = (realFn, keepResizable) => ({ m(newLength) {
    const before = apply(wmGet, committed, [this]);
    if (before === undefined) return apply(realFn, this, newLength === undefined ? [] : [newLength]);
    const n = newLength === undefined ? apply(byteLength, this, []) : toIndex(newLength);
    if (n > before && !reserveMemory(n - before)) throw allocationFailed();
    let out;
    try { out = apply(realFn, this, [n]); } catch (e) { if (n > before) releaseMemory(n - before); throw e; }
    apply(wmSet, committed, [this, 0]);
    // The fixed-length one may keep the old backing store, uncounted by isolated-vm: it keeps its share.
    if (keepResizable) apply(wmSet, committed, [out, MathMax(n, before)]);
    else if (n < before) releaseMemory(before - n);
    return out;
  } }).m;
  if (typeof transfer === 'function') wrapMethod(Real.prototype, 'transfer', moved(transfer, true));
  if (typeof transferToFixed === 'function') wrapMethod(Real.prototype, 'transferToFixedLength', moved(transferToFixed, false));
}
capBuffer(G.ArrayBuffer, 'resize');
capBuffer(G.SharedArrayBuffer, 'grow');

// ---- WebAssembly ------------------------------------------------------------------------------
const WA = G.WebAssembly;
if (typeof WA === 'object' && WA !== null) capWebAssembly(WA);
function capWebAssembly(WA) {
  const RealMemory = WA.Memory, RealModule = WA.Module, RealInstance = WA.Instance;
  const realCompile = WA.compile, realInstantiate = WA.instantiate;
  const CompileErrorCtor = WA.CompileError;
  const Uint8ArrayCtor = Uint8Array, TypedArrayProto = getPrototypeOf(Uint8Array.prototype);
  const typedSet = TypedArrayProto.set;
  const viewBuffer = getOwnPropertyDescriptor(TypedArrayProto, 'buffer').get;
  const viewOffset = getOwnPropertyDescriptor(TypedArrayProto, 'byteOffset').get;
  const viewLength = getOwnPropertyDescriptor(TypedArrayProto, 'byteLength').get;
  const dataViewBuffer = getOwnPropertyDescriptor(DataView.prototype, 'buffer').get;
  const dataViewOffset = getOwnPropertyDescriptor(DataView.prototype, 'byteOffset').get;
  const dataViewLength = getOwnPropertyDescriptor(DataView.prototype, 'byteLength').get;
  const abLength = getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
  const promiseReject = Promise.reject;
  const budgetPages = MathTrunc(memoryBudget / WASM_PAGE);
  const modulePages = new WM(); // a module made here -> the pages its own memories may reach, per instance
  const refuseInstance = (where) => new RangeErrorCtor(`${where}: Out of memory: Cannot allocate Wasm memory for new instance`);

  /** A copy of the bytes of a BufferSource; undefined when it is none (the real function then says why). */
  function bytesOf(source) {
    let buffer, offset, length;
    try { buffer = apply(viewBuffer, source, []); offset = apply(viewOffset, source, []); length = apply(viewLength, source, []); } catch {
      try { buffer = apply(dataViewBuffer, source, []); offset = apply(dataViewOffset, source, []); length = apply(dataViewLength, source, []); } catch {
        buffer = source; offset = 0;
      }
    }
    try { if (length === undefined) length = apply(abLength, buffer, []); else apply(abLength, buffer, []); } catch { return undefined; } // not an ArrayBuffer (a shared one: refused by the real one)
    const copy = new Uint8ArrayCtor(length);
    apply(typedSet, copy, [new Uint8ArrayCtor(buffer, offset, length)]);
    return copy;
  }
  /** Reads an unsigned LEB128 at r.at (at most `bytes` bytes), as a number; undefined when malformed. */
  function leb(b, r, bytes) {
    let value = 0, scale = 1;
    for (let i = 0; i < bytes; i++) {
      if (r.at >= b.length) return undefined;
      const byte = b[r.at++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  }
  function lebBytes(n) {
    const out = list();
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
  function capModule(bytes) {
    const b = bytesOf(bytes);
    if (b === undefined || b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) return { __proto__: null, bytes, pages: 0 };
    const out = list();
    for (let i = 0; i < 8; i++) push(out, b[i]);
    const r = { __proto__: null, at: 8 };
    let pages = 0;
    while (r.at < b.length) {
      const id = b[r.at++];
      const size = leb(b, r, 5);
      if (size === undefined || r.at + size > b.length) return { __proto__: null, bytes, pages: 0 }; // malformed: V8 says so
      const start = r.at, end = r.at + size;
      if (id !== 5) {
        push(out, id);
        const sizeBytes = lebBytes(size);
        for (let i = 0; i < sizeBytes.length; i++) push(out, sizeBytes[i]);
        for (let i = start; i < end; i++) push(out, b[i]);
        r.at = end;
        continue;
      }
      const section = list();
      const count = leb(b, r, 5);
      if (count === undefined) return { __proto__: null, bytes, pages: 0 };
      const countBytes = lebBytes(count);
      for (let i = 0; i < countBytes.length; i++) push(section, countBytes[i]);
      for (let k = 0; k < count; k++) {
        if (r.at >= end) return { __proto__: null, bytes, pages: 0 };
        const flags = b[r.at++];
        if (flags > 7) throw new CompileErrorCtor('WebAssembly.Module(): snipexec: memory limits with a custom page size are not supported');
        const wide = (flags & 4) !== 0 ? 10 : 5;
        const min = leb(b, r, wide);
        const max = (flags & 1) !== 0 ? leb(b, r, wide) : Infinity;
        if (min === undefined || max === undefined) return { __proto__: null, bytes, pages: 0 };
        // A memory that cannot fit keeps a valid maximum (min); its instance is refused, as V8 refuses one it cannot allocate.
        const capped = MathMax(min, MathMin(max, budgetPages, (flags & 4) !== 0 ? budgetPages : 65536));
        pages += capped;
        push(section, flags | 1);
        const minBytes = lebBytes(min), maxBytes = lebBytes(capped);
        for (let i = 0; i < minBytes.length; i++) push(section, minBytes[i]);
        for (let i = 0; i < maxBytes.length; i++) push(section, maxBytes[i]);
      }
      if (r.at !== end) return { __proto__: null, bytes, pages: 0 };
      push(out, 5);
      const sizeBytes = lebBytes(section.length);
      for (let i = 0; i < sizeBytes.length; i++) push(out, sizeBytes[i]);
      for (let i = 0; i < section.length; i++) push(out, section[i]);
    }
    const result = new Uint8ArrayCtor(out.length);
    for (let i = 0; i < out.length; i++) result[i] = out[i];
    return { __proto__: null, bytes: result, pages };
  }
  /** Reserves what an instance of the module takes: the maxima of its own memories. */
  function reserveInstance(module, where) {
    const pages = apply(wmGet, modulePages, [module]);
    if (pages === undefined || pages === 0) return 0;
    if (!reserveMemory(pages * WASM_PAGE)) throw refuseInstance(where);
    return pages * WASM_PAGE;
  }
  const registered = (pages) => (module) => { apply(wmSet, modulePages, [module, pages]); return module; };
  /** p.then(ok) with the built-in then; a promise of the engine's. */
  function thenOf(p, ok) {
    defineProperty(p, 'constructor', { __proto__: null, value: SPECIES, configurable: true });
    return apply(promiseThen, p, [ok]);
  }
  const rejected = (e) => apply(promiseReject, PromiseCtor, [e]);

  let MemoryWrapper;
  function MemoryImpl(descriptor) {
    if (new.target === undefined) return apply(RealMemory, undefined, [descriptor]); // its TypeError
    const newTarget = new.target === MemoryWrapper || new.target === MemoryImpl ? RealMemory : new.target;
    if ((typeof descriptor !== 'object' || descriptor === null) && typeof descriptor !== 'function') return construct(RealMemory, [descriptor], newTarget);
    // Each member read once, in the order V8 reads them, and handed on as read.
    const d = { __proto__: null };
    let address = descriptor.address;
    if (address === undefined) address = descriptor.index;
    const wide = address === 'i64';
    const initial = descriptor.initial, maximum = descriptor.maximum, shared = descriptor.shared;
    if (address !== undefined) d.address = address;
    if (shared !== undefined) d.shared = shared;
    const number = (v) => (typeof v === 'bigint' ? NumberCtor(v) : +v);
    const min = initial === undefined ? undefined : number(initial);
    const max = maximum === undefined ? undefined : number(maximum);
    const valid = (n) => n >= 0 && n < Infinity;
    if (!valid(min) || (max !== undefined && !valid(max))) {
      // The real constructor refuses it (a missing or non-finite size): with the values as read.
      d.initial = initial;
      if (maximum !== undefined) d.maximum = maximum;
      return construct(RealMemory, [d], newTarget);
    }
    const low = MathTrunc(min), high = max === undefined ? Infinity : MathTrunc(max);
    const room = MathTrunc((memoryBudget - memoryUsed) / WASM_PAGE);
    if (low > room && low <= high) throw new RangeErrorCtor('WebAssembly.Memory(): could not allocate memory');
    const capped = MathMax(0, MathMin(high, room, wide ? room : 65536));
    d.initial = wide ? BigIntCtor(low) : low;
    d.maximum = wide ? BigIntCtor(capped) : capped;
    if (!reserveMemory(capped * WASM_PAGE)) throw new RangeErrorCtor('WebAssembly.Memory(): could not allocate memory');
    try { return construct(RealMemory, [d], newTarget); } catch (e) { releaseMemory(capped * WASM_PAGE); throw e; }
  }
  MemoryWrapper = wrapConstructor(RealMemory, MemoryImpl, 'Memory');
  replaceBuiltin(WA, 'Memory', MemoryWrapper, RealMemory.prototype);

  let ModuleWrapper;
  function ModuleImpl(bytes) {
    if (new.target === undefined) return apply(RealModule, undefined, [bytes]);
    const newTarget = new.target === ModuleWrapper || new.target === ModuleImpl ? RealModule : new.target;
    const capped = capModule(bytes);
    const module = construct(RealModule, [capped.bytes], newTarget);
    apply(wmSet, modulePages, [module, capped.pages]);
    return module;
  }
  ModuleWrapper = wrapConstructor(RealModule, ModuleImpl, 'Module');
  replaceBuiltin(WA, 'Module', ModuleWrapper, RealModule.prototype);

  let InstanceWrapper;
  function InstanceImpl(module, imports) {
    if (new.target === undefined) return apply(RealInstance, undefined, [module, imports]);
    const newTarget = new.target === InstanceWrapper || new.target === InstanceImpl ? RealInstance : new.target;
    const taken = reserveInstance(module, 'WebAssembly.Instance()');
    try { return construct(RealInstance, imports === undefined ? [module] : [module, imports], newTarget); } catch (e) { releaseMemory(taken); throw e; }
  }
  InstanceWrapper = wrapConstructor(RealInstance, InstanceImpl, 'Instance');
  replaceBuiltin(WA, 'Instance', InstanceWrapper, RealInstance.prototype);

  const { compile, instantiate } = {
  compile(bytes) {
    let capped;
    try { capped = capModule(bytes); } catch (e) { return rejected(e); }
    return thenOf(apply(realCompile, WA, [capped.bytes]), registered(capped.pages));
  },
  instantiate(source, imports) {
    const args = list();
    if (apply(wmHas, modulePages, [source])) {
      try { reserveInstance(source, 'WebAssembly.instantiate()'); } catch (e) { return rejected(e); }
      push(args, source);
      if (imports !== undefined) push(args, imports);
      return apply(realInstantiate, WA, args);
    }
    let capped;
    try {
      capped = capModule(source);
      if (capped.pages > 0 && !reserveMemory(capped.pages * WASM_PAGE)) throw refuseInstance('WebAssembly.instantiate()');
    } catch (e) {
      return rejected(e);
    }
    push(args, capped.bytes);
    if (imports !== undefined) push(args, imports);
    return thenOf(apply(realInstantiate, WA, args), (result) => { apply(wmSet, modulePages, [result.module, capped.pages]); return result; });
  },
  };
  defineProperty(WA, 'compile', { __proto__: null, value: native(compile), writable: true, enumerable: false, configurable: true });
  defineProperty(WA, 'instantiate', { __proto__: null, value: native(instantiate), writable: true, enumerable: false, configurable: true });
}
