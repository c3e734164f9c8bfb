// Runs INSIDE the isolate. It imports nothing and sees nothing of the host: the only way out is
// `bridge`, a function that takes and returns JSON strings. Evaluated with evalClosure, where
// $0 is the bridge reference, $1 the JSON config, $2 the shared buffer of the coverage counters,
// which the host reads even after the isolate is gone, and $3 the memory limit in MiB; none is
// stored on any global.
//
// Integrity: whatever runs while or after the snippet runs (hooks, console, timers, probes, the
// report) calls only built-ins captured here, before the snippet can patch them, and keeps its
// data in lists and records without a prototype, so nothing the snippet puts on Array.prototype,
// Object.prototype, String.prototype or Promise.prototype takes part (test/integrity.test.ts).
'use strict';
const bridgeRef = $0;
const counterBuffer = $2;

// Primordials, captured before the snippet can change them.
const G = globalThis;
const { apply, construct, defineProperty, getPrototypeOf, setPrototypeOf, ownKeys, getOwnPropertyDescriptor } = Reflect;
const reflectHas = Reflect.has;
const objHasOwn = Object.prototype.hasOwnProperty, isArray = Array.isArray;
const { stringify, parse } = JSON;
const MathMax = Math.max, MathMin = Math.min, MathImul = Math.imul, MathTrunc = Math.trunc;
const ProxyCtor = Proxy, PromiseCtor = Promise, PromiseProto = Promise.prototype, promiseThen = Promise.prototype.then;
const regexpExec = RegExp.prototype.exec;
const RangeErrorCtor = RangeError, NumberCtor = Number, BigIntCtor = BigInt;
const ErrorProto = Error.prototype, TypeErrorProto = TypeError.prototype;
const ObjectFreeze = Object.freeze;
const ObjectCreate = Object.create;
const WM = WeakMap, WS = WeakSet, RealDate = Date;
const wmGet = WeakMap.prototype.get, wmSet = WeakMap.prototype.set, wmHas = WeakMap.prototype.has;
const wsHas = WeakSet.prototype.has, wsAdd = WeakSet.prototype.add;
const arrPush = Array.prototype.push, arrJoin = Array.prototype.join;
const strSlice = String.prototype.slice, strIndexOf = String.prototype.indexOf, strReplace = String.prototype.replace;
const parseIntFn = parseInt, fromCodePoint = String.fromCodePoint;
const StringCtor = String, ObjectCtor = Object, ErrorCtor = Error, TypeErrorCtor = TypeError, ReferenceErrorCtor = ReferenceError;
const symIterator = Symbol.iterator, symAsyncIterator = Symbol.asyncIterator, symToPrimitive = Symbol.toPrimitive;
const indirectEval = eval;

const DATA = { __proto__: null, value: undefined, writable: true, enumerable: true, configurable: true };
/** Sets o[k] by defining it: no setter the snippet put on a prototype takes part. */
function put(o, k, v) {
  DATA.value = v;
  defineProperty(o, k, DATA);
  DATA.value = undefined;
  return v;
}
/** Appends v to an array by defining its next index (Array.prototype's push would call setters on the prototype). */
const push = (a, v) => { put(a, a.length, v); };
/** A runtime list: an array without a prototype, so no method or index of Array.prototype is ever read through it. */
function list() {
  const a = [];
  setPrototypeOf(a, null);
  return a;
}
/** A runtime record: an object without a prototype. */
const record = () => ObjectCreate(null);
/** Removes a[i] (Array.prototype.splice would read the species and the prototype's indexes). */
function removeAt(a, i) {
  for (let j = i; j < a.length - 1; j++) put(a, j, a[j + 1]);
  a.length = a.length - 1;
}
/** The last element of a, removed. */
function pop(a) {
  const v = a[a.length - 1];
  a.length = a.length - 1;
  return v;
}
const exec = (re, s) => apply(regexpExec, re, [s]);
const test = (re, s) => exec(re, s) !== null;
/** s with its first occurrence of `find` (a string) replaced; String.prototype.replace would ask String.prototype[Symbol.replace]. */
function replaceFirst(s, find, by) {
  const i = apply(strIndexOf, s, [find]);
  return i < 0 ? s : apply(strSlice, s, [0, i]) + by + apply(strSlice, s, [i + find.length]);
}
/** s cut at each `sep` (a string); String.prototype.split would ask String.prototype[Symbol.split]. */
function splitOn(s, sep) {
  const out = list();
  let from = 0;
  for (let i = apply(strIndexOf, s, [sep]); i >= 0; i = apply(strIndexOf, s, [sep, from])) {
    push(out, apply(strSlice, s, [from, i]));
    from = i + sep.length;
  }
  push(out, apply(strSlice, s, [from]));
  return out;
}
function joinWith(a, sep) {
  let out = '';
  for (let i = 0; i < a.length; i++) out += (i === 0 ? '' : sep) + a[i];
  return out;
}
/** `v instanceof C` for a built-in C, by the prototype chain: the snippet may give C a Symbol.hasInstance. */
function inherits(v, proto) {
  if ((typeof v !== 'object' || v === null) && typeof v !== 'function') return false;
  try {
    for (let p = getPrototypeOf(v); p !== null; p = getPrototypeOf(p)) if (p === proto) return true;
  } catch {}
  return false;
}
/** Data parsed from JSON, made of records and lists all the way down: nothing it lacks is read from a prototype. */
function detached(v) {
  if (v === null || typeof v !== 'object') return v;
  const keys = ownKeys(v);
  for (let i = 0; i < keys.length; i++) {
    const d = getOwnPropertyDescriptor(v, keys[i]);
    if (d !== undefined && apply(objHasOwn, d, ['value'])) put(v, keys[i], detached(d.value));
  }
  setPrototypeOf(v, null);
  return v;
}
const config = detached(parse($1));
const str = (v) => { try { return StringCtor(v); } catch { return '[unprintable]'; } };
const cut = (s, n) => (s.length > n ? apply(strSlice, s, [0, n]) + '…' : s);
/**
 * A function of the runtime as the snippet sees it: a proxy without traps, which calls and constructs
 * as the function does, but whose source Function.prototype.toString does not show (`[native code]`).
 */
