/** Base class of every error snipexec raises on purpose; `code` is stable and documented. */
export class SnipexecError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The snippet could not be parsed, even after the repair pass. */
export class SyntaxRepairFailed extends SnipexecError {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super('SYNTAX_REPAIR_FAILED', message);
    this.line = line;
    this.column = column;
  }
}

/** The input is not text we can run: binary, not UTF-8, or too large. */
export class UnreadableInput extends SnipexecError {
  constructor(message: string) {
    super('UNREADABLE_INPUT', message);
  }
}

/** Options failed validation at the API or CLI boundary. */
export class InvalidOptions extends SnipexecError {
  constructor(message: string) {
    super('INVALID_OPTIONS', message);
  }
}

/** The dataset file is not JSONL of `{id, code}` objects. */
export class InvalidDataset extends SnipexecError {
  constructor(message: string) {
    super('INVALID_DATASET', message);
  }
}

/** A value provider failed in a way that is not the snippet's fault. */
export class ProviderFailed extends SnipexecError {
  constructor(message: string, options?: ErrorOptions) {
    super('PROVIDER_FAILED', message, options);
  }
}

/** Throws with `reason` when `value` is null or undefined; the checked alternative to `!`. */
export function nullThrows<T>(value: T | null | undefined, reason: string): T {
  if (value === null || value === undefined) throw new SnipexecError('INTERNAL', `Internal invariant failed: ${reason}`);
  return value;
}

/** `--mode llm` without an endpoint, model or valid LLM setting; raised before anything runs. */
export class LlmNotConfigured extends SnipexecError {
  constructor(message: string) {
    super('LLM_NOT_CONFIGURED', message);
  }
}

/** The LLM endpoint stayed unreachable, slow or broken after every transport retry. */
export class LlmUnavailable extends SnipexecError {
  constructor(message: string, options?: ErrorOptions) {
    super('LLM_UNAVAILABLE', message, options);
  }
}

/** The endpoint answered, but not with a Chat Completions response; retried like a transient failure. */
export class LlmBadResponse extends SnipexecError {
  constructor(message: string) {
    super('LLM_BAD_RESPONSE', message);
  }
}

/** The per-snippet or per-batch cap on LLM calls or tokens is reached. */
/** The endpoint's reply body was larger than `--llm-max-reply-bytes`: read no further, and not retried. */
export class LlmReplyTooLarge extends SnipexecError {
  constructor(message: string) {
    super('LLM_REPLY_TOO_LARGE', message);
  }
}

export class LlmBudgetExhausted extends SnipexecError {
  constructor(message: string) {
    super('LLM_BUDGET_EXHAUSTED', message);
  }
}

/** Host work on one snippet (parse, repair, instrumentation) ran past the snippet's wall budget (`totalTimeoutMs`). */
export class HostTimeout extends SnipexecError {
  readonly phase: string;
  readonly budgetMs: number;
  constructor(phase: string, budgetMs: number) {
    super('HOST_TIMEOUT', `snipexec's own work on the snippet (${phase}) ran past the snippet's budget of ${budgetMs} ms (--total-timeout)`);
    this.phase = phase;
    this.budgetMs = budgetMs;
  }
}

/** A file given on the command line cannot be used: missing, a directory, a FIFO or other special file, or not readable or writable. */
export class UnusableFile extends SnipexecError {
  constructor(message: string) {
    super('UNUSABLE_FILE', message);
  }
}

/** A guest bundle (the runtime, an environment, an npm module) could not be built. */
export class BundleFailed extends SnipexecError {
  constructor(message: string, options?: ErrorOptions) {
    super('BUNDLE_FAILED', message, options);
  }
}

/** `snipexec record`: the program does not exist, or is not JavaScript or TypeScript (.js, .cjs, .mjs, .ts, .cts, .mts). */
export class UnusableProgram extends SnipexecError {
  constructor(message: string) {
    super('UNUSABLE_PROGRAM', message);
  }
}

/** A call trace file (record's PROGRAM.trace.json) is not one: `line` is the 1-based line of the first bad record, when known. */
export class CorruptTrace extends SnipexecError {
  readonly line: number | undefined;
  constructor(message: string, line?: number, options?: ErrorOptions) {
    super('CORRUPT_TRACE', message, options);
    this.line = line;
  }
}
