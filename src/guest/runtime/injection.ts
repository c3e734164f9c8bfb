/**
 * Values the snippet lacks, asked of the host: a missing global, member, module or return value
 * is requested across the bridge, and each proposal is evaluated here (its parts first) until one
 * evaluates; a learning run gets a recording proxy instead. Also the hooks' shared steps: reading a
 * member, calling a function, and blaming the error either raises.
 */
import type { RequestKind, ValueRequest } from '../../protocol/runtime.ts';
import { ask } from './bridge.ts';
import { childId, culpritOf, holderFor, holderId, isInjected, ownerOf, register, result } from './elements.ts';
import { errorCulprit, fail, hasErrorInfo } from './errorAttribution.ts';
import { raisedBySnippet, restoreMessage, siteMessage } from './errorText.ts';
import { cut, inherits, isObjectLike, list, push, rec, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, G, indirectEval, ObjectCreate, ObjectCtor, TypeErrorCtor, TypeErrorProto, WM, wmGet, wmHas, wmSet } from './primordials.ts';
import { probePromiseMethod } from './probeOperators.ts';
import { chainEnds, chainOf, INTEROP_KEY, isProbe, probeFor, probeId } from './probes.ts';
import { EXIT, run } from './run.ts';

/** What inject gives when the host has no value: the element stays missing. */
export const NONE: object = {};
/** Injected function -> its return value, once requested. */
const returns: WeakMap<object, unknown> = new WM();
/** Names whose (possibly primitive) values were injected as globals. */
export const injectedGlobals: Record<string, true> = ObjectCreate(null);
/** Element ids of members injected into their holder in this run. */
const placedMembers: Record<string, true> = ObjectCreate(null);

/** A value request as the runtime builds it; the bridge adds its `op`. */
export type InjectRequest = Omit<ValueRequest, 'op'>;

function evaluate(source: string): unknown {
  return indirectEval(`(${source}\n)`);
}
/** Asks the host for the element's value and checks each proposal by evaluating it here; NONE when none evaluates. */
export function inject(request: InjectRequest): unknown {
  let reply: Dyn = ask(rec({ op: 'value', ...request }));
  if (reply.probe === true) return probeFor(request.id, request.parent, request.key);
  while (reply.source !== undefined) {
    try {
      const parts = list<unknown>();
      let params = '';
      for (let i = 0; i < reply.refs.length; i++) {
        const part = inject(rec({ id: reply.refs[i], kind: 'part', sid: request.sid, parent: request.id, message: `part of ${request.id}` }));
        push(parts, part === NONE ? undefined : part);
        params += (i === 0 ? '$' : ',$') + i;
      }
      const value = parts.length === 0 ? evaluate(reply.source) : apply(evaluate(`function (${params}) { return (${reply.source}\n); }`) as Dyn, undefined, parts);
      register(value, request.id);
      return value;
    } catch (e) {
      reply = ask(rec({ op: 'reject', id: request.id, error: cut(str(e && (e as Dyn).message !== undefined ? (e as Dyn).message : e), 500) }));
    }
  }
  return NONE;
}