const NATIVE = ObjectFreeze(ObjectCreate(null));
function native(fn, name) {
  if (name !== undefined) defineProperty(fn, 'name', { __proto__: null, value: name, configurable: true });
  return new ProxyCtor(fn, NATIVE);
}
/**
 * Calls ok or fail once a promise of the runtime's settles, with the built-in then: neither
 * Promise.prototype.then nor a species the snippet gave Promise takes part (the promise gets a
 * `constructor` of its own whose species is the real Promise).
 */
const SPECIES = ObjectFreeze({ __proto__: null, [Symbol.species]: PromiseCtor });
function settle(p, ok, fail) {
  defineProperty(p, 'constructor', { __proto__: null, value: SPECIES, configurable: true });
  apply(promiseThen, p, [ok, fail]);
}
/** Whether v is a promise the engine made (an async function's result): its prototype is Promise's own. */
function isPromise(v) {
  try { return typeof v === 'object' && v !== null && getPrototypeOf(v) === PromiseProto; } catch { return false; }
}

/**
 * JSON text of the runtime's own plain data, for the host. JSON.stringify would call a `toJSON`
 * the snippet put on Object.prototype or Array.prototype and run its getters; this reads own data
 * properties only, with index loops, so nothing the snippet changed takes part.
 */
function toJson(v, depth = 0) {
  if (depth > 64) return 'null';
  if (typeof v === 'string') return stringify(v);
  if (typeof v === 'number') return v === v && v !== 1 / 0 && v !== -1 / 0 ? StringCtor(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || typeof v !== 'object') return 'null';
  let out = '';
  if (isArray(v)) {
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + toJson(ownValue(v, i), depth + 1);
    return `[${out}]`;
  }
  const keys = ownKeys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (typeof k !== 'string') continue;
    const value = ownValue(v, k);
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out += (out === '' ? '' : ',') + stringify(k) + ':' + toJson(value, depth + 1);
  }
  return `{${out}}`;
}
function ownValue(o, k) {
  const d = getOwnPropertyDescriptor(o, k);
  return d !== undefined && apply(objHasOwn, d, ['value']) ? d.value : undefined;
}

/** Thrown once the host says the time is up: it ends the run, and is no error of the snippet's. */
const HALT = ObjectFreeze(new ErrorCtor('snipexec: the time limit was reached'));
function ask(message) {
  if (state.halted) throw HALT;
  const reply = detached(parse(bridgeRef.applySyncPromise(undefined, [toJson(message)])));
  if (reply.halt === true) {
    state.halted = state.stopped = true;
    throw HALT;
  }
  return reply;
}

// ---- coverage counters --------------------------------------------------------------------
// Views on the shared buffer: statements first, then each branch's outcomes.
const statements = new Float64Array(counterBuffer, 0, config.statements);
const branches = list();
for (let i = 0, at = config.statements; i < config.branches.length; at += config.branches[i], i++) push(branches, new Float64Array(counterBuffer, at * 8, config.branches[i]));
const loopStacks = list();
let lastSite = -1;

// ---- console --------------------------------------------------------------------------------
// Printed as Node's console prints to a pipe: by Node's own util.format and util.inspect
// (node-inspect-extracted, evaluated into the isolate's startup snapshot, so it holds its own
// primordials; src/sandbox/runInIsolate.ts), with no colours. error, warn, trace and assert (Node's
// stderr) go to the same captured output, in order; the capture is capped at maxConsoleBytes.
const nodeUtil = G.__snipexec_nodeUtil, consoleTable = G.__snipexec_consoleTable;
delete G.__snipexec_nodeUtil;
delete G.__snipexec_consoleTable;
let stdout = '';
let stdoutDropped = 0;
let groupIndent = '';
const counts = ObjectCreate(null);
const INSPECT_CUSTOM = Symbol.for('nodejs.util.inspect.custom');
/** A recording proxy prints as its name: inspecting it would record what the printing reads. */
function printable(v) {
  if (!isProbe(v)) return v;
  const name = `[${leafName(probeId(v))}]`;
  return { __proto__: null, [INSPECT_CUSTOM]: () => name };
}
function format(args) {
  const shown = [{}];
  for (let i = 0; i < args.length; i++) push(shown, printable(args[i]));
  try {
    return apply(nodeUtil.formatWithOptions, undefined, shown);
  } catch (e) {
    return `[snipexec: console could not print a value: ${str(e && e.message)}]`;
  }
}
function write(text) {
  if (exited) return; // nothing prints after exit()
  let out = text;
  if (groupIndent !== '') out = groupIndent + joinWith(splitOn(out, '\n'), `\n${groupIndent}`);
  const line = out + '\n';
  const room = config.maxConsoleBytes - stdout.length;
  if (room <= 0) { stdoutDropped += line.length; return; }
  if (line.length > room) { stdout += apply(strSlice, line, [0, room]); stdoutDropped += line.length - room; }
  else stdout += line;
}
const consoleObject = {};
for (const name of ['log', 'info', 'debug', 'dirxml', 'error', 'warn']) consoleObject[name] = (...args) => { write(format(args)); };
const consoleUnshift = (args, v) => { for (let i = args.length; i > 0; i--) put(args, i, args[i - 1]); put(args, 0, v); };
consoleObject.table = (data, properties) => {
  let table;
  try { table = consoleTable(data, properties); } catch (e) { table = undefined; }
  write(table === undefined ? format([data]) : table);
};
consoleObject.dir = (v, options) => {
  try { write(apply(nodeUtil.inspect, undefined, [printable(v), { customInspect: false, ...options }])); } catch (e) { write(format([v])); }
};
consoleObject.trace = (...args) => { write(`Trace${args.length > 0 ? ': ' : ''}${format(args)}`); };
consoleObject.assert = (cond, ...args) => {
  if (cond) return;
  if (args.length > 0 && typeof args[0] === 'string') put(args, 0, `Assertion failed: ${args[0]}`);
  else consoleUnshift(args, 'Assertion failed');
  write(format(args));
};
consoleObject.count = (label = 'default') => {
  const key = `${label}`;
  counts[key] = (counts[key] || 0) + 1;
  write(`${key}: ${counts[key]}`);
};
consoleObject.countReset = (label = 'default') => { delete counts[`${label}`]; };
consoleObject.group = consoleObject.groupCollapsed = (...args) => {
  if (args.length > 0) write(format(args));
  groupIndent += '  ';
};
consoleObject.groupEnd = () => { groupIndent = apply(strSlice, groupIndent, [0, groupIndent.length - 2]); };
consoleObject.time = consoleObject.timeEnd = consoleObject.timeLog = () => {};

