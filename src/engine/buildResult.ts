import type { DrivenCall, EnvironmentFailure, ScenarioOutput, Injection, ReportedError, ReportedModule, RunResult, RunStatus } from '../core/runResult.ts';
import type { Explored, ValueOutcome } from '../core/explored.ts';
import type { CoverageDetail } from '../core/coverageDetail.ts';
import { NO_LLM_USAGE, type LlmUsage } from '../core/llmUsage.ts';
import { runDetail, withScenarios, type RunDetail } from '../core/runDetail.ts';
import { nullThrows } from '../core/errors.ts';
import { classifyUncovered } from '../core/lineStates.ts';
import type { Definition } from './definition.ts';
import type { DefinitionBook } from './definitionBook.ts';
import type { RenderedDefinitions } from '../emit/renderedDefinitions.ts';
import { inferDeclarations } from './inferDeclarations.ts';
import { originalMessage } from './originalMessage.ts';
import { coverageDetail } from './coverageDetail.ts';
import type { InstrumentedSnippet } from '../instrument/instrumentSnippet.ts';
import type { DeclaredType } from '../instrument/usage.ts';
import { coveredLines, measuredLines } from '../instrument/coverageModel.ts';
import { buildProgram, programLayout, type ProgramParts } from '../emit/buildProgram.ts';
import type { ClockSettings } from '../emit/clockPreamble.ts';
import { programEnvironments } from '../emit/environmentPreamble.ts';
import { drivenArguments } from '../emit/drivenCalls.ts';
import type { GuestBundle } from '../sandbox/bundleGuest.ts';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import type { ExecutionResult } from '../sandbox/runInIsolate.ts';
import type { DriveRecord, StdoutPart } from '../protocol/runtime.ts';
import { moduleBundleName, type ModuleUse } from '../environments/npmModules.ts';

/** The result with its kept scenarios' own results in its detail. */
export function withScenarioResults(result: RunResult, scenarios: readonly RunResult[]): RunResult {
  return { ...result, detail: withScenarios(nullThrows(result.detail, 'a result with kept scenarios was built by buildResult'), scenarios) };
}


export function syntaxErrorResult(message: string, line: number, column: number, elapsedMs: number): RunResult {
  return {
    status: 'syntax-error', lines: { total: 0, covered: 0, measured: [], uncovered: [] }, branches: { total: 0, covered: 0 },
    lineCoverage: 0, branchCoverage: 0, fullyExecuted: false, injections: [],
    errors: [{ type: 'SyntaxError', message, line, column, attribution: 'snippet' }], stdout: '', runs: 0, llmCalls: NO_LLM_USAGE, elapsedMs,
  };
}

export interface ResultParts {
  readonly parsed: ParsedSnippet;
  readonly instrumented: InstrumentedSnippet;
  readonly execution: ExecutionResult | undefined;
  readonly book: DefinitionBook;
  readonly rendered: RenderedDefinitions;
  readonly runs: number;
  readonly elapsedMs: number;
  readonly llmCalls: LlmUsage;
  /** Exploration's union over the kept scenarios, when it ran. */
  readonly explored?: Explored;
  /** The other outcomes this scenario asked of injected values (exploration), which the program's environments give too. */
  readonly outcomes?: Readonly<Record<string, ValueOutcome>>;
  /** The sandbox's clock, which the emitted program installs when it reads the clock. */
  readonly clock?: ClockSettings;
  /** The npm modules the snippet loads, as loadEnvironments found them. */
  readonly modules?: readonly ModuleUse[];
  /** The environments selected for the snippet, and the ones that failed to build or load. */
  readonly environments?: { readonly names: readonly string[]; readonly failed: readonly EnvironmentFailure[]; readonly bundles?: readonly GuestBundle[] };
}