/** A missing member of an injected value, injected into it (or its class's prototype); undefined when the host has none. */
export function missingMember(sid: number, obj: unknown, key: PropertyKey, kind: RequestKind): unknown {
  const holder = holderFor(obj);
  if (holder.id === undefined || typeof key === 'symbol') return undefined;
  const k = str(key);
  // The end of a chain of injected values (`node.parent.parent…` past the cap), as a recording proxy's.
  if (chainEnds(chainOf(holder.id), k)) return undefined;
  const id = childId(holder.id, k);
  // Put in place once, and missing again: the snippet removed it (shift, pop, delete), as it would the real one.
  if (placedMembers[id] === true) return undefined;
  const v = inject(rec({ id, kind, sid, parent: holder.id, key: k, message: `${id} is undefined` }));
  if (v === NONE) return undefined;
  try {
    holder.target[k] = v;
  } catch {}
  try {
    if (k in holder.target) placedMembers[id] = true;
  } catch {}
  return v;
}
/** A free name's value: the global, or an injected one; NONE when the host has none. */
export function globalValue(sid: number, name: string): unknown {
  run.lastSite = sid;
  if (name in G) return result(G[name], name in injectedGlobals ? name : culpritOf(G[name]));
  const v = inject(rec({ id: name, kind: 'global', sid, message: `${name} is not defined` }));
  if (v === NONE) return NONE;
  G[name] = v;
  injectedGlobals[name] = true;
  return result(v, name);
}
/** A better value for an element the snippet used in a way its value does not support; NONE when there is none. */
export function refine(sid: number, id: string | undefined, kind: RequestKind, message: string, parent?: string, key?: string): unknown {
  if (id === undefined) return NONE;
  return inject(rec({ id, kind, sid, message, refine: true, parent, key }));
}
/** `obj[key]`, with a missing member of an injected value injected. */
export function member(sid: number, obj: Dyn, key: PropertyKey, lostThis: boolean | undefined): unknown {
  if (isProbe(obj) && (key === 'then' || key === 'catch' || key === 'finally')) return result(probePromiseMethod(obj, key), probeId(obj));
  if (obj === null || obj === undefined) throw fail(TypeErrorCtor, `Cannot read properties of ${obj} (reading '${str(key)}')`, sid, culpritOf(obj));
  let v = obj[key];
  // `this.x` in a function called plainly reaches the global object: no global is injected for it;
  // nor `__esModule` (INTEROP_KEY): a learnt module is a CommonJS value.
  if (v === undefined && typeof key !== 'symbol' && key !== INTEROP_KEY && !(lostThis && obj === G) && !(key in ObjectCtor(obj)) && holderId(obj) !== undefined) v = missingMember(sid, obj, key, 'member');
  const own = isObjectLike(v) ? culpritOf(v) : undefined;
  if (own !== undefined) return result(v, own);
  const from = culpritOf(obj);
  return result(v, from === undefined || typeof key === 'symbol' ? from : childId(from, str(key)));
}
/** A call's result comes from an injected function, or from a method of an injected receiver. */
export function returnCulprit(fn: unknown, self: unknown, value: unknown): string | undefined {
  const own = isObjectLike(value) ? culpritOf(value) : undefined;
  if (own !== undefined) return own;
  if (isInjected(fn)) return `${ownerOf(fn)}()`;
  return self === undefined ? undefined : culpritOf(self);
}
/** An injected function that returned undefined: its return value is asked for (once per function). */
export function callResult(sid: number, fn: Dyn, value: unknown): unknown {
  if (value !== undefined || !isInjected(fn)) return value;
  if (wmHas(returns, fn)) return wmGet(returns, fn);
  const id = `${ownerOf(fn)}()`;
  let v = inject(rec({ id, kind: 'return', sid, parent: ownerOf(fn), message: `${id} returned undefined` }));
  if (v === NONE) v = undefined;
  wmSet(returns, fn, v);
  return v;
}
/** Calls fn; an error it throws is blamed (the injected function, its receiver or an argument) and its message restored. */
export function invoke(sid: number, fn: Dyn, self: unknown, args: Dyn): unknown {
  try {
    return apply(fn, self, args);
  } catch (e) {
    if (e === EXIT) {
      // exit() unwinds the snippet's calls, from where the snippet called it, whatever ran since (exit listeners).
      push(run.exitSites, sid);
      throw e;
    }
    let culprit = isInjected(fn) ? ownerOf(fn) : culpritOf(self);
    for (let i = 0; i < args.length && culprit === undefined; i++) culprit = culpritOf(args[i]);
    // Raised by V8 inside the snippet's own code (a function or callback of it): where the last hook ran.
    const raised = typeof e === 'object' && e !== null && !hasErrorInfo(e) && raisedBySnippet(e);
    if (raised) restoreMessage(e, run.lastSite);
    // `f.call.apply(1)`: V8 names the call it was in, here the runtime's; in Node, the snippet's.
    else if (inherits(e, TypeErrorProto) && (e as Dyn).message === 'apply is not a function' && !hasErrorInfo(e as object)) throw fail(TypeErrorCtor, siteMessage(sid, undefined), sid, culprit);
    errorCulprit(e, raised ? run.lastSite : sid, culprit, raised);
    throw e;
  }
}
