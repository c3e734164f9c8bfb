// Runs INSIDE the isolate, in the same closure as runtime.js (appended to it): the recording
// proxies of trace mode. A probe stands for a missing element during a learning run. It lets the
// code go on and records every operation performed on it; each property read, call result,
// awaited value, element or callback argument is a child probe with a trace of its own. The host
// synthesises concrete values from the traces; probes never appear in a measured run.

const fnToString = Function.prototype.toString, getOwnDescriptor = Reflect.getOwnPropertyDescriptor; // isArray comes from runtime.js, which shares this closure
const promiseResolve = Promise.resolve, promiseFinally = Promise.prototype.finally, strTrim = String.prototype.trim;
const mathMax = MathMax; // PromiseCtor, promiseThen, ProxyCtor, MathMax: runtime.js
const MAX_TRACES = 2000;
const MAX_LIST = 8;
const MAX_PROBE_OPS = 100000;
const MAX_TRUE_COMPARISONS = 2;
// Iterations of one loop entry that recording proxies may keep going (runtime.js `lt`), whatever they answer.
const MAX_PROBED_ITERATIONS = 3;
const traces = ObjectCreate(null); // element id -> trace record (plain JSON data)
const probes = ObjectCreate(null); // element id -> its probe in this run
const probeInfo = new WM(); // probe -> { id, parent, key, written }
let traceCount = 0;
let probeOps = 0;

// How callbacks run: the host's conventions (src/values/trace/callbackConventions.ts), via the config.
const ELEMENT_CALLBACKS = ObjectCreate(null), SYNC_CALLBACKS = ObjectCreate(null);
for (let i = 0; i < config.callbacks.elementWise.length; i++) ELEMENT_CALLBACKS[config.callbacks.elementWise[i]] = 1;
for (let i = 0; i < config.callbacks.sync.length; i++) SYNC_CALLBACKS[config.callbacks.sync[i]] = 1;
const ERROR_FIRST = new RegExp(config.callbacks.errorFirst, 'i'), ERROR_ONLY = new RegExp(config.callbacks.errorOnly, 'i');
const EVENT_METHODS = ObjectCreate(null);
for (let i = 0; i < config.callbacks.eventMethods.length; i++) EVENT_METHODS[config.callbacks.eventMethods[i]] = 1;
/** Node's error-first convention (callbackConventions.ts): whether the callback's first parameter is an error, null when none happened. */
function errorFirst(names, params, method) {
  if (method !== undefined && EVENT_METHODS[method] === 1) return false; // an event handler's parameter is an event
  return mathMax(params, names.length) >= 2 ? test(ERROR_FIRST, names[0] || '') : test(ERROR_ONLY, names[0] || '');
}
const ERROR_HANDLER = /^(on)?(error|fail|failure|reject|rejected|catch)$/i;

function isProbe(v) {
  return typeof v === 'function' && apply(wmHas, probeInfo, [v]);
}
function probeId(v) {
  return apply(wmGet, probeInfo, [v]).id;
}
function traceOf(id) {
  let t = traces[id];
  if (t === undefined) {
    t = { __proto__: null, id };
    if (traceCount < MAX_TRACES) { traces[id] = t; traceCount++; }
  }
  return t;
}
function spend() {
  if (++probeOps > MAX_PROBE_OPS) {
    state.stopped = true;
    throw new ErrorCtor('snipexec: learning budget exhausted');
  }
}
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return toJson(a) === toJson(b);
}
/** Adds a value to one of a trace's lists, once, up to MAX_LIST entries. */
function note(t, field, value) {
  const values = t[field] || (t[field] = list());
  for (let i = 0; i < values.length; i++) if (same(values[i], value)) return;
  if (values.length < MAX_LIST) push(values, value);
}
function kindOf(v) {
  if (isProbe(v)) return 'probe';
  if (v === null) return 'null';
  if (isArray(v)) return 'array';
  return typeof v;
}
function primitiveOf(v) {
  const k = typeof v;
  if (v === null || k === 'string' || k === 'boolean') return typeof v === 'string' ? cut(v, 200) : v;
  if (k === 'number') return v === v && v !== Infinity && v !== -Infinity ? v : null;
  return undefined;
}
function leafName(id) {
  const m = exec(/([A-Za-z_$][\w$]*)[^\w$]*$/, id);
  return m ? m[1] : 'value';
}
function standIn(id, hint) {
  return hint === 'number' ? 1 : leafName(id);
}

