import type { Category } from '../core/categories.ts';
import { fixedOnPath } from '../values/apiTypes/platformTypes.ts';
import type { Proposal } from '../values/types.ts';
import type { Definition } from './definition.ts';
import { nearestDefined } from './elementPaths.ts';

// After a run that went wrong: which definitions are to blame, retried with the fault fed back, and
// the trial of learnt values with their declared types set aside. DefinitionBook calls these
// between runs, guarded, with the steps below.

/** What these need of the book (DefinitionBook makes it): its definitions and the ways it refines one. */
export interface BlameSteps {
  readonly defs: ReadonlyMap<string, Definition>;
  /** An element at or below a held one (BookContext.held). */
  isHeld(id: string): boolean;
  /** Whether definitions made by this provider are the mode's provider's to refine (ProviderBroker.owns). */
  owns(provider: string): boolean;
  /** Values the trace generator synthesised (DefinitionBook.traceMade). */
  traceMade(def: Definition): boolean;
  /** The category the snippet declares for the definition's usage, if any. */
  declaredCategory(def: Definition): Category | undefined;
  /** The trace generator's value for the definition from its trace, usage and name, as it now stands. */
  resynthesize(def: Definition): Promise<Proposal | undefined>;
  /** Records the failure of the current definition and asks again, or falls back (DefinitionBook.retry). */
  retry(def: Definition, error: string): Promise<unknown>;
  /** Defines the parts the definition's proposal refers to. */
  resolveParts(def: Definition): Promise<void>;
  /** Drops parts no live definition refers to any more. */
  prune(): void;
}

/**
 * Whether an error with this culprit follows from a type the platform fixes (a member read or
 * method result holding the platform's value, src/values/apiTypes/platformTypes.ts): then it is
 * the snippet's error, and the value is not refined.
 */
export function fixedByPlatform(defs: ReadonlyMap<string, Definition>, culprit: string): boolean {
  return fixedOnPath(culprit, (id) => defs.get(id)?.proposal.category);
}

/** The first error an injected value caused: that value is retried with it. Returns whether it changed. */
export async function blameInjected(book: BlameSteps, errors: readonly { message: string; attribution: string; culprit?: string }[]): Promise<boolean> {
  for (const e of errors) {
    if (e.attribution !== 'injected' || e.culprit === undefined) continue;
    const def = nearestDefined(e.culprit, (id) => book.defs.get(id));
    if (!def || book.isHeld(def.id) || def.proposal.probe || def.proposal.category === 'Dummy' || !book.owns(def.provider)) continue;
    // A type the platform fixes stands (items.length is a number): the error is the snippet's, nothing is refined.
    if (fixedByPlatform(book.defs, e.culprit)) continue;
    const before = def.proposal.source;
    await book.retry(def, e.message);
    await book.resolveParts(def);
    book.prune();
    return def.proposal.source !== before || (def.proposal as Proposal).probe === true;
  }
  return false;
}

/**
 * A run that did not finish (timeout, memory limit): each generated definition (an LLM's) that
 * is new since the last run that did, or every one when none did, is retried with that fault.
 * Returns whether any was.
 */
export async function blameStalled(book: BlameSteps, status: 'timeout' | 'memory-limit', finished: ReadonlyMap<string, Definition> | undefined): Promise<boolean> {
  const fault = status === 'timeout'
    ? 'the snippet did not finish within its time limit with this definition in place; it must not loop forever when it is used'
    : 'the snippet exhausted its memory limit with this definition in place';
  const suspects = [...book.defs.values()].filter((d) => d.proposal.generated === true && !d.proposal.probe && book.owns(d.provider) && finished?.get(d.id)?.proposal.source !== d.proposal.source);
  let any = false;
  for (const def of suspects) {
    const before = def.proposal.source;
    await book.retry(def, fault);
    await book.resolveParts(def);
    any ||= def.proposal.source !== before;
  }
  if (any) book.prune();
  return any;
}

/** Definitions that threw while the prelude ran: each is retried with its error. Returns whether any was. */
export async function retryFailedDefinitions(book: BlameSteps, failures: readonly { id: string; message: string }[]): Promise<boolean> {
  let any = false;
  for (const f of failures) {
    const def = book.defs.get(f.id);
    if (!def || def.proposal.probe) continue;
    const before = def.proposal.source;
    await book.retry(def, `${f.message} (thrown while its definition ran)`);
    await book.resolveParts(def);
    any ||= def.proposal.source !== before;
  }
  if (any) book.prune();
  return any;
}

/**
 * Sets aside the declared type of every learnt value that honours one (a TypeScript annotation, a
 * JSDoc tag: annotation > usage > name): each is synthesised again from its trace, usage and name
 * alone, and the parts it refers to with it. The session runs once so and keeps that run only
 * when it covers more (runScenario): a declared `number` that makes a recursion endless gives
 * way to the value usage gives. Returns whether any value changed.
 */
export async function setAsideDeclared(book: BlameSteps): Promise<boolean> {
  const honouring = [...book.defs.values()].filter((d) => !d.undeclared && !d.proposal.probe && !book.isHeld(d.id) && book.traceMade(d)
    && d.proposal.category === book.declaredCategory(d));
  let any = false;
  for (const def of honouring) {
    def.undeclared = true;
    const usageOnly = await book.resynthesize(def);
    if (!usageOnly || usageOnly.source === def.proposal.source) {
      delete def.undeclared;
      continue;
    }
    def.proposal = usageOnly;
    await book.resolveParts(def);
    any = true;
  }
  if (any) book.prune();
  return any;
}
