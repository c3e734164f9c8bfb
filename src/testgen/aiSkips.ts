import { SKIP_KINDS, type SkipKind } from './skipReasons.ts';

/** Why `gen-tests --ai` wrote no test for a function or a proposed input, beyond gen-tests' own reasons (skipReasons.ts). */
export const AI_SKIP_KINDS = {
  'no-parameters': 'no parameters to propose inputs for',
  'llm-failed': 'no answer from the model',
  'no-inputs': 'no usable inputs in the reply',
  'did-not-finish': 'a call of the real function that did not finish',
} as const;

export type AiSkipKind = SkipKind | keyof typeof AI_SKIP_KINDS;

/** A function the model gave no test for, or one proposed input that did not become a test, and why (`reason` is one line). */
export interface AiSkipped {
  /** The input's call in the --ai test file (`(call N)`); for a whole function, its first recorded call. */
  readonly callId: number;
  readonly qualname: string;
  readonly module: string;
  readonly kind: AiSkipKind;
  readonly reason: string;
  /** The proposed argument list; absent when the whole function was skipped. */
  readonly input?: readonly unknown[];
}

export function aiSkipLabel(kind: AiSkipKind): string {
  return kind in AI_SKIP_KINDS ? AI_SKIP_KINDS[kind as keyof typeof AI_SKIP_KINDS] : SKIP_KINDS[kind as SkipKind];
}

/** The line the CLI prints on stderr: `skipped --ai shop.js#applyDiscount(10, 150): …`, or `skipped --ai shop.js#total: …` for a whole function. */
export function formatAiSkipped(skipped: AiSkipped): string {
  const input = skipped.input === undefined ? '' : `(${skipped.input.map((value) => JSON.stringify(value) ?? 'undefined').join(', ')})`;
  const shown = input.length > 120 ? `${input.slice(0, 117)}…)` : input;
  return `skipped --ai ${skipped.module}#${skipped.qualname}${shown}: ${skipped.reason}`;
}

/** `gen-tests --ai: 5 tests in 1 file from 8 proposed inputs (3 requests); 4 skipped (2 no answer from the model, …)`. */
export function summarizeAi(counts: { tests: number; files: number; inputs: number; requests: number }, skipped: readonly AiSkipped[]): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const byKind = new Map<AiSkipKind, number>();
  for (const s of skipped) byKind.set(s.kind, (byKind.get(s.kind) ?? 0) + 1);
  const kinds = [...byKind].sort((a, b) => b[1] - a[1] || aiSkipLabel(a[0]).localeCompare(aiSkipLabel(b[0]))).map(([kind, n]) => `${n} ${aiSkipLabel(kind)}`);
  const head = `gen-tests --ai: ${plural(counts.tests, 'test')} in ${plural(counts.files, 'file')} from ${plural(counts.inputs, 'proposed input')} (${plural(counts.requests, 'request')})`;
  return skipped.length === 0 ? `${head}; nothing skipped` : `${head}; ${skipped.length} skipped (${kinds.join(', ')})`;
}
