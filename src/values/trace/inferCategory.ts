import type { Usage } from '../../instrument/usage.ts';
import { instanceCategory, OBJECT_KEYS, platformValue, REGEXP_KEYS, reveals, REVEALING, SHARED_SEQUENCE_METHODS, type RevealedCategory } from '../apiTypes/platformTypes.ts';
import { rankCategories } from '../classifyHeuristic.ts';
import { guessedByName } from '../nameRules.ts';
import type { Category } from '../../core/categories.ts';
import { isUsed, memberId, type Trace, type TraceView } from '../../protocol/trace.ts';

export interface TraceFacts {
  readonly trace: Trace | undefined;
  /** Members read, and called among them. */
  readonly reads: readonly string[];
  readonly methods: readonly string[];
  readonly methodArgs: ReadonlyMap<string, readonly (string | number | boolean | null)[]>;
}

export function factsOf(id: string, trace: Trace | undefined, traces: TraceView): TraceFacts {
  const reads = (trace?.reads ?? []).filter((k) => !OBJECT_KEYS.has(k));
  const methods: string[] = [];
  const methodArgs = new Map<string, (string | number | boolean | null)[]>();
  for (const k of reads) {
    const child = traces.get(memberId(id, k));
    if (child?.called) {
      methods.push(k);
      methodArgs.set(k, (child.calls ?? []).flatMap((c) => c.values.slice(0, 1)));
    }
  }
  return { trace, reads, methods, methodArgs };
}

/** The methods every function has and other values do not: calling one says the value is a function. */
const FUNCTION_METHODS: ReadonlySet<string> = new Set(['apply', 'call', 'bind']);

/** `re.test(s)` and `re.exec(s)`, one string and no callback: not `child_process.exec(cmd, cb)`. */
function looksLikeRegExp(id: string, facts: TraceFacts, traces: TraceView): boolean {
  if (!facts.methods.some((m) => m === 'test' || m === 'exec') || !facts.reads.every((k) => REGEXP_KEYS.has(k))) return false;
  return facts.methods.every((m) => (traces.get(memberId(id, m))?.calls ?? []).every((c) => c.argc === 1 && c.callbacks.length === 0));
}

function onlyTested(t: Trace): boolean {
  return !t.reads?.length && !t.writes?.length && !t.has?.length && !t.called && !t.constructed && !t.iterated && !t.asyncIterated && !t.pattern &&
    !t.compared?.length && !t.arith?.length && !t.typeofs?.length && !t.instanceOf?.length && !t.awaited && !t.promiseMethods?.length && !t.hints?.length;
}

/**
 * Ranks the categories a traced element can be, most likely first: what it was seen to do (be
 * called, constructed, awaited, iterated, compared, given string methods…), then static usage,
 * then naming conventions.
 */
