import type { Usage } from '../../instrument/usage.ts';
import { jsString } from '../../core/sourceText.ts';
import { failureSource } from '../failureSource.ts';
import { callbackElementId, jsonElementId, LISTED_KEY, thrownElementId } from '../../protocol/elementIds.ts';
import { dummyFor, identifierFrom } from '../dummyTable.ts';
import type { Proposal } from '../types.ts';
import type { Category } from '../../core/categories.ts';
import { CALLBACK_CONVENTIONS } from '../../protocol/callbackConventions.ts';
import { chooseBoolean, chooseLength, chooseNumber, chooseString } from './choosePrimitive.ts';
import { FUNCTION_KEYS, OBJECT_KEYS } from '../apiTypes/platformTypes.ts';
import type { TraceFacts } from './inferCategory.ts';
import { isUsed, KEY_ELEMENT, memberId, type CallbackRecord, type Trace, type TraceView } from '../../protocol/trace.ts';

const SYNC_CALLBACKS = new Set<string>([...CALLBACK_CONVENTIONS.elementWise, ...CALLBACK_CONVENTIONS.sync]);
const IDENT = /^[A-Za-z_$][\w$]*$/;
const MAX_MEMBERS = 40;

export interface SynthesisInput {
  readonly id: string;
  readonly name: string;
  readonly facts: TraceFacts;
  readonly traces: TraceView;
  readonly usage: Usage;
  /** The snippet uses the result of calling it (ValueRequest.resultUsed). */
  readonly resultUsed?: boolean;
}

/** Collects the parts a value's source refers to as `$0`, `$1`…, each an element of its own. */
class Parts {
  readonly refs: string[] = [];
  readonly types: string[] = [];
  ref(id: string): string {
    let i = this.refs.indexOf(id);
    if (i < 0) {
      i = this.refs.length;
      this.refs.push(id);
    }
    return `$${i}`;
  }
}

function propertyKey(key: string): string {
  return IDENT.test(key) ? key : jsString(key);
}

/** The key an element gave, as the definition computes it: the element, or its string method's result on it (KEY_ELEMENT). */
function keyExpression(by: string, parts: Parts): string {
  const derived = KEY_ELEMENT.exec(by);
  return derived?.[2] !== undefined ? `String(${parts.ref(derived[1]!)}).${derived[2]}()` : parts.ref(by);
}

/**
 * An object literal of the members learnt. A member read by a key another element converted to
 * (`obj[key]`, Trace.keyedBy) is also given under that element's value, as a computed key: the run
 * that has the key's final value reads the member there (`{ method: $0, [$1]: $0 }` where `$1` is
 * `method`, which became `"get"`), where learning would otherwise need one more run.
 */
function objectLiteral(id: string, keys: readonly string[], parts: Parts, keyedBy: Trace['keyedBy'] = []): { source: string; type: string } {
  const kept = keys.slice(0, MAX_MEMBERS);
  const members: (readonly [string, string])[] = kept.map((k) => [propertyKey(k), parts.ref(memberId(id, k))] as const);
  for (const [k, by] of keyedBy) if (kept.includes(k)) members.push([`[${keyExpression(by, parts)}]`, parts.ref(memberId(id, k))]);
  if (members.length === 0) return { source: '{}', type: '{}' };
  return { source: `{ ${members.map(([k, r]) => `${k}: ${r}`).join(', ')} }`, type: `{ ${members.map(([k, r]) => `${k}: ${r}`).join('; ')} }` };
}

/**
 * Members an object is known to have: read (but not only written first) or tested with `in`, else
 * the key its recording proxy listed when the snippet listed its keys (for…in, Object.keys).
 */
function objectKeys(trace: Trace | undefined, exclude: ReadonlySet<string>): string[] {
  const keys = [...(trace?.reads ?? []), ...(trace?.has ?? [])].filter((k) => !exclude.has(k) && !OBJECT_KEYS.has(k));
  // Listed, with no member known: the key its recording proxy listed, so a loop over its keys runs.
  if (keys.length === 0 && trace?.keysListed && !trace.emptied && !exclude.has(LISTED_KEY)) keys.push(LISTED_KEY);
  return [...new Set(keys)];
}

