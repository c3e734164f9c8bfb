import type { Usage } from '../../instrument/usage.ts';
import { OBJECT_KEYS } from '../apiTypes/platformTypes.ts';
import { memberId, type CallRecord, type Trace, type TraceView } from '../../protocol/trace.ts';
import { countTokens } from '../../llm/countTokens.ts';
import { clipToTokens, nearestFirst } from './promptBudget.ts';

/** Bounds the walk over parts; the token budget decides what is shown. */
const MAX_LINES = 200;
const MAX_DEPTH = 4;
/** Tokens the line "- (12 more lines about its parts not shown)" may take. */
const CUT_MARKER_TOKENS = 16;

/** The heading of a recorded trace, in real requests and in the few-shot examples alike. */
export const RECORDED_HEADING = 'What the snippet did with it (recorded at run time):';

/** The recorded trace block: RECORDED_HEADING and the `- \`id\`: facts` lines, with a marker for lines cut. */
export function recordedBlock(lines: readonly string[], cut = 0): string {
  const more = cut > 0 ? [`- (${cut} more line${cut === 1 ? '' : 's'} about its parts not shown)`] : [];
  return [RECORDED_HEADING, ...lines, ...more].join('\n');
}

/**
 * What recording proxies saw the snippet do with an element and its parts, as short lines for the
 * prompt: members read, calls and their arguments, iteration, comparisons, `await`, `typeof`…
 * At most `budget` tokens: the parts deepest below the element are cut first. Empty when nothing
 * was recorded. Static usage from the syntax fills in when there is no trace.
 */
export function describeUsage(element: string, traces: TraceView, usage: Usage, budget: number): string {
  const lines: { text: string; distance: number }[] = [];
  const seen = new Set<string>();
  const visit = (id: string, depth: number): void => {
    if (seen.has(id) || depth > MAX_DEPTH || lines.length >= MAX_LINES) return;
    seen.add(id);
    const t = traces.get(id);
    if (!t) return;
    const facts = traceFacts(t);
    if (facts.length > 0) lines.push({ text: `- \`${id}\`: ${facts.join('; ')}`, distance: depth });
    for (const key of t.reads ?? []) if (!OBJECT_KEYS.has(key)) visit(memberId(id, key), depth + 1);
    visit(`${id}()`, depth + 1);
    visit(`new ${id}`, depth + 1);
    visit(`await ${id}`, depth + 1);
    for (let i = 0; i < 2; i++) visit(`${id}[${i}]`, depth + 1);
    for (const arg of t.argProbes ?? []) visit(arg, depth + 1);
  };
  visit(element, 0);
  if (lines.length > 0) {
    // The heading and the marker of cut lines come out of the budget first.
    const { kept, cut } = nearestFirst(lines, budget - countTokens(`${RECORDED_HEADING}\n`) - CUT_MARKER_TOKENS);
    return recordedBlock(kept.map((l) => l.text), cut);
  }
  const fromSyntax = staticFacts(usage);
  return fromSyntax.length > 0 ? clipToTokens(`How the snippet uses it (from the code): ${fromSyntax.join('; ')}`, budget) : '';
}

function traceFacts(t: Trace): string[] {
  const out: string[] = [];
  const reads = (t.reads ?? []).filter((k) => !OBJECT_KEYS.has(k));
  if (reads.length > 0) out.push(`reads ${reads.map((k) => `.${k}`).join(', ')}`);
  if (t.writes?.length) out.push(`assigns ${t.writes.map((k) => `.${k}`).join(', ')}`);
  if (t.has?.length) out.push(`tests \`in\` for ${t.has.join(', ')}`);
  if (t.calls?.length) out.push(`called with ${t.calls.slice(0, 3).map(describeCall).join(' and ')}`);
  else if (t.called) out.push('called');
  if (t.constructs?.length) out.push(`constructed with new, with ${t.constructs.slice(0, 2).map(describeCall).join(' and ')}`);
  else if (t.constructed) out.push('constructed with new');
  if (t.iterated) out.push('iterated');
  if (t.asyncIterated) out.push('iterated with for await');
  if (t.pattern) out.push(`destructured into ${t.pattern} elements`);
  if (t.awaited) out.push('awaited');
  if (t.promiseMethods?.length) out.push(`its ${t.promiseMethods.map((m) => `.${m}`).join(', ')} called`);
  if (t.typeofs?.length) out.push(`typeof compared with ${t.typeofs.map((s) => JSON.stringify(s)).join(', ')}`);
  if (t.instanceOf?.length) out.push(`instanceof ${t.instanceOf.join(', ')}`);
  if (t.compared?.length) out.push(`compared: ${t.compared.slice(0, 4).map((c) => `${c.op} ${operand(c)}`).join(', ')}`);
  if (t.arith?.length) out.push(`used in arithmetic: ${t.arith.slice(0, 4).map((c) => `${c.op} ${operand(c)}`).join(', ')}`);
  if (t.hints?.length) out.push(`converted to ${[...new Set(t.hints)].join(', ')}`);
  if (t.keysListed) out.push('its keys listed');
  return out;
}

function describeCall(c: CallRecord): string {
  if (c.argc === 0) return '()';
  const args = c.args.slice(0, 6).map((kind, i) => {
    const cb = c.callbacks.find((x) => x.index === i && x.prop === undefined);
    if (cb) return `function(${cb.names.join(', ')})`;
    const v = c.values[i];
    return v !== null && v !== undefined ? JSON.stringify(v).slice(0, 40) : kind === 'probe' ? 'a snipexec value' : kind;
  });
  return `(${args.join(', ')}${c.argc > 6 ? ', …' : ''})`;
}

function operand(c: { type: string; value?: unknown }): string {
  if (c.value === '__undefined__') return 'undefined';
  return c.value !== undefined ? JSON.stringify(c.value) : `a ${c.type}`;
}

function staticFacts(u: Usage): string[] {
  const out: string[] = [];
  if (u.called !== undefined) out.push(`called with ${u.called} argument(s)${u.callbackArgs?.length ? `, a callback at position ${u.callbackArgs.join(', ')}` : ''}`);
  if (u.constructed) out.push('constructed with new');
  if (u.methods?.length) out.push(`methods called: ${u.methods.join(', ')}`);
  if (u.members?.length) out.push(`members read: ${u.members.join(', ')}`);
  if (u.assignedMembers?.length) out.push(`members assigned: ${u.assignedMembers.join(', ')}`);
  if (u.iterated) out.push('iterated');
  if (u.awaited) out.push('awaited');
  if (u.arrayPattern) out.push(`destructured into ${u.arrayPattern.length} elements`);
  if (u.objectPattern) out.push(`destructured into ${Object.keys(u.objectPattern).join(', ')}`);
  if (u.arithmetic) out.push('used in arithmetic');
  if (u.compared?.length) out.push(`compared with ${u.compared.map((c) => `${c.op} ${c.value !== undefined ? JSON.stringify(c.value) : c.type}`).join(', ')}`);
  if (u.typeofCompared?.length) out.push(`typeof compared with ${u.typeofCompared.join(', ')}`);
  if (u.instanceOf?.length) out.push(`instanceof ${u.instanceOf.join(', ')}`);
  return out;
}
