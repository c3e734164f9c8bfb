import type * as t from '@babel/types';
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

/** A value hook call (`hook.m(sid, …)`) as the instrumenter made it: the identifier of its method, and its site. */
export interface SiteCall {
  readonly property: t.Identifier;
  readonly site: number;
}

/**
 * Gives each value hook call the location of its site's operation, for the source map; called once
 * the sites are final (a switch's site takes its line after its call is made). The instrumenter
 * lists the calls as it makes them, so no walk of the instrumented tree looks for them.
 */
export function locateSiteCalls(calls: readonly SiteCall[], sites: readonly HookSite[]): void {
  for (const { property, site: id } of calls) {
    const site = sites[id];
    if (site === undefined || site.line <= 0) continue;
    const [line, column] = site.point ?? [site.line, site.column];
    const at = { line, column: column - 1, index: -1 };
    property.loc = { start: at, end: at, filename: '', identifierName: undefined };
  }
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
