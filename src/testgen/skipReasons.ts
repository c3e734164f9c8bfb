/**
 * Why gen-tests skips a recorded call: one kind per reason docs/guide/record.md lists, each with the label
 * the summary counts it under.
 */
export const SKIP_KINDS = {
  redacted: 'a redacted value',
  'not-json-safe': 'a value that is not JSON-safe',
  'function-value': 'a function value',
  unreachable: 'a function not reachable from its module',
  'unreachable-class': 'a class not reachable from a program module',
  'private-state': 'state Object.create cannot rebuild',
  generator: 'a generator',
  'unmockable-child': 'a child that cannot be mocked',
  'time-dependent': 'a result that depends on the time or hidden state',
  'module-state': 'a function reading module state earlier calls set',
  'changed-signature': 'a changed signature',
  'missing-source': 'a module that is missing or does not parse',
  'replay-differs': 'a replay that differs from the recording',
} as const;

export type SkipKind = keyof typeof SKIP_KINDS;

/** One recorded call gen-tests did not turn into a test, and why (`reason` is one line). */
export interface SkippedCall {
  readonly callId: number;
  readonly qualname: string;
  readonly module: string;
  readonly kind: SkipKind;
  readonly reason: string;
}

/** A reason to skip: its kind and the one-line detail. */
export interface SkipReason {
  readonly kind: SkipKind;
  readonly detail: string;
}

export function skip(kind: SkipKind, detail: string): SkipReason {
  return { kind, detail: detail.replace(/\s+/g, ' ') };
}

/** The line `--verbose` prints on stderr for a skipped call: `skipped lib/cart.js#Cart.total (call 4): …`. */
export function formatSkipped(skipped: SkippedCall): string {
  return `skipped ${skipped.module}#${skipped.qualname} (call ${skipped.callId}): ${skipped.reason}`;
}

/**
 * `gen-tests: 7 tests in 2 files; 3 calls skipped (2 a generator, 1 a redacted value)`; `ranInside`
 * of the skipped calls (anonymous and nested functions) run inside a test that counts them: `…; 2 of
 * them run and counted inside another call's test`.
 */
export function summarize(tests: number, files: number, skipped: readonly SkippedCall[], ranInside = 0): string {
  const counts = new Map<SkipKind, number>();
  for (const call of skipped) counts.set(call.kind, (counts.get(call.kind) ?? 0) + 1);
  const byKind = [...counts].sort((a, b) => b[1] - a[1] || SKIP_KINDS[a[0]].localeCompare(SKIP_KINDS[b[0]])).map(([kind, count]) => `${count} ${SKIP_KINDS[kind]}`);
  const head = `gen-tests: ${tests} ${tests === 1 ? 'test' : 'tests'} in ${files} ${files === 1 ? 'file' : 'files'}`;
  const inside = ranInside > 0 ? `; ${ranInside} of them run and counted inside another call's test` : '';
  return skipped.length === 0 ? `${head}; no call skipped` : `${head}; ${skipped.length} ${skipped.length === 1 ? 'call' : 'calls'} skipped (${byKind.join(', ')})${inside}`;
}

/** What the by-kind lines need of a skipped call (gen-tests' SkippedCall, --ai's AiSkipped). */
export interface SkipEntry<Kind extends string> {
  readonly kind: Kind;
  readonly module: string;
  readonly qualname: string;
  readonly callId: number;
  readonly reason: string;
}

/** Functions named in a by-kind line; the rest are counted. */
const NAMED_FUNCTIONS = 3;

/**
 * One line per kind of skip, the most frequent first, in place of a line per call (an inline
 * callback called 10,000 times is one line): `skipped 48 calls (a function not reachable from its
 * module): main.js#<anonymous>@3 ×40, main.js#helper ×8; e.g. call 2: an anonymous function`.
 */
export function summarizeSkipKinds<Kind extends string>(skipped: readonly SkipEntry<Kind>[], label: (kind: Kind) => string, noun = 'call'): string[] {
  const byKind = new Map<Kind, SkipEntry<Kind>[]>();
  for (const s of skipped) {
    const list = byKind.get(s.kind);
    if (list) list.push(s);
    else byKind.set(s.kind, [s]);
  }
  const kinds = [...byKind].sort((a, b) => b[1].length - a[1].length || label(a[0]).localeCompare(label(b[0])));
  return kinds.map(([kind, entries]) => {
    const byFunction = new Map<string, number>();
    for (const e of entries) byFunction.set(`${e.module}#${e.qualname}`, (byFunction.get(`${e.module}#${e.qualname}`) ?? 0) + 1);
    const functions = [...byFunction].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const named = functions.slice(0, NAMED_FUNCTIONS).map(([name, count]) => (count === 1 ? name : `${name} ×${count}`));
    const more = functions.length - named.length;
    const first = entries.reduce((a, b) => (b.callId < a.callId ? b : a));
    const prefix = `${label(kind)}: `;
    const detail = first.reason.startsWith(prefix) ? first.reason.slice(prefix.length) : first.reason;
    const count = `${entries.length} ${noun}${entries.length === 1 ? '' : 's'}`;
    return `skipped ${count} (${label(kind)}): ${named.join(', ')}${more > 0 ? `, ${more} more function${more === 1 ? '' : 's'}` : ''}; e.g. call ${first.callId}: ${detail}`;
  });
}

/** Whether a planning step answered with a reason to skip instead of its result. */
export function isSkip(value: object): value is SkipReason {
  return 'detail' in value;
}