/**
 * Statements that run each callback the element was given, with synthesised arguments. `self` is
 * the name the definition has inside its own source, when a callback handed it a function it had
 * called back already (trace.callbackLoop): it calls each function back once (by its source, so a
 * fresh closure of the same arrow counts), keeping them in `self.calledBack`, for calling back each
 * time would never end.
 */
function callbackCalls(id: string, calls: Trace['calls'], name: string, parts: Parts, traces: TraceView, self?: string): string[] {
  // Per argument (and property): the callback last seen there, and the listener of an error event last seen there.
  const seen = new Map<string, { cb?: CallbackRecord; onError?: CallbackRecord }>();
  for (const call of calls ?? []) {
    for (const cb of call.callbacks) {
      const at = seen.get(`${cb.index}.${cb.prop ?? ''}`) ?? {};
      if (cb.onError) at.onError = cb;
      else at.cb = cb;
      seen.set(`${cb.index}.${cb.prop ?? ''}`, at);
    }
  }
  const sync = SYNC_CALLBACKS.has(name);
  const out: string[] = [];
  // `on('error', …)`: an error event is emitted only when the scenario asks for the failure.
  const errorEvent = `/${CALLBACK_CONVENTIONS.errorEvent}/i.test(args[0])`;
  for (const { cb, onError } of seen.values()) {
    if (cb) out.push(callbackCall(id, cb, name, parts, traces, sync, onError ? `!${errorEvent}` : undefined, self));
    if (onError?.failed) out.push(callbackCall(id, onError, name, parts, traces, sync, errorEvent, self));
  }
  return out;
}

/** The statement that runs one callback (when `when` holds), with synthesised arguments, or an error when it `failed`. */
function callbackCall(id: string, cb: CallbackRecord, name: string, parts: Parts, traces: TraceView, sync: boolean, when: string | undefined, once: string | undefined): string {
  const base = callbackElementId(id, cb.index, cb.prop);
  const n = Math.max(cb.params, cb.names.length);
  const args: string[] = [];
  // Called with an error (an exploration scenario), an error-first callback gets nothing else, as Node's APIs do.
  if (cb.failed) args.push(parts.ref(`${base}#arg0`));
  else for (let k = 0; k < n; k++) args.push(k === 0 && cb.errorFirst ? 'null' : parts.ref(`${base}#arg${k}`));
  while (args.length > 0 && args[args.length - 1] === 'null' && n > 1) args.pop();
  const self = isUsed(traces.get(`${base}#this`)) ? parts.ref(`${base}#this`) : undefined;
  const fn = cb.prop === undefined ? `args[${cb.index}]` : `args[${cb.index}]${IDENT.test(cb.prop) ? `.${cb.prop}` : `[${jsString(cb.prop)}]`}`;
  // A class handed over (`React.createElement(App)`, a mixin base) is not a callback: calling it would throw.
  const callable = `typeof ${fn} === 'function' && !String(${fn}).startsWith('class')`;
  const guard = `${cb.prop === undefined ? callable : `args[${cb.index}] && ${callable}`}${when ? ` && ${when}` : ''}`;
  const invoke = self ? `${fn}.call(${[self, ...args].join(', ')})` : `${fn}(${args.join(', ')})`;
  if (sync) return `if (${guard}) ${invoke};`;
  // Once per function source: a fresh arrow each time (`next(() => loop())`) is the same call-back.
  if (once) return `if (${guard} && !(${once}.calledBack ??= new Set()).has(String(${fn}))) { ${once}.calledBack.add(String(${fn})); setTimeout(() => ${invoke}); }`;
  return `if (${guard}) setTimeout(() => ${invoke});`;
}

