import type { Trace, TraceTable, TraceView } from '../protocol/trace.ts';

const MAX_LIST = 16;
const LISTS = ['reads', 'writes', 'has', 'calls', 'constructs', 'hints', 'compared', 'arith', 'typeofs', 'instanceOf', 'promiseMethods', 'argProbes', 'tests', 'keyedBy'] as const;
const FLAGS = ['iterated', 'asyncIterated', 'awaited', 'keysListed', 'protoRead', 'emptied', 'jsonParsed', 'failure', 'callbackLoop'] as const;
const COUNTS = ['called', 'constructed', 'pattern'] as const;

/**
 * The traces of one snippet, merged over its learning runs. A trace only grows; `merge` reports
 * which elements learnt something new, and links each child to its parent so a member found
 * missing later is also a member the parent is known to have.
 */
export class TraceStore implements TraceView {
  private readonly traces = new Map<string, Trace>();

  get(id: string): Trace | undefined {
    return this.traces.get(id);
  }

  /** Every trace learnt, in the order first seen. */
  all(): IterableIterator<Trace> {
    return this.traces.values();
  }

  get size(): number {
    return this.traces.size;
  }

  /** Merges one run's traces; returns the ids whose trace changed, with their ancestors. */
  merge(table: TraceTable | undefined): Set<string> {
    const changed = new Set<string>();
    if (!table) return changed;
    for (const incoming of Object.values(table)) {
      if (!incoming || typeof incoming.id !== 'string') continue;
      if (this.mergeOne(incoming)) changed.add(incoming.id);
      if (incoming.parent !== undefined && this.linkToParent(incoming)) changed.add(incoming.parent);
    }
    for (const id of [...changed]) {
      for (let p = this.traces.get(id)?.parent, guard = 0; p !== undefined && guard < 50; p = this.traces.get(p)?.parent, guard++) changed.add(p);
    }
    return changed;
  }

  private mergeOne(incoming: Trace): boolean {
    const existing = this.traces.get(incoming.id);
    if (!existing) {
      this.traces.set(incoming.id, structuredClone(incoming));
      return true;
    }
    const before = JSON.stringify(existing);
    existing.parent ??= incoming.parent;
    existing.key ??= incoming.key;
    existing.name ??= incoming.name;
    for (const field of LISTS) {
      const add = incoming[field] as unknown[] | undefined;
      if (!add) continue;
      const list = ((existing as unknown as Record<string, unknown[]>)[field] ??= []);
      for (const v of add) if (list.length < MAX_LIST && !list.some((x) => JSON.stringify(x) === JSON.stringify(v))) list.push(v);
    }
    for (const flag of FLAGS) if (incoming[flag]) existing[flag] = true;
    existing.fails ??= incoming.fails;
    for (const count of COUNTS) {
      const v = incoming[count];
      if (v !== undefined && !(existing[count]! >= v)) existing[count] = v;
    }
    return JSON.stringify(existing) !== before;
  }

  /** `x.k`, `x()`, `new x`, `await x` and `x[0]` say something about `x` too. */
  private linkToParent(child: Trace): boolean {
    const parentId = child.parent!;
    const parent = this.traces.get(parentId) ?? this.newTrace(parentId);
    const before = JSON.stringify(parent);
    const id = child.id;
    if (id === `${parentId}()`) parent.called = Math.max(parent.called ?? 0, 1);
    else if (id === `new ${parentId}`) parent.constructed = Math.max(parent.constructed ?? 0, 1);
    else if (id === `await ${parentId}`) parent.awaited = true;
    else if (/^\[\d+\]$/.test(id.slice(parentId.length)) && id.startsWith(parentId)) parent.iterated = true;
    else if (child.key !== undefined && !(parent.reads ?? []).includes(child.key) && (parent.reads?.length ?? 0) < MAX_LIST) {
      (parent.reads ??= []).push(child.key);
    }
    return JSON.stringify(parent) !== before;
  }

  /** Marks a learnt function as one that ends the loop it is called in (Trace.endsAfter); false when it already did. */
  endAfter(id: string, calls: number): boolean {
    const trace = this.traces.get(id) ?? this.newTrace(id);
    if (trace.endsAfter !== undefined) return false;
    trace.endsAfter = calls;
    return true;
  }

  /** Undoes endAfter: the function returns its result at every call again. */
  keepGoing(id: string): void {
    const trace = this.traces.get(id);
    if (trace) delete trace.endsAfter;
  }

  private newTrace(id: string): Trace {
    const t: Trace = { id };
    this.traces.set(id, t);
    return t;
  }

  toJSON(): TraceTable {
    return Object.fromEntries(this.traces);
  }
}
