/**
 * The hooks through which the snippet reads, calls and decides (src/instrument/visitor.ts places
 * them): each performs the snippet's operation, injects what is missing (or answers for a
 * recording proxy), and blames an error it raises on the right element.
 */
import { childId, culpritOf, holderFor, holderId, isInjected, isRegistered, ownerOf, registerInstance, result } from './elements.ts';
import { environmentModules, moduleFailures, moduleLoaders } from './environmentHost.ts';
import { errorCulprit, fail, hasErrorInfo, markExplicit } from './errorAttribution.ts';
import { raisedBySnippet, restoreMessage, siteMessage } from './errorText.ts';
import { namesEval, namesHook } from './hookGuard.ts';
import { callResult, globalValue, inject, invoke, member, missingMember, NONE, refine, returnCulprit } from './injection.ts';
import { arithmetic, comparison } from './operators.ts';
import { cut, inherits, push, put, rec, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, ArrayCtor, construct, isArray, ErrorCtor, ErrorProto, G, ObjectCreate, ObjectCtor, ownKeys, parse, ReferenceErrorCtor, EvalErrorCtor, stringify, strSlice, symAsyncIterator, symIterator, TypeErrorCtor } from './primordials.ts';
import { COMPARISON_OPS, probeAwait, probeOperator, probePattern } from './probeOperators.ts';
import { infoOf, initOutcomes, isFailureProbe, isProbe, note, probeFor, probeId, probes, spend, traceOf } from './probes.ts';
import { jsonElementId } from '../../protocol/elementIds.ts';
import { config, EXIT, HALT, run } from './run.ts';

/** The snippet's top-level `this`: injected on first use, or adopted from the prelude. */
let receiver: unknown;
/** Module specifier -> what require gave for it. */
const modules: Record<string, unknown> = ObjectCreate(null);
/** Per operator site id, the answer a recording proxy gives to run more of the code (exploration may ask for the other). */
const PREFER: Record<string, boolean> = ObjectCreate(null);
/** Per operator site id, the answer a recording proxy gave there first in this run (boolean decisions only): what exploration flips. */
export const answers: Record<string, boolean> = ObjectCreate(null);
function answered(sid: number, answer: boolean): void {
  if (answers[sid] === undefined) answers[sid] = answer;
}

/** Per call site id, the recording proxy first called there; per `for…of` site id, the one first iterated: what exploration may make fail, or empty. */
export const callees: Record<string, string> = ObjectCreate(null);
export const iterables: Record<string, string> = ObjectCreate(null);
/**
 * `JSON.parse(p)` of a recording proxy: p is JSON text, and what it parses to is learnt on a probe of
 * its own (`JSON.parse(p)`), from which the host writes the text (JSON.stringify of that value).
 */
function parsedProbe(p: unknown): unknown {
  let id = probeId(p);
  // `JSON.parse(body.toString())`: body is the JSON text (a string's toString gives itself).
  const method = infoOf(p).parent;
  const holder = method !== undefined && probes[method] !== undefined ? infoOf(probes[method]) : undefined;
  if (holder?.key === 'toString' && holder.parent !== undefined) id = holder.parent;
  traceOf(id).jsonParsed = true;
  return probeFor(jsonElementId(id), undefined, undefined);
}
/**
 * `Array.isArray(p)` of a recording proxy: a decision, answered false as the platform does (a
 * proxy is no array) unless exploration asks for true, where the value learnt is an array (the
 * trace records `instanceof Array`), so the code's array branch runs in a scenario of its own.
 */
function arrayDecision(sid: number, p: unknown): boolean {
  const want = PREFER[sid] === true;
  answered(sid, want);
  return want ? probeOperator('instanceof', p, ArrayCtor, undefined) === true : false;
}
function calledAt(sid: number, fn: unknown): void {
  if (callees[sid] === undefined && isProbe(fn)) callees[sid] = probeId(fn);
}

/** Per `switch` site id, the case a recording proxy takes instead of the instrumenter's (exploration). */
const CASES: Record<string, unknown> = ObjectCreate(null);