/** The probe of an element: one per id and run, so a function's result is the same each call. */
function probeFor(id, parent, key) {
  const existing = probes[id];
  if (existing !== undefined) return existing;
  const t = traceOf(id);
  if (parent !== undefined && t.parent === undefined) t.parent = parent;
  if (key !== undefined && t.key === undefined) t.key = key;
  const info = { __proto__: null, id, parent, key, written: ObjectCreate(null), compares: 0 };
  const target = function () {};
  const proxy = new ProxyCtor(target, {
    __proto__: null,
    get(_, k) {
      spend();
      if (typeof k === 'symbol') {
        if (k === symToPrimitive) return (hint) => { note(t, 'hints', hint); return standIn(id, hint); };
        if (k === INSPECT_CUSTOM) return () => `[${leafName(id)}]`; // console.log prints a probe by name, reading nothing
        // Two elements: enough for a pair pattern, and for a loop body to run twice.
        if (k === symIterator) { t.iterated = true; return function* () { yield child(proxy, `${id}[0]`, '0'); yield child(proxy, `${id}[1]`, '1'); }; }
        if (k === symAsyncIterator) { t.iterated = true; t.asyncIterated = true; return async function* () { yield child(proxy, `${id}[0]`, '0'); yield child(proxy, `${id}[1]`, '1'); }; }
        return undefined;
      }
      if (k in info.written) return info.written[k];
      // Not thenable for the engine: only an explicit `.then(…)` in the snippet makes a promise.
      if (k === 'then' || k === 'toJSON') return undefined;
      note(t, 'reads', k);
      return child(proxy, childId(id, k), k);
    },
    set(_, k, v) {
      spend();
      if (typeof k !== 'symbol') { info.written[k] = v; note(t, 'writes', k); }
      return true;
    },
    has(_, k) {
      spend();
      if (typeof k !== 'symbol') note(t, 'has', k);
      return typeof k !== 'symbol';
    },
    deleteProperty(_, k) { if (typeof k !== 'symbol') delete info.written[k]; return true; },
    defineProperty(_, k, d) { if (typeof k !== 'symbol' && 'value' in d) { info.written[k] = d.value; note(t, 'writes', k); } return true; },
    getOwnPropertyDescriptor(tgt, k) { return getOwnDescriptor(tgt, k); },
    ownKeys(tgt) { t.keysListed = true; return ownKeys(tgt); },
    getPrototypeOf(tgt) { t.protoRead = true; return getPrototypeOf(tgt); },
    apply(_, self, args) {
      spend();
      t.called = (t.called || 0) + 1;
      const callbacks = recordCall(t, 'calls', args);
      runCallbacks(proxy, info, callbacks, args);
      return child(proxy, `${id}()`, undefined);
    },
    construct(_, args) {
      spend();
      t.constructed = (t.constructed || 0) + 1;
      const callbacks = recordCall(t, 'constructs', args);
      runCallbacks(proxy, info, callbacks, args);
      return child(proxy, `new ${id}`, undefined);
    },
  });
  apply(wmSet, probeInfo, [proxy, info]);
  apply(wmSet, owner, [proxy, id]);
  probes[id] = proxy;
  return proxy;
}
function child(parentProbe, id, key) {
  return probeFor(id, probeId(parentProbe), key);
}

/** Parameter names of a callback, read off its source; [] when they are not plain names. */
function paramNames(fn) {
  let src;
  try { src = apply(fnToString, fn, []); } catch { return []; }
  const m = exec(/^(?:async\s*)?(?:function\s*\*?\s*[\w$]*\s*)?\(([^)]*)\)/, src) || exec(/^(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/, src);
  const names = list();
  if (!m || apply(strTrim, m[1], []) === '') return names;
  const parts = splitOn(m[1], ',');
  for (let i = 0; i < parts.length && i < 8; i++) {
    let p = parts[i];
    const eq = apply(strIndexOf, p, ['=']);
    if (eq >= 0) p = apply(strSlice, p, [0, eq]);
    p = apply(strTrim, p, []);
    push(names, test(/^[A-Za-z_$][\w$]*$/, p) ? p : '');
  }
  return names;
}

