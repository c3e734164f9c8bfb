import type { CallTrace } from './callTrace.ts';

// Taken when loaded, before the program runs: a program that patches JSON does not change the file.
const stringify = JSON.stringify;

/** The trace file's text, in callTrace.ts's layout: one call per line, so a reader can name the line of a bad record. */
export function formatTrace(trace: CallTrace): string {
  const { calls, ...head } = trace;
  const opening = stringify({ ...head, calls: [] }).slice(0, -3); // without `[]}`
  if (calls.length === 0) return `${opening}[]}\n`;
  return `${opening}[\n${calls.map((c) => stringify(c)).join(',\n')}\n]}\n`;
}
