import type { Category, ElementKind } from '../core/categories.ts';
import type { HookSite } from '../instrument/coverageModel.ts';
import type { Usage } from '../instrument/usage.ts';
import type { Trace, TraceView } from '../protocol/trace.ts';

/** One failed proposal, fed back to the provider on the next attempt. */
export interface FailedAttempt {
  readonly source: string;
  readonly error: string;
  /** The code as the generator wrote it, when it differs from `source` (what the fix prompt shows). */
  readonly code?: string;
}

/** Everything a value provider may use to propose a definition for one element. */
export interface ValueRequest {
  /** Access path of the element, e.g. `fs`, `require("express")()`, `app.get`. */
  readonly element: string;
  readonly kind: ElementKind;
  /** Short name: the global, member key or module specifier. */
  readonly name: string;
  readonly usage: Usage;
  /** The snippet uses what calling the element gives (the call's usage key has a usage of its own): a function returns something. */
  readonly resultUsed?: boolean;
  readonly site: HookSite | undefined;
  readonly snippet: string;
  readonly line: number;
  readonly message: string;
  /** 1-based; at most `maxAttempts`. */
  readonly attempt: number;
  readonly history: readonly FailedAttempt[];
  /** Categories already tried and found wanting for this element. */
  readonly rejected: readonly Category[];
  /** What recording proxies saw of this element, when it was traced. */
  readonly trace: Trace | undefined;
  /** Every trace of the snippet, for the element's parts. */
  readonly traces: TraceView;
  /** Whether a recording proxy may stand for the element in this run (never in the measured run). */
  readonly mayProbe: boolean;
  /** The definitions made so far for this snippet (proposal sources), computed only when asked for. */
  readonly definitions: () => readonly { readonly element: string; readonly source: string }[];
  /** How often a fallback category was already picked for this element. */
  readonly fallbacks: number;
  /**
   * Checks a proposal by execution before the snippet runs with it (llm mode): the reason it
   * failed (threw, looped, exhausted memory), or undefined when it evaluated or was not checked.
   */
  readonly check?: (proposal: Proposal) => Promise<string | undefined>;
}

/**
 * A proposed definition: a JavaScript expression. `refs` are elements the expression uses as
 * `$0`, `$1`…; each is filled like any other element, so parts of a value are learnt too.
 */
export interface Proposal {
  readonly source: string;
  readonly refs: readonly string[];
  readonly category: Category;
  /** A recording proxy instead of a value: the run learns, and is not measured. */
  readonly probe?: boolean;
  /** TypeScript type of the value, with `$0`, `$1`… standing for the refs' types. */
  readonly type?: string;
  /** Written by a generator, not picked from the dummy table: its failure rejects no category. */
  readonly generated?: boolean;
  /** Generator requests this proposal took (failed replies included); 1 when unset. */
  readonly attempts?: number;
  /** Replies that failed before this proposal without reaching the isolate (no code, bad syntax). */
  readonly failures?: readonly FailedAttempt[];
  /** Who made it, when not the mode's provider (e.g. the trace generator after an LLM cap). */
  readonly provider?: string;
  /** The code as the generator wrote it (an LLM's code block), when `source` is its rewrite. */
  readonly code?: string;
}

/** The provider used every attempt it had without a usable proposal; the fallback decides. */
export interface Exhausted {
  readonly exhausted: true;
  readonly attempts: number;
  readonly failures: readonly FailedAttempt[];
}

export function isExhausted(p: Proposal | Exhausted | undefined): p is Exhausted {
  return p !== undefined && 'exhausted' in p;
}

/** A source of values for missing elements: the dummy table, the trace generator, an LLM. */
export interface ValueProvider {
  readonly name: string;
  /** Re-derives its values when their trace grows in a later learning run (cheap, offline ones). */
  readonly resynthesizes?: boolean;
  /** Returns a proposal, undefined to leave the element missing, or Exhausted to hand it to the fallback. */
  propose(request: ValueRequest): Promise<Proposal | Exhausted | undefined>;
}

/** Picks a category for an element; the fallback when a provider has used its attempts. */
export interface TypeClassifier {
  readonly name: string;
  classify(request: ValueRequest): Promise<Category[]>;
}
