import type { Logger } from 'pino';
import type { CoverageMap } from '../instrument/coverageModel.ts';
import type { UsageTable } from '../instrument/usage.ts';
import type { ValueSource } from '../values/providers.ts';
import type { DefinitionCheck } from './checkDefinition.ts';

/** What a DefinitionBook answers from: the snippet, its usage, the value source and the caps (SnippetSession.newBook). */
export interface BookContext {
  readonly snippet: string;
  readonly map: CoverageMap;
  readonly usage: UsageTable;
  readonly values: ValueSource;
  readonly maxAttempts: number;
  readonly maxInjections: number;
  /** Where a host bug's stack goes. */
  readonly log: Logger;
  /** Checks a generator's definition by execution before it is adopted (llm mode, src/engine/checkDefinition.ts). */
  readonly check?: DefinitionCheck;
  /**
   * Elements whose values stand as given (diff's edge values: `null`, an object without the member
   * read): neither they nor anything below them is injected, refined or blamed.
   */
  readonly held?: ReadonlySet<string>;
}