/** Turns the last execution's counters into the metrics docs/internals/how-it-works.md defines. */
export function buildResult(parts: ResultParts): RunResult {
  const { instrumented, execution, book, rendered } = parts;
  const map = instrumented.map;
  const report = execution?.report;
  const measured = measuredLines(map);
  const coveredSet = coveredLines(map, report?.statements);
  // exit() unwinds the statements of the calls it was made in before their counters: those lines ran, as in Node.
  if (report?.exit !== undefined) for (const sid of report.exitSites ?? []) if (map.sites[sid]) coveredSet.add(map.sites[sid].line);
  const covered = measured.filter((l) => coveredSet.has(l));
  const uncovered = measured.filter((l) => !coveredSet.has(l));
  let branchTotal = 0;
  let branchCovered = 0;
  map.branches.forEach((b, i) => {
    branchTotal += b.outcomes;
    for (let k = 0; k < b.outcomes; k++) if ((report?.branches[i]?.[k] ?? 0) > 0) branchCovered++;
  });
  // The error that stopped the run first, then those the snippet caught itself.
  const errors: ReportedError[] = [...(report?.errors ?? []), ...(report?.caught ?? [])].map((e) => {
    const site = map.sites[e.sid];
    const message = originalMessage(e.message, instrumented.hook, site?.text);
    // An injected value whose type the platform fixes (items.length is a number) is no culprit: the error is the snippet's.
    const culprit = 'culprit' in e && e.culprit ? e.culprit : undefined;
    const fixed = e.attribution === 'injected' && culprit !== undefined && book.fixedByPlatform(culprit);
    return {
      // Where Node points for the operation (the `y` of `o.x.y`), as its stack frame does.
      type: e.type, message, line: e.at?.[0] ?? site?.point?.[0] ?? site?.line ?? 0, column: e.at?.[1] ?? site?.point?.[1] ?? site?.column ?? 0, attribution: fixed ? 'snippet' : e.attribution,
      ...('explicit' in e && e.explicit ? { explicit: true } : {}), ...(culprit && !fixed ? { culprit } : {}), ...('caught' in e ? { caught: true as const } : {}),
      ...('drive' in e && e.drive !== undefined && instrumented.driveTargets[e.drive] ? { drive: instrumented.driveTargets[e.drive]!.name } : {}),
    };
  });
  if (execution && execution.status !== 'completed' && execution.status !== 'stopped') {
    const site = report ? map.sites[report.lastSite] : undefined;
    errors.push({ type: execution.status, message: execution.reason ?? execution.status, line: site?.line ?? 0, column: site?.column ?? 0, attribution: 'sandbox' });
  }
  for (const { type, message } of book.providerErrors) errors.push({ type, message, line: 0, column: 0, attribution: 'provider' });
  if (book.hostError) errors.push({ type: 'InternalError', message: book.hostError.message, line: 0, column: 0, attribution: 'sandbox' });
  // In dependency order, as the completed program defines them: a definition after the ones it references.
  const injections: Injection[] = inRenderedOrder([...book.defs.values()], rendered).map((d) => ({
    element: d.id, kind: d.kind, category: d.proposal.category, source: rendered.statements.get(d.id) ?? d.proposal.source,
    provider: d.provider, attempts: d.attempts, concrete: d.proposal.category !== 'Dummy', ...lineOf(d, book.defs), ...declaredOf(instrumented.usage[d.usageKey]?.declared, d.undeclared === true),
  }));
  let stdout = report?.stdout ?? '';
  if ((report?.stdoutDropped ?? 0) > 0) stdout += `\n[snipexec: ${report?.stdoutDropped} more bytes of console output dropped]\n`;
  const stale = report?.staleTimers ?? 0;
  if (stale > 0) stdout += `\n[snipexec: ${stale === 1 ? 'a timer was not run again: its callback' : `${stale} timers were not run again: their callbacks`} stopped covering anything new (staleTimerTicks)]\n`;
  const programParts: ProgramParts = { parsed: parts.parsed, instrumented, rendered, drives: report?.drives ?? [], ...(parts.clock ? { clock: parts.clock } : {}), ...emittedEnvironments(parts) };
  const status: RunStatus = book.hostError ? 'internal-error' : (execution?.status ?? 'internal-error');
  const counters = coverageDetail(map, report?.statements, report?.branches, coveredSet);
  const program = buildProgram(programParts);
  return {
    status,
    lines: { total: measured.length, covered: covered.length, measured, uncovered, ...classifyUncovered(uncovered, parts.explored?.lines.uncovered, errors) },
    branches: { total: branchTotal, covered: branchCovered },
    lineCoverage: measured.length === 0 ? 1 : covered.length / measured.length,
    branchCoverage: branchTotal === 0 ? 1 : branchCovered / branchTotal,
    // Only a run that ended by itself executed the snippet fully: not a timeout, a stop or a pending wait.
    fullyExecuted: status === 'completed' && uncovered.length === 0,
    injections, errors, stdout, ...scenarioOutputOf(report?.stdoutParts, instrumented.driveTargets), runs: parts.runs, llmCalls: parts.llmCalls, ...(book.degraded ? { degraded: book.degraded } : {}), elapsedMs: parts.elapsedMs,
    lang: parts.parsed.lang, repairs: [...parts.parsed.repairs],
    program,
    types: inferDeclarations(book.defs),
    ...environmentsOf(parts),
    ...(report?.exit !== undefined ? { exitCode: report.exit } : {}),
    ...drivesOf(instrumented.driveTargets, report?.drives ?? [], rendered, execution?.status === 'timeout'),
    ...(parts.explored ? { explored: parts.explored } : {}),
    ...modulesOf(parts),
    detail: detailOf(programParts, program, counters),
  };
}

/**
 * The definitions in the order the completed program defines them (renderDefinitions: each after
 * those it references; a cycle keeps the order its first member was reached in); the few it leaves
 * out (a recording proxy has no source) after them, in the book's order.
 */
function inRenderedOrder(defs: readonly Definition[], rendered: RenderedDefinitions): Definition[] {
  const position = new Map([...rendered.statements.keys()].map((id, i) => [id, i]));
  const at = (d: Definition) => position.get(d.id) ?? position.size;
  return [...defs].sort((a, b) => at(a) - at(b));
}

