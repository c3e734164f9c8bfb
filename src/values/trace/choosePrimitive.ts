import type { Usage } from '../../instrument/usage.ts';
import type { TraceFacts } from './inferCategory.ts';
import { numberByName, stringByName } from '../nameRules.ts';
import { memberId, type OperandRecord, type TraceView } from '../../protocol/trace.ts';


function usable(c: OperandRecord): boolean {
  return c.value !== undefined && c.value !== '__undefined__' && c.value !== null;
}

/**
 * A number that satisfies the first comparison that constrains it: `> 42` gives 43, `=== 3` gives 3;
 * else one with the truthiness a guard clause was answered with (`if (!n) return;` answered truthy: not 0).
 */
export function chooseNumber(name: string, compared: readonly OperandRecord[], usage: Usage, tests: readonly boolean[] = []): number {
  const all = compared.length > 0 ? compared : (usage.compared ?? []).map((c) => ({ op: c.op, type: c.type, value: c.value ?? undefined }));
  // `v !== v` answered true: the one number not equal to itself.
  if (all.some((c) => c.type === 'self' && c.op === '!==')) return NaN;
  for (const c of all) {
    if (!usable(c) || typeof c.value !== 'number') continue;
    const v = c.value;
    switch (c.op) {
      case '===': case '==': return v;
      case '>': return Number.isInteger(v) ? v + 1 : v + 0.5;
      case '>=': return v;
      case '<': return Number.isInteger(v) ? v - 1 : v - 0.5;
      case '<=': return v;
      case '!==': case '!=': return v + 1;
    }
  }
  const byName = numberByName(name) ?? 1;
  if (tests[0] === false) return 0;
  return tests[0] === true && byName === 0 ? 1 : byName;
}

/**
 * A string that satisfies what was seen: equality with a literal, the arguments of `endsWith`,
 * `startsWith`, `includes`, `indexOf` and `split`, and a compared `length`; else a conventional
 * value for its name.
 */
export function chooseString(id: string, name: string, facts: TraceFacts, traces: TraceView, usage: Usage): string {
  // The trace holds the relations as the learning run answered them; the source's comparisons (usage) are the fallback for a value never compared there.
  const compared = facts.trace?.compared?.length ? facts.trace.compared : (usage.compared ?? []).map((c) => ({ op: c.op, type: c.type, value: c.value ?? undefined }));
  const differs = compared.filter((c) => (c.op === '!==' || c.op === '!=') && typeof c.value === 'string').map((c) => c.value as string);
  // The first equality no earlier answer ruled out: a guard clause's answer (`!== 'off'`) wins over a
  // later `=== 'off'`, and a loop's first answer (`=== '*'`) over the `!== '*'` that ended it.
  const equal = compared.find((c, i) => (c.op === '===' || c.op === '==') && typeof c.value === 'string' && !compared.slice(0, i).some((d) => (d.op === '!==' || d.op === '!=') && d.value === c.value));
  if (equal) return equal.value as string;
  // A guard clause answered falsy (`if (name) { … }` skipped): the empty string.
  if (facts.trace?.tests?.[0] === false) return '';
  let s = stringByName(name) ?? (/^[A-Za-z_$][\w$]*$/.test(name) && !/^(arg\d+|value|part|this)$/.test(name) ? name : 'example');
  if (differs.includes(s)) s = `${s}-other`;
  const arg = (m: string) => facts.methodArgs.get(m)?.find((v): v is string => typeof v === 'string');
  const ends = arg('endsWith');
  if (ends !== undefined && !s.endsWith(ends)) s = s.includes(ends) ? s.slice(0, s.lastIndexOf(ends) + ends.length) : `${s.replace(/\.[a-z]+$/i, '')}${ends}`;
  const starts = arg('startsWith');
  if (starts !== undefined && !s.startsWith(starts)) s = `${starts}${s}`;
  for (const m of ['includes', 'indexOf', 'search']) {
    const needle = arg(m);
    if (needle !== undefined && !s.includes(needle)) s = `${s}${needle}`;
  }
  const sep = arg('split');
  if (sep !== undefined && sep !== '' && !s.includes(sep)) s = `${s}${sep}${s}`;
  const length = traces.get(memberId(id, 'length'));
  if (length?.compared?.length) {
    const n = chooseNumber('length', length.compared, {});
    if (n > s.length) s = s.padEnd(n, 'x');
    else if (n >= 0 && n < s.length) s = s.slice(0, n);
  }
  return s;
}

/** `=== false` and `!== true` ask for false, as does a guard clause best not taken; else true, so tested code runs. */
export function chooseBoolean(compared: readonly OperandRecord[], tests: readonly boolean[] = []): boolean {
  const c = compared.find((x) => typeof x.value === 'boolean');
  if (!c) return tests.length > 0 ? tests[0] === true : true;
  const eq = c.op === '===' || c.op === '==';
  return eq ? (c.value as boolean) : !(c.value as boolean);
}

/**
 * How many elements an array needs for its compared `length`: `length > 2` gives 3; a length a guard
 * clause answered truthy (`if (!arr.length) return;`) gives at least 1, falsy gives `minimum`.
 */
export function chooseLength(id: string, traces: TraceView, minimum: number): number {
  const length = traces.get(memberId(id, 'length'));
  const tested = length?.tests?.[0];
  const n = length?.compared?.length ? chooseNumber('length', length.compared, {}) : tested === true ? 1 : minimum;
  return Math.max(minimum, Math.min(Math.max(0, Math.round(n)), 16));
}