/** Records the arguments of a call or `new`; returns the callbacks among them. */
function recordCall(t, field, args) {
  const call = { __proto__: null, argc: args.length, args: list(), values: list(), callbacks: list() };
  for (let i = 0; i < args.length && i < 8; i++) {
    const a = args[i];
    push(call.args, kindOf(a));
    const p = primitiveOf(a);
    push(call.values, p === undefined ? null : p);
    if (isProbe(a)) { note(t, 'argProbes', probeId(a)); continue; }
    if (typeof a === 'function') { const names = paramNames(a); push(call.callbacks, { __proto__: null, index: i, params: a.length, names, errorFirst: errorFirst(names, a.length, t.key) }); }
    else if (a !== null && typeof a === 'object' && !isArray(a)) {
      const keys = ownKeys(a);
      for (let k = 0; k < keys.length && k < 16; k++) {
        const key = keys[k];
        if (typeof key !== 'string' || test(ERROR_HANDLER, key)) continue;
        let v;
        try { v = a[key]; } catch { continue; }
        if (typeof v === 'function' && !isProbe(v)) { const names = paramNames(v); push(call.callbacks, { __proto__: null, index: i, prop: key, params: v.length, names, errorFirst: errorFirst(names, v.length, t.key) }); }
      }
    }
  }
  note(t, field, call);
  return call.callbacks;
}

function isClass(fn) {
  try { return apply(strSlice, apply(fnToString, fn, []), [0, 5]) === 'class'; } catch { return false; }
}

/** Calls the callbacks a probe was given, with probes for their arguments, as the real API would. */
function runCallbacks(proxy, info, callbacks, args) {
  const key = info.key;
  const parent = info.parent !== undefined ? probes[info.parent] : undefined;
  const elementWise = key !== undefined && ELEMENT_CALLBACKS[key] === 1 && parent !== undefined;
  const sync = elementWise || (key !== undefined && SYNC_CALLBACKS[key] === 1);
  for (let c = 0; c < callbacks.length; c++) {
    const cb = callbacks[c];
    const fn = cb.prop === undefined ? args[cb.index] : args[cb.index][cb.prop];
    if (isClass(fn)) continue; // a class handed over is not a callback
    const base = `${info.id}#cb${cb.index}${cb.prop === undefined ? '' : '.' + cb.prop}`;
    const n = mathMax(cb.params, cb.names.length);
    const cbArgs = list();
    for (let k = 0; k < n; k++) {
      if (k === 0 && cb.errorFirst) push(cbArgs, null);
      else if (elementWise && k === 0) push(cbArgs, child(parent, `${info.parent}[0]`, '0'));
      else if (elementWise && k === 1) push(cbArgs, 0);
      else if (elementWise && k === 2) push(cbArgs, parent);
      else {
        const arg = probeFor(`${base}#arg${k}`, undefined, undefined);
        const at = traceOf(`${base}#arg${k}`);
        if (cb.names[k] && at.name === undefined) at.name = cb.names[k];
        push(cbArgs, arg);
      }
    }
    if (key === 'reduce' && parent !== undefined) {
      put(cbArgs, 0, args.length > 1 ? args[1] : child(parent, `${info.parent}[0]`, '0'));
      put(cbArgs, 1, child(parent, `${info.parent}[0]`, '0'));
    }
    const self = probeFor(`${base}#this`, undefined, undefined);
    if (sync) apply(fn, self, cbArgs);
    else addTimer(() => { try { apply(fn, self, cbArgs); } catch {} }, 0, [], false);
  }
}