// ---- virtual clock --------------------------------------------------------------------------
let now = config.startTime;
let timerSeq = 0;
const timers = list();
function addTimer(fn, ms, args, interval) {
  const id = ++timerSeq;
  let delay = 0;
  try { delay = MathMax(0, +ms || 0); } catch {} // a BigInt or symbol is a delay of 0, as in Node
  push(timers, { __proto__: null, id, at: now + delay, seq: id, fn, args, interval: interval ? MathMax(1, delay) : 0 });
  return id;
}
function clearTimer(id) {
  for (let i = 0; i < timers.length; i++) if (timers[i].id === id) { removeAt(timers, i); return; }
}
function nextTimer() {
  let best = -1;
  for (let i = 0; i < timers.length; i++) {
    const t = timers[i];
    if (best < 0 || t.at < timers[best].at || (t.at === timers[best].at && t.seq < timers[best].seq)) best = i;
  }
  return best;
}
const dateToString = RealDate.prototype.toString;
/** Date on the virtual clock; the global Date is it behind native() (so `new.target` may be either). */
function DateImpl(...args) {
  if (!new.target) return apply(dateToString, new RealDate(now), []);
  return args.length === 0 ? new RealDate(now) : construct(RealDate, args, new.target === FakeDate || new.target === DateImpl ? RealDate : new.target);
}
DateImpl.prototype = RealDate.prototype;
defineProperty(DateImpl, 'prototype', { __proto__: null, writable: false });
defineProperty(DateImpl, 'length', { __proto__: null, value: 7 });
DateImpl.now = native(() => now, 'now');
DateImpl.parse = RealDate.parse;
DateImpl.UTC = RealDate.UTC;
const FakeDate = native(DateImpl, 'Date');
defineProperty(RealDate.prototype, 'constructor', { __proto__: null, value: FakeDate, writable: true, configurable: true });
let seed = config.seed >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let x = seed;
  x = MathImul(x ^ (x >>> 15), x | 1);
  x ^= x + MathImul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}

// ---- injected values ------------------------------------------------------------------------
const owner = new WM();       // injected object or function -> element id
const instanceOf = new WM();  // instance of an injected class -> class element id
const returns = new WM();     // injected function -> its return value, once requested
const modules = ObjectCreate(null);
const injectedGlobals = ObjectCreate(null); // names whose (possibly primitive) values were injected
const NONE = {};
let receiver; // the snippet's top-level `this`: injected on first use, or adopted from the prelude
let lastResult;
let lastCulprit; // the injected element the last hook result came from, if any
const errorInfo = new WM();
const preludeFailures = list();
const explicitErrors = new WS();
const entries = list();
const entered = list();
const PREFER = ObjectCreate(null);
for (const k of ownKeys(config.prefer || {})) PREFER[k] = config.prefer[k];

function ownerOf(v) {
  if (v === G) return '';
  if ((typeof v === 'object' && v !== null) || typeof v === 'function') return apply(wmGet, owner, [v]);
  return undefined;
}
function isInjected(v) { return ownerOf(v) !== undefined && v !== G; }
/** The injected element a value comes from: its own id, its class's, or the last hook result's. */
function culpritOf(v) {
  if ((typeof v === 'object' && v !== null) || typeof v === 'function') {
    if (v === G) return undefined;
    const id = apply(wmGet, owner, [v]);
    if (id !== undefined) return id;
    const cls = apply(wmGet, instanceOf, [v]);
    return cls !== undefined ? `new ${cls}` : undefined;
  }
  return lastResult === v ? lastCulprit : undefined;
}
function tainted(v) { return culpritOf(v) !== undefined; }
function result(v, culprit) {
  lastResult = v;
  lastCulprit = culprit;
  return v;
}
/** Records where an error was raised and whose value caused it; `raised`: an operation of the snippet's own code raised it. */
function errorCulprit(e, sid, culprit, raised) {
  if ((typeof e === 'object' && e !== null) && !apply(wmHas, errorInfo, [e])) {
    // Raised inside an environment's own code: the environment's fault, whoever called it.
    const env = !raised && raisedByEnvironment(e);
    apply(wmSet, errorInfo, [e, { __proto__: null, sid, attribution: env ? 'environment' : culprit !== undefined ? 'injected' : 'snippet', culprit: env ? undefined : culprit, raised }]);
  }
}
function isConstructor(C) {
  try { construct(ObjectCtor, [], C); return true; } catch { return false; }
}
/** The first stack frame of an error ('' when it has none): where it was raised. */
function firstFrame(e) {
  try {
    const stack = str(e.stack);
    const at = apply(strIndexOf, stack, ['\n    at ']);
    if (at < 0) return '';
    const end = apply(strIndexOf, stack, ['\n', at + 1]);
    return apply(strSlice, stack, [at, end < 0 ? stack.length : end]);
  } catch { return ''; }
}
/** Whether V8 raised the error in the snippet's own code (its first stack frame), not in a function it called. */
function raisedBySnippet(e) {
  return apply(strIndexOf, firstFrame(e), ['snipexec:snippet']) >= 0;
}
/** Whether the error was raised in an environment's code (its first stack frame is in a `snipexec:env:` script). */
function raisedByEnvironment(e) {
  return typeof e === 'object' && e !== null && apply(strIndexOf, firstFrame(e), ['snipexec:env:']) >= 0;
}
/** The message V8 gives the operation of a site for the value v; %d is how V8 names a value it cannot point at. */
function siteMessage(sid, v) {
  const pair = config.messages[sid];
  if (pair === undefined) return `${config.sites[sid]} is not valid`;
  const m = v === null || v === undefined ? pair[0] : pair[1];
  return replaceFirst(replaceFirst(m, '%d', defaultCallSite(v)), '%v', str(v));
}
function defaultCallSite(v) {
  if (typeof v === 'string') return `string "${v}"`;
  if (v === null) return 'object null';
  if (v === true || v === false || typeof v === 'number') return `${typeof v} ${str(v)}`;
  return typeof v;
}
/**
 * Last line of defence: a message V8 wrote while running the instrumented code names a hook call
 * (`__snx_….ds(...)`); it is put back as V8 names the original expression of the site.
 */