export function initValueHooks(): void {
  const keys = ownKeys(config.prefer || {});
  for (let i = 0; i < keys.length; i++) PREFER[keys[i] as string] = (config.prefer as Record<string, boolean>)[keys[i] as string];
  const cases = ownKeys(config.cases || {});
  for (let i = 0; i < cases.length; i++) CASES[cases[i] as string] = (config.cases as Record<string, unknown>)[cases[i] as string];
  initOutcomes(config.outcomes);
}
/** The prelude's value of the receiver. */
export function adoptReceiver(v: unknown): void {
  receiver = v;
}
/** The prelude's value of a module. */
export function adoptModule(spec: string, v: unknown): void {
  modules[spec] = v;
}

function isConstructor(C: unknown): boolean {
  try {
    construct(ObjectCtor, [], C as new () => unknown);
    return true;
  } catch {
    return false;
  }
}

export function global(sid: number, name: string): unknown {
  if (run.unwind !== undefined) throw run.unwind;
  const v = globalValue(sid, name);
  if (v === NONE) throw fail(ReferenceErrorCtor, `${name} is not defined`, sid, false);
  return v;
}
/** `typeof name` of an undeclared name: injected like a read, but never a ReferenceError. */
export function globalTypeof(sid: number, name: string): unknown {
  const v = globalValue(sid, name);
  return v === NONE ? undefined : v;
}
export function receiverOf(sid: number, v: unknown): unknown {
  run.lastSite = sid;
  if (receiver === undefined) {
    const r = inject(rec({ id: 'this', kind: 'receiver', sid, message: 'this is the receiver of the snippet' }));
    receiver = r === NONE ? v : r;
  }
  return result(receiver, receiver !== v ? 'this' : undefined);
}
/** `lostThis`: the object is `this` of a function; when that is the global object, a missing member is the snippet's bug. */
export function memberOf(sid: number, obj: unknown, key: PropertyKey, lostThis?: boolean): unknown {
  if (run.unwind !== undefined) throw run.unwind;
  run.lastSite = sid;
  return member(sid, obj, key, lostThis);
}
export function methodCall(sid: number, obj: Dyn, key: PropertyKey, args: unknown[], lostThis?: boolean): unknown {
  if (run.unwind !== undefined) throw run.unwind;
  run.lastSite = sid;
  let fn: Dyn = member(sid, obj, key, lostThis);
  if (typeof fn !== 'function') {
    const holder = obj === null || obj === undefined || (lostThis && obj === G) ? undefined : holderFor(obj);
    const fixed = holder && holder.id !== undefined && (fn === undefined || isInjected(fn) || holder.id !== '') ? refine(sid, childId(holder.id, str(key)), 'callee', siteMessage(sid, fn), holder.id, str(key)) : NONE;
    if (fixed === NONE || typeof fixed !== 'function') throw fail(TypeErrorCtor, siteMessage(sid, fn), sid, culpritOf(fn) ?? culpritOf(obj));
    try {
      (holder as { target: Dyn }).target[key] = fixed;
    } catch {}
    fn = fixed;
  }
  calledAt(sid, fn);
  if (fn === parse && isProbe(args[0])) return parsedProbe(args[0]);
  if (fn === isArray && isProbe(args[0])) return arrayDecision(sid, args[0]);
  const value = callResult(sid, fn, invoke(sid, fn, obj, args));
  run.lastSite = sid;
  return result(value, returnCulprit(fn, obj, value));
}
export function call(sid: number, fn: Dyn, args: unknown[]): unknown {
  if (run.unwind !== undefined) throw run.unwind;
  run.lastSite = sid;
  if (typeof fn !== 'function') {
    const fixed = isInjected(fn) ? refine(sid, ownerOf(fn), 'callee', siteMessage(sid, fn)) : NONE;
    if (fixed === NONE || typeof fixed !== 'function') throw fail(TypeErrorCtor, siteMessage(sid, fn), sid, culpritOf(fn));
    fn = fixed;
  }
  calledAt(sid, fn);
  if (fn === parse && isProbe(args[0])) return parsedProbe(args[0]);
  if (fn === isArray && isProbe(args[0])) return arrayDecision(sid, args[0]);
  const value = callResult(sid, fn, invoke(sid, fn, undefined, args));
  run.lastSite = sid;
  // `TypeError('…')` without new: an error the code makes itself, as with `new`.
  if (inherits(value, ErrorProto) && (fn === ErrorCtor || inherits(fn.prototype, ErrorProto))) markExplicit(value as object);
  return result(value, returnCulprit(fn, undefined, value));
}
export function constructNew(sid: number, C: Dyn, args: unknown[]): unknown {
  if (run.unwind !== undefined) throw run.unwind;
  run.lastSite = sid;
  if (typeof C !== 'function') {
    const fixed = isInjected(C) ? refine(sid, ownerOf(C), 'constructor', siteMessage(sid, C)) : NONE;
    if (fixed === NONE || typeof fixed !== 'function') throw fail(TypeErrorCtor, siteMessage(sid, C), sid, culpritOf(C));
    C = fixed;
  }
  calledAt(sid, C);
  let value;
  try {
    value = construct(C, args);
  } catch (e) {
    if (e === EXIT) {
      push(run.exitSites, sid); // exit() called inside the constructor: the snippet's `new` ran
      throw e;
    }
    if (!isConstructor(C)) throw fail(TypeErrorCtor, siteMessage(sid, C), sid, culpritOf(C));
    const raised = typeof e === 'object' && e !== null && !hasErrorInfo(e) && raisedBySnippet(e);
    if (raised) restoreMessage(e, run.lastSite);
    errorCulprit(e, raised ? run.lastSite : sid, isInjected(C) ? ownerOf(C) : undefined, raised);
    throw e;
  }
  const cls = ownerOf(C);
  if (inherits(value, ErrorProto)) markExplicit(value as object); // `throw new TypeError(…)`: the code's own decision
  if (cls !== undefined && cls !== '' && typeof value === 'object' && value !== null && !isRegistered(value)) registerInstance(value, cls);
  return result(value, cls !== undefined && cls !== '' ? `new ${cls}` : undefined);
}
export function requireModule(sid: number, spec: Dyn): unknown {
  run.lastSite = sid;
  // An environment's module comes first: `node:path` and `path` are the same one.
  const envKey = typeof spec === 'string' && apply(strSlice, spec, [0, 5]) === 'node:' ? apply(strSlice, spec, [5]) : spec;
  if (envKey in environmentModules) return environmentModules[envKey];
  const load = moduleLoaders[envKey];
  if (load !== undefined) {
    delete moduleLoaders[envKey];
    try {
      return (environmentModules[envKey] = load());
    } catch (e) {
      // exit(), or the end of a stalled run (a loop in the module's code): not the module's failure.
      if (e === EXIT || e === HALT) throw e;
      // The real file failed to load on the values around it: the module is learnt, as one without a file.
      let message;
      try {
        message = str(e && (e as Dyn).message !== undefined ? (e as Dyn).message : e);
      } catch {
        message = '[unprintable error]';
      }
      if (moduleFailures.length < 100) push(moduleFailures, rec({ specifier: str(envKey), message: cut(message, 500) }));
    }
  }
  if (spec in modules) return modules[spec];
  if (typeof G.require === 'function') {
    try {
      return (modules[spec] = G.require(spec));
    } catch (e) {
      if (!(e && (e as Dyn).code === 'MODULE_NOT_FOUND')) throw e;
    }
  }
  const id = `require(${stringify(spec)})`;
  const v = inject(rec({ id, kind: 'module', sid, key: spec, message: `Cannot find module '${spec}'` }));
  if (v === NONE) {
    const e = fail(ErrorCtor, `Cannot find module '${spec}'`, sid, false);
    put(e, 'code', 'MODULE_NOT_FOUND');
    throw e;
  }
  return (modules[spec] = v);
}
export function destructure(sid: number, v: Dyn, shape: number | readonly string[]): unknown {
  run.lastSite = sid;
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
  if (holderId(v) !== undefined) for (let i = 0; i < shape.length; i++) if (!(shape[i] in ObjectCtor(v))) missingMember(sid, v, shape[i], 'member');
  return v;
}
export function iterable(sid: number, v: Dyn, isAsync: boolean): unknown {
  run.lastSite = sid;
  if (iterables[sid] === undefined && isProbe(v)) iterables[sid] = probeId(v);
  if (v === null || v === undefined || (typeof v[symIterator] !== 'function' && !(isAsync && typeof v[symAsyncIterator] === 'function'))) {
    const id = ownerOf(v);
    const fixed = id !== undefined && id !== '' ? refine(sid, id, 'iterable', siteMessage(sid, v)) : NONE;
    if (fixed === NONE) throw fail(TypeErrorCtor, siteMessage(sid, v), sid, culpritOf(v));
    return fixed;
  }
  return v;
}
export function awaited(sid: number, v: unknown): unknown {
  run.lastSite = sid;
  return isProbe(v) ? probeAwait(v) : v;
}
export function operator(sid: number, op: string, a: Dyn, b: Dyn, self?: boolean): unknown {
  if (run.unwind !== undefined) throw run.unwind;
  run.lastSite = sid;
  if (isProbe(a) || isProbe(b)) spend(); // a decision a recording proxy answers: counted, so loops it keeps going end
  if (op === 'typeof') {
    // b is the type the snippet compares with: a probe answers it, and the trace records it,
    // unless taking that branch would leave the code early (a guard clause).
    if (isProbe(a)) {
      answered(sid, PREFER[sid] !== false);
      if (PREFER[sid] === false) return b === 'object' ? 'undefined' : 'object';
      note(traceOf(probeId(a)), 'typeofs', b);
      return b;
    }
    return typeof a;
  }
  if (op === 'switch') {
    // b is the case that runs the most code: a probe takes it, and the trace records it.
    if (isProbe(a)) {
      const chosen = sid in CASES ? CASES[sid] : b;
      answered(sid, true); // a case was taken for a probe: exploration may take the others
      note(traceOf(probeId(a)), 'compared', { op: '===', type: typeof chosen, value: chosen });
      return chosen;
    }
    return a;
  }
  if (op === 'test') {
    // A guard clause tests a value (`if (done) return;`): a probe answers as preferred (falsy
    // there), and learns it. With no preference (b undefined) it stays itself, truthy.
    if (isProbe(a)) {
      const want = PREFER[sid];
      // An injected error is truthy whatever a guard clause prefers (`if (err) throw err;`), as it will be in the measured run.
      if (isFailureProbe(a)) return a;
      if (want === undefined) {
        answered(sid, true);
        return a;
      }
      answered(sid, want);
      note(traceOf(probeId(a)), 'tests', want);
      return want;
    }
    return a;
  }
  if (isProbe(a) || isProbe(b)) {
    const r = probeOperator(op, a, b, PREFER[sid], self === true);
    if (typeof r === 'boolean' && COMPARISON_OPS[op] === 1) answered(sid, r);
    return r;
  }
  const compared = comparison(op, a, b);
  if (compared !== undefined) return compared;
  return arithmetic(op, a, b);
}
/**
 * A direct eval's code: it sees the snippet's scope, where the hook is a parameter. Code that names
 * the hook is refused as if the name were not there; code that could call eval again (which no hook
 * would check) is refused with an EvalError.
 */
export function directEval(code: unknown): unknown {
  if (typeof code !== 'string') return code;
  if (namesHook(code)) throw new ReferenceErrorCtor(`${config.hook} is not defined`);
  if (namesEval(code)) throw new EvalErrorCtor('snipexec: eval inside the code of a direct eval is not run (it would escape instrumentation)');
  return code;
}