/** What the result carries beside its JSON: the counters, and the program's other forms, built when asked for. */
function detailOf(parts: ProgramParts, program: string, coverage: CoverageDetail): RunDetail {
  const typed = parts.parsed.lang === 'ts' || parts.parsed.lang === 'tsx';
  return runDetail({
    coverage,
    typedProgram: () => (typed ? buildProgram(parts, 'ts') : program),
    programLayout: (target) => programLayout(parts, typed ? target : 'js'),
  });
}

/** The line an element was first asked for at, or its nearest owner's (the parts of a value the host defined), for the HTML report. */
function lineOf(def: Definition, defs: ReadonlyMap<string, Definition>): { line?: number } {
  for (let d: Definition | undefined = def, depth = 0; d && depth < 16; d = d.parent === undefined ? undefined : defs.get(d.parent), depth++) {
    if (d.line > 0) return { line: d.line };
  }
  return {};
}

function modulesOf(parts: ResultParts): Pick<RunResult, 'modules'> {
  if (!parts.modules || parts.modules.length === 0) return {};
  // A bundle whose code threw while it loaded in the isolate: the value generator stood in for it.
  const threw = new Map((parts.execution?.environmentFailures ?? []).map((f) => [f.name, f.message]));
  // A project's file is loaded at its first require: one that threw then was stood in for too.
  const failedLoads = new Map((parts.execution?.report?.moduleFailures ?? []).map((f) => [f.specifier, f.message]));
  return {
    modules: parts.modules.map(({ specifier, version, status, reason }): ReportedModule => {
      const failure = status === 'bundled' ? threw.get(moduleBundleName(specifier)) ?? failedLoads.get(specifier) : undefined;
      const base = { specifier, ...(version ? { version } : {}) };
      if (failure !== undefined) return { ...base, status: 'not-pure', reason: `it threw while loading: ${failure}` };
      return status === 'bundled' ? { ...base, provider: 'module', status } : { ...base, status, ...(reason ? { reason } : {}) };
    }),
  };
}

/** The environments that loaded, for the program to load the same, with the values they asked for (`--emit`). */
function emittedEnvironments(parts: ResultParts): Pick<ProgramParts, 'environments'> {
  const bundles = parts.environments?.bundles;
  if (!bundles || bundles.length === 0) return {};
  const failed = new Set([...(parts.environments?.failed ?? []), ...(parts.execution?.environmentFailures ?? [])].map((f) => f.name));
  const values = [...parts.book.defs.values()].filter((d) => d.kind === 'environment').map((d) => d.id);
  const environments = programEnvironments(bundles, failed, values, undefined, parts.outcomes);
  return environments ? { environments } : {};
}

function environmentsOf(parts: ResultParts): Pick<RunResult, 'environments'> {
  const selected = parts.environments;
  if (!selected || selected.names.length === 0) return {};
  // Failures to build (host side), then failures to load (its module or setup threw in the isolate).
  const failed = [...selected.failed, ...(parts.execution?.environmentFailures ?? [])];
  const failedNames = new Set(failed.map((f) => f.name));
  return { environments: { loaded: selected.names.filter((n) => !failedNames.has(n)), failed } };
}

/** The parts of stdout snipexec's calls printed, with drive's targets by name. */
function scenarioOutputOf(parts: readonly StdoutPart[] | undefined, targets: InstrumentedSnippet['driveTargets']): { scenarioOutput?: ScenarioOutput[] } {
  if (!parts || parts.length === 0) return {};
  return {
    scenarioOutput: parts.map((p) => {
      const target = p.k !== undefined ? targets[p.k]?.name : undefined;
      return { start: p.at, by: p.by, ...(p.name !== undefined ? { name: p.name } : {}), ...(target !== undefined ? { target } : {}) };
    }),
  };
}

/** The calls drive made, for the result: each target with its arguments' definitions as source. */
function drivesOf(targets: InstrumentedSnippet['driveTargets'], drives: readonly DriveRecord[], rendered: RenderedDefinitions, timedOut: boolean): { drives?: DrivenCall[] } {
  if (drives.length === 0) return {};
  const accessors = new Map(rendered.accessors);
  const out: DrivenCall[] = [];
  for (const d of drives) {
    const target = targets[d.k];
    if (!target) continue;
    const count = target.kind === 'getter' ? 0 : target.kind === 'setter' ? 1 : target.params;
    const args = drivenArguments(target, count, accessors, d);
    const outcome = d.outcome === 'pending' ? (timedOut ? 'timeout' : 'pending') : d.outcome;
    out.push({ target: target.name, line: target.line, args, outcome, ...(d.error ? { error: { type: d.error.type, message: d.error.message } } : {}) });
  }
  return { drives: out };
}

/** The type the snippet declares for an injected element, when it declares one with a category; `setAside` when the value is usage's instead. */
function declaredOf(declared: DeclaredType | undefined, setAside: boolean): Pick<Injection, 'declared'> {
  return declared?.category === undefined ? {} : { declared: { type: declared.type ?? declared.category, category: declared.category, ...(setAside ? { setAside: true as const } : {}) } };
}