function originalMessage(message, sid) {
  if (typeof message !== 'string' || apply(strIndexOf, message, [config.hook]) < 0) return message;
  const text = sid >= 0 && sid < config.sites.length ? config.sites[sid] : '(intermediate value)';
  let out = '';
  let rest = message;
  for (let i = apply(strIndexOf, rest, [config.hook]); i >= 0; i = apply(strIndexOf, rest, [config.hook])) {
    let end = i + config.hook.length;
    const m = exec(/^\.[A-Za-z_$][\w$]*(\(\.\.\.\))?/, apply(strSlice, rest, [end]));
    if (m) end += m[0].length;
    out += apply(strSlice, rest, [0, i]) + text;
    rest = apply(strSlice, rest, [end]);
  }
  return out + rest;
}
/** Puts an error's message (and the first line of its stack) back to the original code's. */
function restoreMessage(e, sid) {
  try {
    const before = e.message;
    const after = originalMessage(before, sid);
    const stack = e.stack;
    if (typeof stack !== 'string') { if (after !== before) e.message = after; return; }
    let clean = withoutRuntimeFrames(stack);
    if (after !== before) { e.message = after; clean = replaceFirst(clean, before, after); }
    if (clean !== stack) e.stack = clean;
  } catch {}
}
/** A stack without the runtime's own frames (hooks, invoke): they are no part of the snippet's. */
function withoutRuntimeFrames(stack) {
  let out = '';
  let from = 0;
  while (from < stack.length) {
    let end = apply(strIndexOf, stack, ['\n', from + 1]);
    if (end < 0) end = stack.length;
    const line = apply(strSlice, stack, [from, end]);
    if (!(apply(strIndexOf, line, ['\n    at ']) === 0 && apply(strIndexOf, line, ['<isolated-vm>']) >= 0)) out += line;
    from = end;
  }
  return out;
}
function register(v, id) {
  if (((typeof v === 'object' && v !== null) || typeof v === 'function') && !apply(wmHas, owner, [v])) apply(wmSet, owner, [v, id]);
}
function evaluate(source) {
  return indirectEval(`(${source}\n)`);
}
/** Asks the host for the element's value and checks each proposal by evaluating it here. */
function inject(request) {
  let reply = ask({ __proto__: null, op: 'value', ...request });
  if (reply.probe === true) return probeFor(request.id, request.parent, request.key);
  while (reply.source !== undefined) {
    try {
      const parts = list();
      let params = '';
      for (let i = 0; i < reply.refs.length; i++) {
        const part = inject({ __proto__: null, id: reply.refs[i], kind: 'part', sid: request.sid, parent: request.id, message: `part of ${request.id}` });
        push(parts, part === NONE ? undefined : part);
        params += (i === 0 ? '$' : ',$') + i;
      }
      const value = parts.length === 0 ? evaluate(reply.source) : apply(evaluate(`function (${params}) { return (${reply.source}\n); }`), undefined, parts);
      register(value, request.id);
      return value;
    } catch (e) {
      reply = ask({ __proto__: null, op: 'reject', id: request.id, error: cut(str(e && e.message !== undefined ? e.message : e), 500) });
    }
  }
  return NONE;
}
function childId(parent, key) {
  if (parent === '') return key;
  return test(/^[A-Za-z_$][\w$]*$/, key) ? `${parent}.${key}` : `${parent}[${stringify(key)}]`;
}
function holderFor(obj) {
  const cls = apply(wmGet, instanceOf, [obj]);
  return cls !== undefined ? { __proto__: null, id: `new ${cls}`, target: getPrototypeOf(obj) } : { __proto__: null, id: ownerOf(obj), target: obj };
}
const placedMembers = ObjectCreate(null); // element ids of members injected into their holder in this run
function missingMember(sid, obj, key, kind) {
  const holder = holderFor(obj);
  if (holder.id === undefined || typeof key === 'symbol') return undefined;
  const k = str(key);
  const id = childId(holder.id, k);
  // Put in place once, and missing again: the snippet removed it (shift, pop, delete), as it would the real one.
  if (placedMembers[id] === true) return undefined;
  const v = inject({ __proto__: null, id, kind, sid, parent: holder.id, key: k, message: `${id} is undefined` });
  if (v === NONE) return undefined;
  try { holder.target[k] = v; } catch {}
  try { if (k in holder.target) placedMembers[id] = true; } catch {}
  return v;
}
/** A free name's value: the global, or an injected one; NONE when the host has none. */
function globalValue(sid, name) {
  lastSite = sid;
  if (name in G) return result(G[name], name in injectedGlobals ? name : culpritOf(G[name]));
  const v = inject({ __proto__: null, id: name, kind: 'global', sid, message: `${name} is not defined` });
  if (v === NONE) return NONE;
  G[name] = v;
  injectedGlobals[name] = true;
  return result(v, name);
}
function arithmetic(op, a, b) {
  switch (op) {
    case '+': return a + b; case '-': return a - b; case '*': return a * b; case '/': return a / b; case '%': return a % b;
    case '**': return a ** b; case '|': return a | b; case '&': return a & b; case '^': return a ^ b;
    case '<<': return a << b; case '>>': return a >> b; case '>>>': return a >>> b;
  }
  throw new TypeErrorCtor(`unknown operator ${op}`);
}
/** A TypeError or ReferenceError of a hook; `culprit` is the injected element behind it, if any. */
function fail(Ctor, message, sid, culprit) {
  const e = new Ctor(message);
  errorCulprit(e, sid, culprit, true);
  return e;
}
function refine(sid, id, kind, message, parent, key) {
  if (id === undefined) return NONE;
  return inject({ __proto__: null, id, kind, sid, message, refine: true, parent, key });
}
function member(sid, obj, key, lostThis) {
  if (isProbe(obj) && (key === 'then' || key === 'catch' || key === 'finally')) return result(probePromiseMethod(obj, key), probeId(obj));
  if (obj === null || obj === undefined) throw fail(TypeErrorCtor, `Cannot read properties of ${obj} (reading '${str(key)}')`, sid, culpritOf(obj));
  let v = obj[key];
  // `this.x` in a function called plainly reaches the global object: no global is injected for it.
  const injectable = !(lostThis && obj === G) && holderFor(obj).id !== undefined;
  if (v === undefined && typeof key !== 'symbol' && !(key in ObjectCtor(obj)) && injectable) v = missingMember(sid, obj, key, 'member');
  const own = (typeof v === 'object' && v !== null) || typeof v === 'function' ? culpritOf(v) : undefined;
  if (own !== undefined) return result(v, own);
  const from = culpritOf(obj);
  return result(v, from === undefined || typeof key === 'symbol' ? from : childId(from, str(key)));
}
/** A call's result comes from an injected function, or from a method of an injected receiver. */
function returnCulprit(fn, self, value) {
  const own = (typeof value === 'object' && value !== null) || typeof value === 'function' ? culpritOf(value) : undefined;
  if (own !== undefined) return own;
  if (isInjected(fn)) return `${ownerOf(fn)}()`;
  return self === undefined ? undefined : culpritOf(self);
}
function callResult(sid, fn, value) {
  if (value !== undefined || !isInjected(fn)) return value;
  if (apply(wmHas, returns, [fn])) return apply(wmGet, returns, [fn]);
  const id = `${ownerOf(fn)}()`;
  let v = inject({ __proto__: null, id, kind: 'return', sid, parent: ownerOf(fn), message: `${id} returned undefined` });
  if (v === NONE) v = undefined;
  apply(wmSet, returns, [fn, v]);
  return v;
}
function invoke(sid, fn, self, args) {
  try {
    return apply(fn, self, args);
  } catch (e) {
    let culprit = isInjected(fn) ? ownerOf(fn) : culpritOf(self);
    for (let i = 0; i < args.length && culprit === undefined; i++) culprit = culpritOf(args[i]);
    // Raised by V8 inside the snippet's own code (a function or callback of it): where the last hook ran.
    const raised = typeof e === 'object' && e !== null && !apply(wmHas, errorInfo, [e]) && raisedBySnippet(e);
    if (raised) restoreMessage(e, lastSite);
    // `f.call.apply(1)`: V8 names the call it was in, here the runtime's; in Node, the snippet's.
    else if (inherits(e, TypeErrorProto) && e.message === 'apply is not a function' && !apply(wmHas, errorInfo, [e])) throw fail(TypeErrorCtor, siteMessage(sid, undefined), sid, culprit);
    errorCulprit(e, raised ? lastSite : sid, culprit, raised);
    throw e;
  }
}