/** `p.then(…)`, `p.catch(…)`, `p.finally(…)` on a probe: a real promise of the awaited value. */
function probePromiseMethod(p, key) {
  const t = traceOf(probeId(p));
  t.awaited = true;
  note(t, 'promiseMethods', key);
  const settled = apply(promiseResolve, PromiseCtor, [child(p, `await ${probeId(p)}`, undefined)]);
  defineProperty(settled, 'constructor', { __proto__: null, value: SPECIES, configurable: true }); // then/finally make their promise with the real Promise
  return function (...args) {
    if (key === 'then') return apply(promiseThen, settled, args);
    if (key === 'finally') return apply(promiseFinally, settled, args);
    return settled;
  };
}
function probeAwait(p) {
  const t = traceOf(probeId(p));
  t.awaited = true;
  return child(p, `await ${probeId(p)}`, undefined);
}
function probePattern(p, length) {
  const t = traceOf(probeId(p));
  if (!(t.pattern >= length)) t.pattern = length;
  const out = [];
  for (let i = 0; i < length; i++) push(out, child(p, `${probeId(p)}[${i}]`, StringCtor(i)));
  return out;
}

const NULLISH = (v) => v === null || v === undefined;
const COMPARISON_OPS = { __proto__: null, '===': 1, '==': 1, '!==': 1, '!=': 1, '<': 1, '>': 1, '<=': 1, '>=': 1 };
const NEGATED = { __proto__: null, '===': '!==', '==': '!=', '!==': '===', '!=': '==', '<': '>=', '>': '<=', '<=': '>', '>=': '<' };
const FLIPPED = { __proto__: null, '<': '>', '>': '<', '<=': '>=', '>=': '<=' };
/** The probe of a binary operation, the other operand, and the relation as seen from the probe's side. */
function operands(op, a, b) {
  const left = isProbe(a);
  const p = left ? a : b;
  const other = left ? b : a;
  const entry = { __proto__: null, op: left ? op : FLIPPED[op] || op, type: kindOf(other) };
  const value = primitiveOf(other);
  if (value !== undefined) entry.value = value;
  if (other === undefined) entry.value = '__undefined__';
  return { __proto__: null, left, p, other, entry };
}
function answerAs(op, a, b, answer) {
  const { p, other, entry } = operands(op, a, b);
  if (!answer) entry.op = NEGATED[entry.op];
  if (!isProbe(other)) note(traceOf(probeId(p)), 'compared', entry);
  return answer;
}
/** A comparison or arithmetic operation with a probe operand: recorded, then answered so the code goes on. */
/**
 * A comparison with a probe. `prefer` is the answer that runs more of the code, where the
 * instrumenter knows one; the trace records the relation as answered (`x === 'a'` answered false
 * is recorded as `x !== 'a'`), so the value synthesised later takes the same path.
 */
function probeOperator(op, a, b, prefer) {
  if (prefer !== undefined && op !== 'instanceof' && op !== 'in' && COMPARISON_OPS[op] === 1) return answerAs(op, a, b, prefer);
  if (prefer === false && (op === 'instanceof' || op === 'in')) {
    // Still learn that the right side of instanceof is a constructor, whatever the answer.
    if (op === 'instanceof' && isProbe(b)) note(traceOf(probeId(b)), 'reads', 'prototype');
    return false;
  }
  const { left, p, other, entry } = operands(op, a, b);
  const info = apply(wmGet, probeInfo, [p]);
  const t = traceOf(info.id);
  switch (op) {
    case '===': case '==':
      note(t, 'compared', entry);
      if (NULLISH(other) || other === -1) return false;
      return isProbe(other) ? true : info.compares++ < MAX_TRUE_COMPARISONS;
    case '!==': case '!=':
      note(t, 'compared', entry);
      // `i !== -1` after indexOf means found; otherwise assume the value is the one compared with.
      return NULLISH(other) || other === -1;
    case '<': case '>': case '<=': case '>=':
      note(t, 'compared', entry);
      return info.compares++ < MAX_TRUE_COMPARISONS;
    case 'instanceof':
      if (left) {
        const name = typeof b === 'function' ? (isInjected(b) ? `@${ownerOf(b)}` : str(b.name)) : '?';
        note(t, 'instanceOf', name);
        return true;
      }
      // The right-hand side of instanceof is a constructor: instanceof reads its prototype.
      note(t, 'reads', 'prototype');
      return false;
    case 'in':
      if (!left) { note(t, 'has', str(a)); return true; }
      note(t, 'hints', 'string');
      return false;
  }
  note(t, 'arith', entry);
  const stand = op === '+' && typeof other === 'string' ? leafName(info.id) : 1;
  return arithmetic(op, left ? stand : a, left ? b : stand);
}