export function inferCategories(id: string, name: string, facts: TraceFacts, usage: Usage, traces: TraceView): Category[] {
  const out: Category[] = [];
  const add = (c: Category | undefined) => { if (c !== undefined && !out.includes(c)) out.push(c); };
  const t = facts.trace;
  const has = (c: RevealedCategory) => reveals(c, facts.methods, facts.reads);
  const compared = t?.compared ?? [];
  const types = new Set(compared.filter((c) => c.value !== '__undefined__' && c.type !== 'null' && c.type !== 'undefined').map((c) => c.type));
  const numericIndex = facts.reads.some((k) => /^\d+$/.test(k));
  if (name === 'this') add('object');
  if (t?.jsonParsed) add('string'); // JSON text
  if (t?.failure) add('Error');
  // What the snippet declares (a type annotation, JSDoc) wins over what its use suggests.
  add(usage.declared?.category);
  // What the platform's types give a member or a method's result (`items.length`, `e.preventDefault()`) comes first.
  add(platformValue(id)?.category);
  // Not equal to itself (`v !== v` in the source, answered true): NaN.
  if (compared.some((c) => c.type === 'self' && c.op === '!==')) add('number');
  // `class X extends Base` reads Base.prototype; a value both called and constructed is a constructor function.
  if ((t?.constructed || facts.reads.includes('prototype')) && !t?.called) add('class');
  if (t?.constructed && t.called) add('function');
  if (t?.called) add('function');
  // `helper.apply(this, args)`, `fn.call(ctx)`, `cb.bind(this)`: what has those and nothing else of an object is a function.
  if (facts.methods.some((m) => FUNCTION_METHODS.has(m)) && facts.reads.every((k) => FUNCTION_METHODS.has(k) || k === 'name' || k === 'length')) add('function');
  // What `await` gave is never a promise itself: await unwraps promises all the way.
  if ((t?.awaited || t?.promiseMethods?.length) && !id.startsWith('await ')) add('promise');
  for (const target of t?.instanceOf ?? []) add(target.startsWith('@') ? 'object' : instanceCategory(target));
  for (const tp of t?.typeofs ?? []) add(tp === 'string' || tp === 'number' || tp === 'boolean' || tp === 'function' ? tp : tp === 'object' ? 'object' : undefined);
  if (t?.pattern) add('tuple');
  // Only tested by an `if` (`if (done) return;`, `if (isDeep) {…}`): a flag, false or true as the branch wants.
  if (t?.tests?.length && onlyTested(t)) add('boolean');
  if (has('Date') && !has('string')) add('Date');
  if (looksLikeRegExp(id, facts, traces)) add('RegExp');
  if (has('element')) add('element');
  if (has('string')) add('string');
  if (has('array') || t?.iterated || numericIndex) add(numericIndex && !has('array') && !t?.iterated ? 'tuple' : 'array');
  if (has('number')) add('number');
  if (facts.methods.includes('get') && facts.methods.includes('set') && !facts.reads.some((k) => k !== 'get' && k !== 'set' && k !== 'has' && k !== 'delete' && k !== 'size')) add('Map');
  if (facts.methods.includes('add') && facts.methods.includes('has')) add('Set');
  if (facts.reads.some((k) => SHARED_SEQUENCE_METHODS.has(k))) {
    const stringArg = facts.methods.some((m) => SHARED_SEQUENCE_METHODS.has(m) && facts.methodArgs.get(m)?.some((v) => typeof v === 'string'));
    // `s.slice(1).replace(…)`: what is done with the result says what the value is.
    const results = facts.methods.filter((m) => SHARED_SEQUENCE_METHODS.has(m)).map((m) => traces.get(`${memberId(id, m)}()`)?.reads ?? []);
    const resultString = results.some((r) => r.some((k) => REVEALING.string.methods.has(k)));
    const resultArray = results.some((r) => r.some((k) => REVEALING.array.methods.has(k)));
    const named = guessedByName(name, usage);
    add(stringArg || resultString || (!resultArray && (facts.reads.includes('length') || named.includes('string'))) ? 'string' : 'array');
  }
  for (const tp of types) add(tp === 'string' || tp === 'number' || tp === 'boolean' ? tp : undefined);
  for (const a of t?.arith ?? []) add(a.op === '+' && a.type === 'string' ? 'string' : 'number');
  if (facts.reads.length > 0 || (t?.has?.length ?? 0) > 0 || (t?.writes?.length ?? 0) > 0) {
    // Only `length` read: a string is the simplest thing that has one.
    if (facts.reads.length === 1 && facts.reads[0] === 'length' && !t?.has?.length) add(guessedByName(name, usage).includes('array') ? 'array' : 'string');
    if (facts.reads.every((k) => k === 'message' || k === 'stack' || k === 'code' || k === 'name') && facts.reads.some((k) => k === 'message' || k === 'stack')) add('Error');
    add('object');
  }
  if (t?.hints?.includes('number')) add('number');
  if (!isUsed(t)) for (const c of guessedByName(name, usage)) add(c);
  for (const c of rankCategories(usage, name)) if (out.length === 0 || c !== 'object' || facts.reads.length > 0) add(c);
  if (t?.hints?.length) add('string');
  add('string');
  add('object');
  add('Dummy');
  return id.startsWith('await ') ? out.filter((c) => c !== 'promise') : out;
}