const H = {
  // coverage
  // After an environment's exit() nothing runs: the next statement throws the exit again, past any catch.
  c(id) { if (exited) throw EXIT; statements[id]++; },
  t(id, v) { if (exited) throw EXIT; statements[id]++; return v; },
  r(id, v) { if (exited) throw EXIT; statements[id]++; return v; },
  /** `return` out of loops: they are left, so they count too. */
  rl(id, v, left) { if (exited) throw EXIT; statements[id]++; for (let i = 0; i < left.length; i++) statements[left[i]]++; return v; },
  b(id, i) { if (exited) throw EXIT; branches[id][i]++; },
  lg(id, v, op) { if (exited) throw EXIT; if (op === '&&' ? !v : op === '||' ? v : v !== null && v !== undefined) branches[id][0]++; return v; },
  // loops: one frame per entry, whether its body ran and how many iterations recording proxies took part in
  l0(id) { push(loopStacks[id] ||= list(), { __proto__: null, entered: false, probed: 0, ops: probeOps }); },
  l1(id) { if (exited) throw EXIT; branches[id][0]++; const s = loopStacks[id]; if (s && s.length) s[s.length - 1].entered = true; },
  l2(id) { const s = loopStacks[id]; if (s && s.length && !pop(s).entered) branches[id][1]++; },
  /** A loop test: false once recording proxies kept the loop going for MAX_PROBED_ITERATIONS, whatever they answer. */
  lt(id, v) {
    if (exited) throw EXIT;
    const s = loopStacks[id];
    const f = s && s.length ? s[s.length - 1] : undefined;
    if (f !== undefined && (f.ops !== probeOps || isProbe(v))) {
      f.ops = probeOps;
      if (++f.probed > MAX_PROBED_ITERATIONS) return false;
    }
    return v;
  },
  // hooks
  g(sid, name) {
    if (exited) throw EXIT;
    const v = globalValue(sid, name);
    if (v === NONE) throw fail(ReferenceErrorCtor, `${name} is not defined`, sid, false);
    return v;
  },
  /** `typeof name` of an undeclared name: injected like a read, but never a ReferenceError. */
  gt(sid, name) {
    const v = globalValue(sid, name);
    return v === NONE ? undefined : v;
  },
  th(sid, v) {
    lastSite = sid;
    if (receiver === undefined) {
      const r = inject({ __proto__: null, id: 'this', kind: 'receiver', sid, message: 'this is the receiver of the snippet' });
      receiver = r === NONE ? v : r;
    }
    return result(receiver, receiver !== v ? 'this' : undefined);
  },
  /** `lostThis`: the object is `this` of a function; when that is the global object, a missing member is the snippet's bug. */
  m(sid, obj, key, lostThis) { if (exited) throw EXIT; lastSite = sid; return member(sid, obj, key, lostThis); },
  mc(sid, obj, key, args, lostThis) {
    if (exited) throw EXIT;
    lastSite = sid;
    let fn = member(sid, obj, key, lostThis);
    if (typeof fn !== 'function') {
      const holder = obj === null || obj === undefined || (lostThis && obj === G) ? undefined : holderFor(obj);
      const fixed = holder && holder.id !== undefined && (fn === undefined || isInjected(fn) || holder.id !== '') ? refine(sid, childId(holder.id, str(key)), 'callee', siteMessage(sid, fn), holder.id, str(key)) : NONE;
      if (fixed === NONE || typeof fixed !== 'function') throw fail(TypeErrorCtor, siteMessage(sid, fn), sid, culpritOf(fn) ?? culpritOf(obj));
      try { holder.target[key] = fixed; } catch {}
      fn = fixed;
    }
    const value = callResult(sid, fn, invoke(sid, fn, obj, args));
    lastSite = sid;
    return result(value, returnCulprit(fn, obj, value));
  },
  call(sid, fn, args) {
    if (exited) throw EXIT;
    lastSite = sid;
    if (typeof fn !== 'function') {
      const fixed = isInjected(fn) ? refine(sid, ownerOf(fn), 'callee', siteMessage(sid, fn)) : NONE;
      if (fixed === NONE || typeof fixed !== 'function') throw fail(TypeErrorCtor, siteMessage(sid, fn), sid, culpritOf(fn));
      fn = fixed;
    }
    const value = callResult(sid, fn, invoke(sid, fn, undefined, args));
    lastSite = sid;
    // `TypeError('…')` without new: an error the code makes itself, as with `new`.
    if (inherits(value, ErrorProto) && (fn === ErrorCtor || inherits(fn.prototype, ErrorProto))) apply(wsAdd, explicitErrors, [value]);
    return result(value, returnCulprit(fn, undefined, value));
  },
  nw(sid, C, args) {
    if (exited) throw EXIT;
    lastSite = sid;
    if (typeof C !== 'function') {
      const fixed = isInjected(C) ? refine(sid, ownerOf(C), 'constructor', siteMessage(sid, C)) : NONE;
      if (fixed === NONE || typeof fixed !== 'function') throw fail(TypeErrorCtor, siteMessage(sid, C), sid, culpritOf(C));
      C = fixed;
    }
    let value;
    try { value = construct(C, args); } catch (e) {
      if (!isConstructor(C)) throw fail(TypeErrorCtor, siteMessage(sid, C), sid, culpritOf(C));
      const raised = typeof e === 'object' && e !== null && !apply(wmHas, errorInfo, [e]) && raisedBySnippet(e);
      if (raised) restoreMessage(e, lastSite);
      errorCulprit(e, raised ? lastSite : sid, isInjected(C) ? ownerOf(C) : undefined, raised);
      throw e;
    }
    const cls = ownerOf(C);
    if (inherits(value, ErrorProto)) apply(wsAdd, explicitErrors, [value]); // `throw new TypeError(…)`: the code's own decision
    if (cls !== undefined && cls !== '' && typeof value === 'object' && value !== null && !apply(wmHas, owner, [value])) apply(wmSet, instanceOf, [value, cls]);
    return result(value, cls !== undefined && cls !== '' ? `new ${cls}` : undefined);
  },
  req(sid, spec) {
    lastSite = sid;
    // An environment's module comes first: `node:path` and `path` are the same one.
    const envKey = typeof spec === 'string' && apply(strSlice, spec, [0, 5]) === 'node:' ? apply(strSlice, spec, [5]) : spec;
    if (envKey in environmentModules) return environmentModules[envKey];
    if (spec in modules) return modules[spec];
    if (typeof G.require === 'function') {
      try { return (modules[spec] = G.require(spec)); } catch (e) { if (!(e && e.code === 'MODULE_NOT_FOUND')) throw e; }
    }
    const id = `require(${stringify(spec)})`;
    const v = inject({ __proto__: null, id, kind: 'module', sid, key: spec, message: `Cannot find module '${spec}'` });
    if (v === NONE) {
      const e = fail(ErrorCtor, `Cannot find module '${spec}'`, sid, false);
      put(e, 'code', 'MODULE_NOT_FOUND');
      throw e;
    }
    return (modules[spec] = v);
  },
  ds(sid, v, shape) {
    lastSite = sid;
    if (isProbe(v)) return typeof shape === 'number' ? probePattern(v, shape) : v;
    if (typeof shape === 'number') {
      if (v === null || v === undefined || typeof v[symIterator] !== 'function') {
        const id = ownerOf(v);
        const fixed = id !== undefined && id !== '' ? refine(sid, id, 'destructure', siteMessage(sid, v)) : NONE;
        if (fixed === NONE) throw fail(TypeErrorCtor, siteMessage(sid, v), sid, culpritOf(v));
        return fixed;
      }
      return v;
    }
    if (v === null || v === undefined) throw fail(TypeErrorCtor, siteMessage(sid, v), sid, culpritOf(v));
    if (holderFor(v).id !== undefined) for (let i = 0; i < shape.length; i++) if (!(shape[i] in ObjectCtor(v))) missingMember(sid, v, shape[i], 'member');
    return v;
  },
  it(sid, v, isAsync) {
    lastSite = sid;
    if (v === null || v === undefined || (typeof v[symIterator] !== 'function' && !(isAsync && typeof v[symAsyncIterator] === 'function'))) {
      const id = ownerOf(v);
      const fixed = id !== undefined && id !== '' ? refine(sid, id, 'iterable', siteMessage(sid, v)) : NONE;
      if (fixed === NONE) throw fail(TypeErrorCtor, siteMessage(sid, v), sid, culpritOf(v));
      return fixed;
    }
    return v;
  },
  aw(sid, v) { lastSite = sid; return isProbe(v) ? probeAwait(v) : v; },
  op(sid, op, a, b) {
    if (exited) throw EXIT;
    lastSite = sid;
    if (isProbe(a) || isProbe(b)) spend(); // a decision a recording proxy answers: counted, so loops it keeps going end
    if (op === 'typeof') {
      // b is the type the snippet compares with: a probe answers it, and the trace records it,
      // unless taking that branch would leave the code early (a guard clause).
      if (isProbe(a)) {
        if (PREFER[sid] === false) return b === 'object' ? 'undefined' : 'object';
        note(traceOf(probeId(a)), 'typeofs', b);
        return b;
      }
      return typeof a;
    }
    if (op === 'switch') {
      // b is the case that runs the most code: a probe takes it, and the trace records it.
      if (isProbe(a)) { note(traceOf(probeId(a)), 'compared', { op: '===', type: typeof b, value: b }); return b; }
      return a;
    }
    if (op === 'test') {
      // A guard clause tests a value (`if (done) return;`): a probe answers falsy, and learns it.
      if (isProbe(a)) { note(traceOf(probeId(a)), 'tests', b); return b; }
      return a;
    }
    if (isProbe(a) || isProbe(b)) return probeOperator(op, a, b, PREFER[sid]);
    switch (op) {
      case '===': return a === b; case '!==': return a !== b; case '==': return a == b; case '!=': return a != b;
      case '<': return a < b; case '>': return a > b; case '<=': return a <= b; case '>=': return a >= b;
      case 'instanceof': return a instanceof b; case 'in': return a in b;
    }
    return arithmetic(op, a, b);
  },
  /** `with (o)`: counted, and o wrapped so that it cannot answer for the hook's name (its has says false). */
  wp(id, o) {
    if (exited) throw EXIT;
    statements[id]++;
    if (o === null || o === undefined) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    return new ProxyCtor(ObjectCtor(o), WITH_HANDLER);
  },
  /** A direct eval's code: it sees the snippet's scope, where the hook is a parameter; code that names the hook is refused. */
  ev(code) {
    if (typeof code === 'string' && namesHook(code)) throw new ReferenceErrorCtor(`${config.hook} is not defined`);
    return code;
  },
  // lifecycle, called by the host
  adopt(pairs) {
    for (let i = 0; i < pairs.length; i++) {
      register(pairs[i][1], pairs[i][0]);
      const id = pairs[i][0];
      if (id === 'this') { receiver = pairs[i][1]; continue; }
      injectedGlobals[id] = true;
      if (apply(strSlice, id, [0, 8]) === 'require(') { try { modules[parse(apply(strSlice, id, [8, -1]))] = pairs[i][1]; } catch {} }
    }
  },
  main(fn) {
    try {
      const r = apply(fn, G, []);
      if (isPromise(r)) settle(r, () => { state.done = true; }, (e) => uncaught(e));
      else if (r && typeof r.then === 'function') r.then(() => { state.done = true; }, (e) => uncaught(e)); // a thenable the snippet returned
      else state.done = true;
    } catch (e) {
      uncaught(e);
    }
  },
  tick() {
    if (state.stopped) return false;
    const i = nextTimer();
    if (i < 0) return false;
    const timer = timers[i];
    if (timer.interval) timer.at += timer.interval; else removeAt(timers, i);
    if (timer.at > now) now = MathMax(now, timer.at - (timer.interval || 0));
    try { apply(timer.fn, G, timer.args); } catch (e) { uncaught(e); return false; }
    // A timer ran: the host asks again, after the microtasks it queued, which may add timers.
    return true;
  },
  // entry points (callUncalled): registered, entered, and called at the end when never entered
  fr(k, fn) { if (typeof fn === 'function') put(entries, k, fn); },
  fe(k) { put(entered, k, true); },
  drive() {
    if (state.stopped) return toJson([]);
    const driven = list();
    for (let k = 0; k < entries.length; k++) {
      const fn = entries[k];
      if (fn === undefined || entered[k] || state.stopped) continue;
      const name = config.entryPoints[k].name;
      const args = list();
      for (let i = 0; i < config.entryPoints[k].params; i++) {
        const v = inject({ __proto__: null, id: `${name}#arg${i}`, kind: 'argument', sid: -1, key: `arg${i}`, message: `argument ${i} of ${name}, which the snippet never calls` });
        push(args, v === NONE ? undefined : v);
      }
      push(driven, k);
      try {
        const r = apply(fn, undefined, args);
        if (isPromise(r)) settle(r, undefined, (e) => uncaught(e));
        else if (r && typeof r.then === 'function') r.then(undefined, (e) => uncaught(e));
      } catch (e) {
        uncaught(e);
      }
    }
    return toJson(driven);
  },
  /** A definition of the prelude threw: the host feeds the error back to its provider. */
  pf(id, e) {
    if (preludeFailures.length < 100) push(preludeFailures, { __proto__: null, id: str(id), message: cut(str(e && e.message !== undefined ? e.message : e), 500) });
  },
  /**
   * A `catch` of the snippet caught e. A TypeError, RangeError or ReferenceError that an operation
   * of the snippet's own code raised on its own values is reported, as caught; an error a called
   * function throws (a built-in checking its input, an injected value) is its answer, not a bug.
   */
  ct(e) {
    if (e === EXIT) throw EXIT; // exit() is no error a catch of the snippet may keep
    if (typeof e !== 'object' || e === null || apply(wsHas, caughtSeen, [e])) return;
    apply(wsAdd, caughtSeen, [e]);
    const info = apply(wmGet, errorInfo, [e]);
    const sid = info !== undefined ? info.sid : lastSite;
    restoreMessage(e, sid);
    if (caught.length >= 20 || apply(wsHas, explicitErrors, [e]) || !inherits(e, ErrorProto)) return;
    let type, message;
    try { type = str(e.name); message = str(e.message); } catch { return; }
    if (type !== 'TypeError' && type !== 'RangeError' && type !== 'ReferenceError') return;
    const raised = info !== undefined ? info.raised === true : raisedBySnippet(e);
    const attribution = info !== undefined ? info.attribution : lastCulprit !== undefined ? 'injected' : 'snippet';
    if (!raised || attribution !== 'snippet') return;
    for (let i = 0; i < caught.length; i++) if (caught[i].sid === sid && caught[i].message === cut(message, 1000)) return; // once per site and message
    push(caught, { __proto__: null, type, message: cut(message, 1000), sid, attribution, caught: true });
    push(caughtErrors, e);
  },
  report() {
    return toJson({ __proto__: null, halted: state.halted, stdout, stdoutDropped, errors: state.errors, caught, done: state.done, pendingTimers: timers.length, lastSite, traces, preludeFailures, ...(exited ? { exit: exitCode } : {}) });
  },
};
const caught = list();       // errors the snippet caught itself, reported with caught: true
const caughtErrors = list(); // the error object of each, to drop it if it ends uncaught after all
const caughtSeen = new WS();
const state = { __proto__: null, done: false, stopped: false, halted: false, errors: list() };
function uncaught(e) {
  state.stopped = true;
  if (e === HALT || e === EXIT) return;
  if (state.errors.length >= 20) return;
  const info = (typeof e === 'object' && e !== null && apply(wmGet, errorInfo, [e])) || { __proto__: null, sid: lastSite, attribution: raisedByEnvironment(e) ? 'environment' : 'snippet' };
  for (let i = caughtErrors.length - 1; i >= 0; i--) if (caughtErrors[i] === e) { removeAt(caughtErrors, i); removeAt(caught, i); }
  if (typeof e === 'object' && e !== null) restoreMessage(e, info.sid);
  let type = 'Error', message;
  try { type = str(e && e.name) || 'Error'; message = str(e && e.message !== undefined ? e.message : e); } catch { message = '[unprintable error]'; }
  const explicit = typeof e === 'object' && e !== null && apply(wsHas, explicitErrors, [e]);
  push(state.errors, { __proto__: null, type: cut(type, 100), message: cut(message, 1000), sid: info.sid, attribution: info.attribution, culprit: info.culprit, ...(explicit ? { explicit: true } : {}) });
}

