import type { HookSite } from '../instrument/coverageModel.ts';
import type { Usage } from '../instrument/usage.ts';
import type { ElementKind } from '../core/categories.ts';

/** A request from the isolate's bridge: a value for an element, or the rejection of the current one. */
export interface IsolateRequest {
  op: 'value' | 'reject';
  id: string;
  kind?: ElementKind;
  sid?: number;
  parent?: string;
  key?: string;
  message?: string;
  refine?: boolean;
  error?: string;
}

/** What a failure at an element of each kind shows about how the snippet uses it. */
export const OBSERVED: Partial<Record<ElementKind, Usage>> = {
  callee: { called: 0 },
  constructor: { constructed: true },
  iterable: { iterated: true },
  destructure: { iterated: true },
};

/**
 * The key of the element's static usage: the site's, or for a part its parent's key with the
 * part's own suffix (`parentUsageKey` is that of the parent's definition, when there is one).
 */
export function usageKeyOf(req: IsolateRequest, site: HookSite | undefined, parentUsageKey: string | undefined): string {
  if (req.kind === 'part' && req.parent !== undefined) {
    const base = parentUsageKey ?? req.parent;
    if (req.id.startsWith('await ')) return `await ${base}`;
    return req.id.startsWith(req.parent) ? base + req.id.slice(req.parent.length) : req.id;
  }
  if (!site) return req.id;
  if (req.kind === 'member' && site.kind === 'method-call') return site.usageKey.replace(/\(\)$/, '');
  if (req.kind === 'member' && site.kind === 'destructure' && req.key !== undefined) return `${site.usageKey}.${req.key}`;
  if (req.kind === 'member' && site.kind === 'global') return req.id;
  return site.usageKey;
}

/** The nearest access path with a definition: `a.b.c` is `a.b`'s when `a.b.c` has none of its own. */
export function nearestDefined<T>(id: string, lookup: (id: string) => T | undefined): T | undefined {
  for (let cur = id, guard = 0; cur !== '' && guard < 40; guard++) {
    const found = lookup(cur);
    if (found) return found;
    const m = /^(.*?)(\.[A-Za-z_$][\w$]*|\[[^\]]*\]|\(\)|#[^#]*)$/.exec(cur) ?? /^(?:new |await )(.*)$/.exec(cur);
    if (!m || m[1] === undefined) return undefined;
    cur = m[1];
  }
  return undefined;
}

/** The ids reachable from the non-part definitions through their refs; the rest are dead parts. */
export function liveIds(defs: ReadonlyMap<string, { readonly kind: ElementKind; readonly proposal: { readonly refs: readonly string[] } }>): Set<string> {
  const live = new Set<string>();
  const visit = (id: string): void => {
    if (live.has(id)) return;
    const def = defs.get(id);
    if (!def) return;
    live.add(id);
    for (const ref of def.proposal.refs) visit(ref);
  };
  for (const [id, def] of defs) if (def.kind !== 'part') visit(id);
  return live;
}

/** Whether `id` is `root` or a path below it (`a.b`, `a[0]`, `a()`, `a#arg0` are below `a`). */
export function isWithin(id: string, root: string): boolean {
  if (!id.startsWith(root)) return id.startsWith(`await ${root}`) || id.startsWith(`new ${root}`) ? isWithin(id.slice(id.indexOf(' ') + 1), root) : false;
  const next = id.charAt(root.length);
  return next === '' || next === '.' || next === '[' || next === '(' || next === '#';
}