function functionSource(input: SynthesisInput, parts: Parts, keyword: 'function' | 'class'): { source: string; type: string } {
  const { id, name, facts, traces } = input;
  const fname = identifierFrom(name, keyword === 'class' ? 'Injected' : 'injected');
  const trace = facts.trace;
  if (keyword === 'function' && trace?.fails) {
    // An exploration scenario's outcome: the function fails, for the snippet's catch to take over.
    const error = parts.ref(thrownElementId(id));
    const body = trace.fails === 'throw' ? `throw ${error};` : `return Promise.reject(${error});`;
    return { source: `function ${fname}(...args) { ${body} }`, type: trace.fails === 'throw' ? '(...args: any[]) => never' : '(...args: any[]) => Promise<never>' };
  }
  const statics = objectKeys(trace, FUNCTION_KEYS).filter((k) => k !== 'then');
  // Calls each function back once when a call-back handed one back (a function named `args` would find its parameter by that name).
  const once = trace?.callbackLoop && fname !== 'args' ? fname : undefined;
  if (keyword === 'class') {
    const body = callbackCalls(id, trace?.constructs, name, parts, traces, once);
    const instance = traces.get(`new ${id}`);
    const members = objectKeys(instance, new Set());
    if (members.length > 0) body.push(`Object.assign(this, ${objectLiteral(`new ${id}`, members, parts, instance?.keyedBy).source});`);
    const ctor = body.length > 0 ? ` constructor(...args) { ${body.join(' ')} }` : '';
    let source = `class ${fname} {${ctor}${ctor ? ' ' : ''}}`;
    if (statics.length > 0) source = `Object.assign(${source}, ${objectLiteral(id, statics, parts, trace?.keyedBy).source})`;
    const instanceType = members.length > 0 ? objectLiteral(`new ${id}`, members, new Parts()).type : '{}';
    return { source, type: `new (...args: any[]) => ${instanceType}` };
  }
  const body = callbackCalls(id, trace?.calls, name, parts, traces, once);
  const instance = traces.get(`new ${id}`);
  const ret = traces.get(`${id}()`);
  if (trace?.constructed) {
    // Called and constructed: `new X()` fills the instance; a plain call does what calls did.
    const members = objectKeys(instance, new Set());
    const init = [...callbackCalls(id, trace.constructs, name, parts, traces, once), ...(members.length > 0 ? [`Object.assign(this, ${objectLiteral(`new ${id}`, members, parts, instance?.keyedBy).source});`] : [])];
    body.unshift(`if (new.target) { ${init.join(' ')} return; }`);
  }
  let returnType = 'void';
  // A declared result (`declare function f(): string`) is returned even where the learning run saw it go unused (`console.log(f())`).
  // So is a result the learning run made and the snippet uses where no recording proxy sees it
  // (`isArray(x) ? a : b`, `!isIP(host)`): the measured run would otherwise ask for it, and learn once more.
  if (isUsed(ret) || input.usage.declared?.returns || (trace?.called && input.resultUsed)) {
    // A loop it is called in never ended with its result (Trace.endsAfter): it ends, as a cursor does (a function named `args` would find its parameter by that name).
    const ends = trace?.endsAfter !== undefined && fname !== 'args' ? `(${fname}.calls = (${fname}.calls || 0) + 1) > ${trace.endsAfter} ? null : ` : '';
    body.push(`return ${ends}${parts.ref(`${id}()`)};`);
    returnType = `${parts.ref(`${id}()`)}${ends ? ' | null' : ''}`;
  }
  let source = `function ${fname}(...args) {${body.length > 0 ? ` ${body.join(' ')} ` : ''}}`;
  let type = `(...args: any[]) => ${returnType}`;
  if (statics.length > 0) {
    const statik = objectLiteral(id, statics, parts, trace?.keyedBy);
    source = `Object.assign(${source}, ${statik.source})`;
    type = `(${type}) & ${statik.type}`;
  }
  return { source, type };
}

