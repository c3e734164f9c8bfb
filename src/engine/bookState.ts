import type { Definition } from './definition.ts';

// The book's state as values: copies of its definitions to come back to, a checkpoint of all it
// holds, and the key its answers to the isolate depend on (Replays).

/** The definitions as they stand, copied, to come back to when later attempts did worse. */
export function snapshotDefinitions(defs: ReadonlyMap<string, Definition>): Map<string, Definition> {
  return new Map([...defs].map(([id, d]) => [id, { ...d, history: [...d.history], rejected: [...d.rejected] }]));
}

/** Puts copies of a snapshot's definitions in place of `defs`' own. */
export function restoreDefinitions(defs: Map<string, Definition>, snapshot: ReadonlyMap<string, Definition>): void {
  defs.clear();
  for (const [id, d] of snapshot) defs.set(id, { ...d, history: [...d.history], rejected: [...d.rejected] });
}

/**
 * What a run's answers to the isolate depend on when no provider is asked: every definition as the
 * prelude renders it and the bridge hands it out, and the held elements. Undefined while a
 * recording proxy stands for one (its run is a learning run, never replayed).
 */
export function answersKeyOf(defs: ReadonlyMap<string, Definition>, held: ReadonlySet<string> | undefined): string | undefined {
  const rows: unknown[] = [];
  for (const d of defs.values()) {
    if (d.proposal.probe) return undefined;
    rows.push([d.id, d.kind, d.parent ?? null, d.name, d.usageKey, d.proposal.source, d.proposal.refs]);
  }
  return JSON.stringify([rows, [...(held ?? [])]]);
}

/** What a checkpoint of the book takes back (DefinitionBook's own fields). */
export interface BookState {
  readonly defs: Map<string, Definition>;
  readonly probed: Set<string>;
  changed: boolean;
  consulted: number;
  probesInjected: number;
  hostError: Error | undefined;
}

/** A way back to the book as it stands; `broker` takes the provider broker back (ProviderBroker.checkpoint). */
export function checkpointOf(book: BookState, broker: () => void): () => void {
  const defs = snapshotDefinitions(book.defs);
  const probed = [...book.probed];
  const { changed, consulted, probesInjected, hostError } = book;
  return () => {
    restoreDefinitions(book.defs, defs);
    book.probed.clear();
    for (const id of probed) book.probed.add(id);
    Object.assign(book, { changed, consulted, probesInjected, hostError });
    broker();
  };
}