// Helpers the injected definitions use; the host emits the same source in --emit output.
indirectEval(config.helpers);

/** queueMicrotask: fn runs as a microtask; what it throws is an unhandled rejection, as before. */
async function microtask(fn) {
  await undefined;
  fn();
}
const globals = {
  console: consoleObject,
  setTimeout: native((fn, ms, ...args) => addTimer(fn, ms, args, false), 'setTimeout'),
  setInterval: native((fn, ms, ...args) => addTimer(fn, ms, args, true), 'setInterval'),
  setImmediate: native((fn, ...args) => addTimer(fn, 0, args, false), 'setImmediate'),
  clearTimeout: native((id) => clearTimer(id), 'clearTimeout'),
  clearInterval: native((id) => clearTimer(id), 'clearInterval'),
  clearImmediate: native((id) => clearTimer(id), 'clearImmediate'),
  queueMicrotask: native((fn) => { microtask(fn); }, 'queueMicrotask'),
  Date: FakeDate,
};
for (const name of ownKeys(consoleObject)) consoleObject[name] = native(consoleObject[name], name);
for (const name of ownKeys(globals)) defineProperty(G, name, { __proto__: null, value: globals[name], writable: true, configurable: true, enumerable: false });
Math.random = native(() => random(), 'random');
// The functions the snippet is handed are arrows or proxies of them: none has a `prototype` whose
// constructor is the runtime's own function. The hooks are on no global: the snippet's script evaluates to an arrow the lifecycle calls with them.
ObjectFreeze(H);

/** Whether a name is the hook's, or one the instrumenter derives from it (`<hook>_e`). */
function isHookName(k) {
  return typeof k === 'string' && apply(strSlice, k, [0, config.hook.length]) === config.hook;
}
const WITH_HANDLER = ObjectFreeze({ __proto__: null, has(target, k) { return isHookName(k) ? false : reflectHas(target, k); } });
/** Whether source text names the hook, escapes (`\u005f`) decoded as the parser would. */
function namesHook(code) {
  if (apply(strIndexOf, code, [config.hook]) >= 0) return true;
  if (apply(strIndexOf, code, ['\\u']) < 0) return false;
  let decoded = '';
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\\' && code[i + 1] === 'u') {
      const braced = code[i + 2] === '{';
      const end = braced ? apply(strIndexOf, code, ['}', i + 3]) : i + 6;
      const hex = apply(strSlice, code, [braced ? i + 3 : i + 2, end]);
      const n = parseIntFn(hex, 16);
      if (end > i && n === n) { decoded += fromCodePoint(n); i = braced ? end : end - 1; continue; }
    }
    decoded += ch;
  }
  return apply(strIndexOf, decoded, [config.hook]) >= 0;
}
