import type * as t from '@babel/types';
import type { FunctionInfo } from './functionNames.ts';

/** What closureMakers reads of a function the instrumentation found. */
export interface NestedFunction {
  readonly node: t.Function;
  readonly info: FunctionInfo;
  /** The function it is nested in, when it is inside that one's body (not its parameters, which do not see the body's variables). */
  readonly enclosing: t.Function | undefined;
}

/**
 * Which functions give the closures in their body their call's id (closureOrigins.ts), and each
 * function's nesting level, which names that variable (`__snx_p0`: a nested function declares its
 * own call variable, shadowing the enclosing one's, so each level has its own name). A function
 * declaring a call variable (all but async generators) with a non-generator function in its body
 * is a maker; a generator is never a maker's closure (its body starts at its first next()).
 */
export function closureMakers(functions: readonly NestedFunction[]): { readonly makers: ReadonlySet<t.Function>; readonly levels: ReadonlyMap<t.Function, number> } {
  const declaresCall = (f: NestedFunction): boolean => !f.info.isGenerator || (!f.info.isAsync && f.node.body.type === 'BlockStatement');
  const byNode = new Map(functions.map((f) => [f.node, f]));
  const levels = new Map<t.Function, number>();
  const makers = new Set<t.Function>();
  for (const f of functions) {
    const outer = f.enclosing === undefined ? undefined : byNode.get(f.enclosing);
    levels.set(f.node, f.enclosing === undefined ? 0 : (levels.get(f.enclosing) ?? 0) + 1);
    if (outer !== undefined && declaresCall(outer) && !f.info.isGenerator) makers.add(outer.node);
  }
  return { makers, levels };
}
