import type * as t from '@babel/types';
import type { BranchKind } from '../core/coverageDetail.ts';

export type HookKind =
  | 'global' | 'member' | 'call' | 'method-call' | 'new' | 'this' | 'destructure'
  | 'iterate' | 'await' | 'require' | 'import' | 'operator' | 'throw';

export interface StatementInfo {
  readonly id: number;
  readonly line: number;
  readonly column: number;
  readonly type: string;
  /** Inside another measured statement that starts on the same line: that one decides the line. */
  readonly nested?: boolean;
}
export interface BranchInfo {
  readonly id: number;
  readonly line: number;
  readonly column: number;
  readonly kind: BranchKind;
  readonly outcomes: number;
  /** A loop's last line (its test's, for `do … while`): the hook sites in lines `line` to `end` run in it (endStalledLoops.ts). */
  readonly end?: number;
}
export interface HookSite {
  readonly id: number;
  readonly kind: HookKind;
  readonly line: number;
  readonly column: number;
  /** The hooked expression as V8 names it in an error message (`a.b(...)`), cut to 1,000 characters. */
  readonly text: string;
  /** The TypeError messages V8 gives this operation, for a null or undefined value and for any other (see v8CallSite.ts). */
  readonly messages?: readonly [nullish: string, other: string];
  /** Key into the usage table: how the value this site produces is used. */
  readonly usageKey: string;
  /** Name, property or module specifier, where the site has one. */
  readonly name?: string;
  /** For a decision a recording proxy may answer: the answer that runs more of the code. */
  readonly prefer?: boolean;
  /** For a `switch` discriminant: its cases' literal values, in order (exploration takes each in turn). */
  readonly cases?: readonly (string | number | boolean)[];
  /**
   * [line, column] where V8 points for this operation in a stack frame, when not the expression's
   * start: the property of `a.b` and of `a.b(…)` (src/instrument/stackPositions.ts).
   */
  readonly point?: readonly [number, number];
}

/**
 * A function of the snippet's own code, counted each time it is called (its body starts): istanbul's
 * function coverage. Its counter is a slot after the statements' (functionCounter), so it never
 * counts toward a line.
 */
export interface FunctionInfo {
  readonly id: number;
  /** Its name, as istanbul names it: declared, bound (`const f = () => …`, `o.m = function …`, a method), else `(anonymous_N)`. */
  readonly name: string;
  readonly line: number;
  readonly column: number;
}

/** A `try` with a `catch`: the lines of its block and of its catch clause's body (exploration makes a callee in the block fail). */
export interface TryInfo {
  readonly block: readonly [from: number, to: number];
  readonly handler: readonly [from: number, to: number];
}

/** The static map of a snippet: measured statements, branches and hook sites, with source locations. */
export interface CoverageMap {
  readonly statements: readonly StatementInfo[];
  readonly branches: readonly BranchInfo[];
  readonly sites: readonly HookSite[];
  readonly tries?: readonly TryInfo[];
  readonly functions?: readonly FunctionInfo[];
}

/** How many counters a run keeps: one per statement, then one per function. */
export function counterCount(map: CoverageMap): number {
  return map.statements.length + (map.functions?.length ?? 0);
}

/** The counter of a function: the slot after the statements' and the functions' before it. */
export function functionCounter(map: CoverageMap, fn: FunctionInfo): number {
  return map.statements.length + fn.id;
}

/** Numbers statements, branches and hook sites; kept apart from the visitor so it can be tested alone. */
export class CoverageModel implements CoverageMap {
  readonly statements: StatementInfo[] = [];
  readonly branches: BranchInfo[] = [];
  readonly sites: HookSite[] = [];
  readonly tries: TryInfo[] = [];
  readonly functions: FunctionInfo[] = [];

  private readonly statementIds = new WeakMap<t.Node, number>();
  private readonly functionNodes = new WeakSet<t.Node>();
  /** The counter argument of each function's hook call, numbered once the statements are (finishFunctions). */
  private readonly functionCounters: t.NumericLiteral[] = [];

