import * as t from '@babel/types';
import { SITE_HOOKS } from '../protocol/hooks.ts';
import type { HookSite } from './coverageModel.ts';

/**
 * Stack frames in the original code's positions. The instrumented script is not the snippet: its
 * lines and columns are the generated code's, and a hook call stands where the snippet had an
 * expression. The generator's source map gives each original node's generated position; a hook
 * call, which has no location of its own (it is injected: neither measured nor hooked), is given
 * the position V8 reports for the operation it performs (see HookSite.point) just before the code
 * is generated, so that a frame inside it maps to where Node would point in the original.
 */

/** One generated segment of the decoded source map: [generated column, source, original line, original column, name?], all 0-based. */
type Segment = readonly number[];

/** Gives each value hook call (`hook.m(sid, …)`) the location of its site's operation, for the source map. */
export function locateHookCalls(program: t.Program, hook: string, sites: readonly HookSite[]): void {
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const n of node) stack.push(n);
      continue;
    }
    if (!isNode(node)) continue;
    if (t.isCallExpression(node) && t.isMemberExpression(node.callee) && t.isIdentifier(node.callee.object, { name: hook }) && t.isIdentifier(node.callee.property)) {
      const first = node.arguments[0];
      const site = SITE_HOOKS.has(node.callee.property.name) && t.isNumericLiteral(first) ? sites[first.value] : undefined;
      if (site !== undefined && site.line > 0) {
        const [line, column] = site.point ?? [site.line, site.column];
        const at = { line, column: column - 1, index: -1 };
        node.callee.property.loc = { start: at, end: at, filename: '', identifierName: undefined };
      }
    }
    for (const key of t.VISITOR_KEYS[node.type] ?? []) stack.push((node as unknown as Record<string, unknown>)[key]);
  }
}

function isNode(v: unknown): v is t.Node {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/**
 * The generated-to-original position table the runtime maps stack frames with: one flat list of
 * quadruples [generated line, generated column, original line, original column], lines and
 * columns 1-based as V8 prints them, ordered by generated position.
 */
export function positionTable(mappings: readonly (readonly Segment[])[]): number[] {
  const out: number[] = [];
  for (let line = 0; line < mappings.length; line++) {
    for (const s of mappings[line] ?? []) {
      if (s.length < 4) continue;
      out.push(line + 1, (s[0] ?? 0) + 1, (s[2] ?? 0) + 1, (s[3] ?? 0) + 1);
    }
  }
  return out;
}
