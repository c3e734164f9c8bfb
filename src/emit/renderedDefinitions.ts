/** Definitions rendered as source (engine/renderDefinitions.ts): what the sandbox's prelude and the completed program are made from. */
export interface RenderedDefinitions {
  /** Readable source of every definition, in dependency order; the head of `--emit` output. */
  readonly source: string;
  /** Per definition, the statement that defines it. */
  readonly statements: ReadonlyMap<string, string>;
  /** `[elementId, expression]` pairs the sandbox hands to the runtime after the prelude. */
  readonly accessors: readonly (readonly [string, string])[];
  /** Variable holding the snippet's top-level `this`, when one was injected. */
  readonly receiver: string | undefined;
  /** Every identifier the prelude binds or reads, so a snippet that shadows one can be wrapped. */
  readonly identifiers: ReadonlySet<string>;
  /**
   * The prelude as the sandbox runs it: each statement guarded, so a definition that throws (an
   * LLM's, say) is reported instead of ending the run: the script evaluates to the `[id, error]` pairs.
   */
  guarded(hook: string): string;
}
