/**
 * Why gen-tests skips a recorded call: one kind per reason the README lists, each with the label
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

/** The line the CLI prints on stderr for a skipped call: `skipped lib/cart.js#Cart.total (call 4): …`. */
export function formatSkipped(skipped: SkippedCall): string {
  return `skipped ${skipped.module}#${skipped.qualname} (call ${skipped.callId}): ${skipped.reason}`;
}

/** `gen-tests: 7 tests in 2 files; 3 calls skipped (2 a generator, 1 a redacted value)`. */
export function summarize(tests: number, files: number, skipped: readonly SkippedCall[]): string {
  const counts = new Map<SkipKind, number>();
  for (const call of skipped) counts.set(call.kind, (counts.get(call.kind) ?? 0) + 1);
  const byKind = [...counts].sort((a, b) => b[1] - a[1] || SKIP_KINDS[a[0]].localeCompare(SKIP_KINDS[b[0]])).map(([kind, count]) => `${count} ${SKIP_KINDS[kind]}`);
  const head = `gen-tests: ${tests} ${tests === 1 ? 'test' : 'tests'} in ${files} ${files === 1 ? 'file' : 'files'}`;
  return skipped.length === 0 ? `${head}; no call skipped` : `${head}; ${skipped.length} ${skipped.length === 1 ? 'call' : 'calls'} skipped (${byKind.join(', ')})`;
}

/** Whether a planning step answered with a reason to skip instead of its result. */
export function isSkip(value: object): value is SkipReason {
  return 'detail' in value;
}