  /** The id of an original statement, numbered on first use (a jump out of a loop may ask before the loop is placed). */
  newStatement(node: t.Node, nested = false): number {
    const known = this.statementIds.get(node);
    if (known !== undefined) return known;
    const id = this.statements.length;
    this.statements.push({ id, line: lineOf(node), column: columnOf(node), type: node.type, ...(nested ? { nested } : {}) });
    this.statementIds.set(node, id);
    return id;
  }

  /**
   * A function of the snippet, once, with the literal its counter call takes (finishFunctions sets
   * it once the statements are numbered). False for a function met before.
   */
  newFunction(node: t.Function, name: string | undefined, counter: t.NumericLiteral): boolean {
    if (this.functionNodes.has(node)) return false;
    this.functionNodes.add(node);
    const id = this.functions.length;
    this.functions.push({ id, name: name ?? `(anonymous_${id})`, line: lineOf(node), column: columnOf(node) });
    this.functionCounters.push(counter);
    return true;
  }

  /** After the traversal: each counter call gets its function's slot (functionCounter). */
  finishFunctions(): void {
    this.functions.forEach((f, i) => { this.functionCounters[i]!.value = functionCounter(this, f); });
  }

  /** A line the repair dropped: measured as a statement that never runs, so it stays uncovered. */
  newDroppedLine(line: number): number {
    const id = this.statements.length;
    this.statements.push({ id, line, column: 1, type: 'DroppedLine' });
    return id;
  }

  newTry(node: t.TryStatement): void {
    if (!node.handler || !node.block.loc || !node.handler.body.loc) return;
    this.tries.push({ block: [node.block.loc.start.line, node.block.loc.end.line], handler: [node.handler.body.loc.start.line, node.handler.body.loc.end.line] });
  }

  newBranch(node: t.Node, kind: BranchKind, outcomes: number): number {
    const id = this.branches.length;
    this.branches.push({ id, line: lineOf(node), column: columnOf(node), kind, outcomes, ...(kind === 'loop' && node.loc ? { end: node.loc.end.line } : {}) });
    return id;
  }

  newSite(node: t.Node, kind: HookKind, text: string, usageKey: string, name?: string, prefer?: boolean, messages?: readonly [string, string]): number {
    const id = this.sites.length;
    const site: HookSite = { id, kind, line: lineOf(node), column: columnOf(node), text: text.slice(0, 1000), usageKey };
    const point = pointOf(node);
    const moved = point === undefined ? {} : { point };
    this.sites.push({ ...site, ...(name === undefined ? {} : { name }), ...(prefer === undefined ? {} : { prefer }), ...(messages === undefined ? {} : { messages }), ...moved });
    return id;
  }
}

/**
 * Where V8 points for the operation of a member read or a method call, when that is not the
 * expression's start: the property (`o.x.y` at `y`), or the `[` of a computed one, just before its
 * key. Undefined for any other site.
 */
function pointOf(node: t.Node): readonly [number, number] | undefined {
  const member = node.type === 'CallExpression' || node.type === 'OptionalCallExpression' ? node.callee : node;
  if ((member.type !== 'MemberExpression' && member.type !== 'OptionalMemberExpression') || !member.property.loc) return undefined;
  return [lineOf(member.property), Math.max(1, columnOf(member.property) - (member.computed ? 1 : 0))];
}
function lineOf(node: t.Node): number {
  return node.loc?.start.line ?? 0;
}
function columnOf(node: t.Node): number {
  return (node.loc?.start.column ?? 0) + 1;
}

/** The measured lines: every line on which an original statement starts, ascending. */
export function measuredLines(map: CoverageMap): number[] {
  return [...new Set(map.statements.map((s) => s.line))].sort((a, b) => a - b);
}

/**
 * The covered lines, given each statement's counter: a line is covered when a statement that
 * starts on it is covered, leaving out statements nested inside another statement that starts on
 * the same line: the outer one decides (`while (true) { i++; }` is the loop's line, not `i++`'s).
 */
export function coveredLines(map: CoverageMap, counts: readonly number[] | undefined): Set<number> {
  const heads = new Set(map.statements.filter((s) => !s.nested).map((s) => s.line));
  const covered = new Set<number>();
  for (const s of map.statements) if ((!s.nested || !heads.has(s.line)) && (counts?.[s.id] ?? 0) > 0) covered.add(s.line);
  return covered;
}
