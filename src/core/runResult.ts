import type { Category, ElementKind } from './categories.ts';
import type { Explored } from './explored.ts';
import type { LlmUsage } from './llmUsage.ts';
import type { RunDetail } from './runDetail.ts';

/** Whether an installed module was bundled into the isolate, and if not, why the value generator stands in for it. */
export type ModuleStatus = 'bundled' | 'not-installed' | 'not-pure' | 'too-large';

/** An environment that could not be built or loaded, for the snippet's result. */
export interface EnvironmentFailure {
  readonly name: string;
  readonly message: string;
}

/** Why a snippet's values came from a stand-in source: the result's `degraded` field. */
export type Degradation = 'llm-unavailable';

export type RunStatus = 'completed' | 'stopped' | 'pending' | 'syntax-error' | 'timeout' | 'host-timeout' | 'memory-limit' | 'internal-error';

export interface Injection {
  readonly element: string;
  readonly kind: ElementKind;
  readonly category: Category;
  /** The definition as a statement of the `--emit`ted program. */
  readonly source: string;
  readonly provider: string;
  readonly attempts: number;
  /** False only for the universal Dummy, which stands for anything. */
  readonly concrete: boolean;
  /**
   * The type the snippet declares for it (a TypeScript annotation, a JSDoc type), as written, and the
   * category that type asks for. `setAside`: the value is the one usage gives instead, since the run
   * with the declared types covered fewer lines.
   */
  readonly declared?: { readonly type: string; readonly category: Category; readonly setAside?: true };
  /** The snippet line where the code first asked for it (for a part of a value, its owner's line when the code never reached the part itself); absent when no line did. */
  readonly line?: number;
}

/** An npm module the snippet loads (docs/internals/environments.md "Installed npm modules"), or a file of its project it imports (`--project`). */
export interface ReportedModule {
  readonly specifier: string;
  /** The installed version, from its package.json. */
  readonly version?: string;
  /** `module` when the real installed module ran in the sandbox; otherwise the value generator stood in for it (see `injections`). */
  readonly provider?: 'module';
  readonly status: ModuleStatus;
  /** Why it was not used: a native addon, a Node built-in it needs, the bundler's error, its size, an error while it loaded. */
  readonly reason?: string;
}

export interface ReportedError {
  readonly type: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  /** Whose fault: the snippet's own code, an injected value, the sandbox, or a value provider (an LLM endpoint). */
  readonly attribution: 'injected' | 'snippet' | 'environment' | 'sandbox' | 'provider';
  /** The snippet threw it itself (`throw new TypeError(…)`), rather than an operation failing. */
  readonly explicit?: boolean;
  /** The injected element whose value caused it, when attribution is `injected`. */
  readonly culprit?: string;
  /** The snippet caught it itself: it did not stop the run. Only errors its own code raised on its own values. */
  readonly caught?: true;
  /** Raised by drive's call of this target (`drives`); the run went on to the next one. */
  readonly drive?: string;
}

/** A call drive made to a function, method, getter, setter or constructor nothing called. */
export interface DrivenCall {
  /** The target: `f`, `Class.method`, `Game.prototype.restart`, `outer.inner`, `<anonymous>@12`. */
  readonly target: string;
  /** Where it is defined. */
  readonly line: number;
  /** Its arguments as source (the learnt values' definitions). */
  readonly args: readonly string[];
  /** `timeout`: the run ran out of time before it settled; `pending`: an async call that never settled. */
  readonly outcome: 'returned' | 'threw' | 'exited' | 'timeout' | 'pending';
  readonly error?: { readonly type: string; readonly message: string };
}

/**
 * Console output snipexec's own calls printed, not the program's: a part of `stdout` from `start`
 * (an index into the string) to the next part's start, or the end.
 */
export interface ScenarioOutput {
  readonly start: number;
  /**
   * `environment`: printed while an environment's driver ran (`name`: the environment; the events
   * it fired, the requests it sent) or what it queued; `drive`: printed by drive's call of `target`,
   * or (no target) by what drive's calls left queued.
   */
  readonly by: 'environment' | 'drive';
  readonly name?: string;
  readonly target?: string;
}

/** The JSON result of one snippet; the schema docs/reference/result-schema.md documents. */
export interface RunResult {
  readonly status: RunStatus;
  /**
   * The first execution's lines: `measured`, and `uncovered`, of which `explored` (a kept scenario
   * covered them) and `threw` (the uncaught error was raised there), each present only when it holds
   * a line. A line's state (core/lineStates.ts) is read from these; istanbul counts `explored` and
   * `threw` lines as not covered, as `covered` and `lineCoverage` do.
   */
  readonly lines: { total: number; covered: number; measured: number[]; uncovered: number[]; explored?: number[]; threw?: number[] };
  readonly branches: { total: number; covered: number };
  readonly lineCoverage: number;
  readonly branchCoverage: number;
  readonly fullyExecuted: boolean;
  readonly injections: Injection[];
  readonly errors: ReportedError[];
  readonly stdout: string;
  /** The parts of `stdout` that snipexec's calls (drive, an environment's driver) printed, in order; absent when the program's own code printed it all. */
  readonly scenarioOutput?: readonly ScenarioOutput[];
  readonly runs: number;
  readonly llmCalls: LlmUsage;
  /**
   * Set when the values came from a stand-in source: `llm-unavailable` when the LLM endpoint
   * failed and the offline trace generator's values (`trace-fallback`) were used; the error is in `errors`.
   */
  readonly degraded?: Degradation;
  readonly elapsedMs: number;
  readonly lang?: string;
  readonly repairs?: string[];
  /** The completed program: definitions, then the snippet. Not part of `--json` output. */
  readonly program?: string;
  /** TypeScript declarations inferred for the injected elements (`--types`). */
  readonly types?: string;
  /**
   * The environments the snippet's names selected (docs/internals/environments.md): those that ran before
   * it, and those that could not be built or loaded, with why. Absent when it needed none.
   */
  readonly environments?: { readonly loaded: readonly string[]; readonly failed: readonly EnvironmentFailure[] };
  /** The code an environment's exit (`process.exit(code)`) ended the run with; the `--emit`ted program exits with it too. */
  readonly exitCode?: number;
  /** The npm modules the snippet loads: bundled from where they are installed, or not, with why. Absent when it loads none. */
  readonly modules?: readonly ReportedModule[];
  /** The calls drive made, in order (docs/internals/how-it-works.md "Drive"). Absent when it made none. */
  readonly drives?: readonly DrivenCall[];
  /** Exploration (docs/internals/how-it-works.md "Explore"): the union over the kept scenarios. Absent with --scenarios 1, in modes none and dummy, and when the first execution was not measured. */
  readonly explored?: Explored;
  /**
   * What the result carries for callers in this process (RunDetail): coverage counters, the kept
   * scenarios' results, the typed program. Never in JSON output (its toJSON gives undefined); absent
   * on a result that ran nothing (a syntax error, a host timeout).
   */
  readonly detail?: RunDetail;
}
