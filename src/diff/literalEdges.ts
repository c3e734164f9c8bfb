import type { Definition } from '../engine/definition.ts';
import type { CodeLiteral } from './changedLiterals.ts';
import type { EdgeValue } from './edgeValues.ts';

/** The literals of one driven function's changed code (changedLiterals), by the drive target's name. */
export interface EntryLiterals {
  readonly target: string;
  readonly literals: readonly CodeLiteral[];
}

/**
 * The literals by the innermost driven function around them (`entries`: each one's lines and drive
 * target): an IIFE's member, not the IIFE, whose string inputs are what the literals test.
 */
export function literalsByEntry(literals: readonly CodeLiteral[], entries: readonly { readonly from: number; readonly to: number; readonly target: string }[]): EntryLiterals[] {
  const byEntry = new Map<string, CodeLiteral[]>();
  for (const l of literals) {
    const around = entries.filter((e) => l.line >= e.from && l.line <= e.to).sort((a, b) => b.from - a.from)[0];
    if (around) byEntry.set(around.target, [...(byEntry.get(around.target) ?? []), l]);
  }
  return [...byEntry].map(([target, list]) => ({ target, literals: list }));
}

/** An argument of a driven function, or a member or element below one: `parse#arg0`, `parse#arg1.delimiter`, `f#arg0[1]`. */
const INPUT_PATH = /^#arg\d+(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;

/**
 * Strings built from the changed code's own literals, for the string inputs of the driven function
 * around them: the learnt string with the literal appended (`'example' + 'Z'`), the literal alone,
 * the literal before the learnt string, and the learnt string joined by all of them, the literals
 * the changed lines depend on first (`'example=example,example'`: the `=` a key is cut at, then the
 * `,` the new code splits the value on). The trace generator learns 'example'-like strings, which
 * hold none of the tokens the code compares or splits on; the branch a change adds for one of them
 * is reached only with it. Most promising first: each input's appended forms, then the joined one,
 * then the literal alone and prepended; at most `cap`.
 */
export function literalEdges(defs: ReadonlyMap<string, Definition>, entries: readonly EntryLiterals[], cap: number): EdgeValue[] {
  const rounds: EdgeValue[][] = [[], [], [], []];
  for (const { target, literals } of entries) {
    const singles = distinct(literals, true);
    const joins = distinct(literals, false);
    for (const d of defs.values()) {
      if (d.proposal.probe || d.proposal.category !== 'string' || !d.id.startsWith(`${target}#arg`) || !INPUT_PATH.test(d.id.slice(target.length))) continue;
      const learnt = stringOf(d.proposal.source);
      if (learnt === undefined) continue;
      // A literal the learnt string holds already was met by the learnt run.
      const single = singles.filter((v) => !learnt.includes(v));
      const joined = joins.filter((v) => !learnt.includes(v));
      const seen = new Set([learnt]);
      const push = (round: number, value: string, literal: string) => {
        if (seen.has(value)) return;
        seen.add(value);
        rounds[round]!.push({ element: d.id, source: JSON.stringify(value), category: 'string', literal });
      };
      for (const v of single) push(0, learnt + v, v);
      if (joined.length > 1) push(1, learnt + joined.map((v) => v + learnt).join(''), joined.join(' '));
      for (const v of single) push(2, v, v);
      for (const v of single) push(3, v + learnt, v);
    }
  }
  return rounds.flat().slice(0, cap);
}

/** The literals' distinct values, the changed lines' own first (`changedFirst`) or those they depend on first (the order input meets them in), each in source order. */
function distinct(literals: readonly CodeLiteral[], changedFirst: boolean): string[] {
  const rank = (l: CodeLiteral) => (l.changed === changedFirst ? 0 : 1);
  const sorted = [...literals].sort((a, b) => rank(a) - rank(b) || a.line - b.line);
  return [...new Set(sorted.map((l) => l.value))];
}

/** A learnt string's value from its source (`"example"`); undefined for anything else. */
function stringOf(source: string): string | undefined {
  try {
    const value: unknown = JSON.parse(source);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The items of an edge list past the first `cap` whose edge is built from a literal left out: literal edges take a share of the budget, whatever the scenarios. */
export function capLiteralEdges<T extends { readonly edge: EdgeValue }>(list: readonly T[], cap: number): T[] {
  let literal = 0;
  return list.filter((item) => item.edge.literal === undefined || ++literal <= cap);
}