/** Builds the value of one category from the trace, as a one-line expression with its parts as refs. */
export function synthesize(category: Category, input: SynthesisInput): Proposal {
  const { id, name, facts, traces, usage } = input;
  const parts = new Parts();
  const trace = facts.trace;
  const done = (source: string, type: string): Proposal => ({ source, refs: parts.refs, category, type });
  switch (category) {
    case 'string': {
      // JSON text: of the value learnt from how the snippet used what JSON.parse gave.
      if (trace?.jsonParsed) return done(`JSON.stringify(${parts.ref(jsonElementId(id))})`, 'string');
      const s = chooseString(id, name, facts, traces, usage);
      return done(jsString(s), 'string');
    }
    case 'number': return done(String(chooseNumber(name, trace?.compared ?? [], usage, trace?.tests)), 'number');
    case 'boolean': return done(String(chooseBoolean(trace?.compared ?? [], trace?.tests ?? [])), 'boolean');
    case 'tuple': {
      const indexed = (trace?.reads ?? []).filter((k) => /^\d+$/.test(k)).map(Number);
      const n = Math.min(16, Math.max(trace?.pattern ?? 0, usage.arrayPattern?.length ?? 0, indexed.length ? Math.max(...indexed) + 1 : 0, 1));
      const items = Array.from({ length: n }, (_, i) => parts.ref(`${id}[${i}]`));
      return done(`[${items.join(', ')}]`, `[${items.join(', ')}]`);
    }
    case 'array': {
      if (trace?.emptied) return done('[]', 'unknown[]'); // an exploration scenario's outcome: the loop runs no turn
      // Every element seen is kept, each from its own trace: a pair destructured from each, or two loop turns.
      let used = 0;
      while (used < 16 && isUsed(traces.get(`${id}[${used}]`))) used++;
      if (used >= 2) {
        const items = Array.from({ length: used }, (_, i) => parts.ref(`${id}[${i}]`));
        return done(`[${items.join(', ')}]`, `(${[...new Set(items)].join(' | ')})[]`);
      }
      const element = `${id}[0]`;
      const hasElement = isUsed(traces.get(element)) || (trace?.iterated ?? false);
      const n = chooseLength(id, traces, hasElement ? 1 : 0);
      if (n === 0) return done('[]', 'unknown[]');
      const item = parts.ref(element);
      return done(`[${Array.from({ length: n }, () => item).join(', ')}]`, `${item}[]`);
    }
    case 'object': {
      const o = objectLiteral(id, objectKeys(trace, new Set()), parts, trace?.keyedBy);
      return done(o.source, o.type);
    }
    case 'function': {
      const f = functionSource(input, parts, 'function');
      return done(f.source, f.type);
    }
    case 'class': {
      const c = functionSource(input, parts, 'class');
      return done(c.source, c.type);
    }
    case 'promise': {
      const v = parts.ref(`await ${id}`);
      return done(`Promise.resolve(${v})`, `Promise<${v}>`);
    }
    case 'Error': {
      if (!trace?.failure) return { ...dummyFor('Error', id, name), type: 'Error' };
      // A failure an exploration scenario asked for: an Error, with the members the snippet read of it.
      const members = objectKeys(trace, new Set(['message', 'stack', 'name']));
      const error = failureSource(id);
      if (members.length === 0) return done(error, 'Error');
      const o = objectLiteral(id, members, parts);
      return done(`Object.assign(${error}, ${o.source})`, `Error & ${o.type}`);
    }
    case 'Dummy': return { ...dummyFor('Dummy', id, name), type: 'any' };
    default: {
      const d = dummyFor(category, id, name, trace?.pattern);
      return { ...d, type: TYPE_OF[category] ?? 'any' };
    }
  }
}

const TYPE_OF: Partial<Record<Category, string>> = {
  undefined: 'undefined', null: 'null', Map: 'Map<any, any>', Set: 'Set<any>', Date: 'Date', RegExp: 'RegExp', Error: 'Error', element: 'HTMLElement',
};
