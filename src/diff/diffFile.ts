import type { Definition } from '../engine/definition.ts';
import type { DefinitionBook } from '../engine/definitionBook.ts';
import { fillRefs, renderDefinitions } from '../engine/renderDefinitions.ts';
import { type RenderedDefinitions } from '../emit/renderedDefinitions.ts';
import { isWithin } from '../engine/elementPaths.ts';
import type { DriveRecord } from '../protocol/runtime.ts';
import { reproduction } from './reproduction.ts';
import { SnippetSession } from '../engine/snippetSession.ts';
import type { ScenarioRun } from '../engine/runScenario.ts';
import { exploreScenarios } from '../engine/runSnippet.ts';
import type { DrivenCall, ReportedError, RunResult } from '../core/runResult.ts';
import { EDGE_BUDGET, edgeInputs, edgeValues, reshapedEdges, withEdgeValue, type EdgeValue } from './edgeValues.ts';
import { isOwnInstance, ownInstanceEdges, type ClassMembers } from './ownInstances.ts';
import { frozenEdges, isFrozen } from './frozenEdges.ts';
import type { Fragment } from './findFragments.ts';
import { newMemberOfVariedObject } from './variedShapes.ts';
import { undeclaredUses, type FileNames, type Undeclared } from './removedNames.ts';
import type { ThisFields } from './thisFields.ts';
import type { CatchHandler } from './catchHandlers.ts';
import { rethrown, thrownScenarios } from './thrownEdges.ts';
import { receiverFields, receiversByIndex } from './receiverFields.ts';
import type { CodeLiteral } from './changedLiterals.ts';
import { capLiteralEdges, literalEdges, literalsByEntry } from './literalEdges.ts';
import { otherCallsArgument } from './throughDeclaration.ts';
import { moduleEdges } from './moduleEdges.ts';
import type { DriveTarget } from '../instrument/driveTargets.ts';
import { arityOf, driveArity, shorterCalls } from './shorterCalls.ts';

/** Runtime errors that are the code's failing operations: what `diff` reports. */
const TYPE_ERRORS: ReadonlySet<string> = new Set(['TypeError', 'RangeError', 'ReferenceError']);
/** Edge values of the type the code expects (an empty string, list, zero): no guard is needed for them. */
const IN_TYPE: ReadonlySet<string> = new Set(["''", '[]', '0']);
/** `this.listeners is not a function`: a call of a method of `this`. */
const MIXIN_CALL = /^this\.[\w$]+ is not a function$/;

/** The input a finding was seen on, and what the base version did with it. */
export interface FindingEvidence {
  /** The driven call that threw, with its arguments inlined (`parse('a', null)`), when a drive made it. */
  readonly call?: string;
  /** The edge value given (`parse#arg1 = null`), when the scenario had one. */
  readonly edge?: { readonly element: string; readonly source: string };
  /** The edge values the scenario held before `edge` (the one that took the changed version to the changed lines it throws on). */
  readonly with?: readonly { readonly element: string; readonly source: string }[];
  /** The base version on the same values: `returned` (the call), `completed` (the file), `rethrew` (the call let a thrown-value edge's value out unchanged), or absent for a new file. */
  readonly base?: 'returned' | 'completed' | 'rethrew';
  /** The definitions the run had (element and source), for the reproduction. */
  readonly definitions: readonly { readonly element: string; readonly source: string }[];
  /** False for a ReferenceError at a use no run reached (found by reading the code). */
  readonly reached?: false;
}

/** A new error of the changed version, before it is placed in a report. */
export interface FileFinding {
  readonly error: ReportedError;
  readonly fragment: Fragment;
  /** Seen with the learnt values (`learnt`), an edge value (`edge`), by its own values in a new file (`own`), or a name the base declared (`removed`) or nothing declares (`undeclared`). */
  readonly how: 'learnt' | 'edge' | 'own' | Undeclared;
  readonly evidence: FindingEvidence;
  readonly context: readonly string[];
  /** A `node:test` file that replays it under plain Node (reproduction.ts), when asked for and possible. */
  readonly reproduction?: string;
}

export interface FileDiff {
  readonly fragments: readonly { fragment: Fragment; status: string; lineCoverage: number }[];
  readonly findings: readonly FileFinding[];
  /** Runs made, of the changed and the base version. */
  readonly runs: number;
  /** Edge scenarios tried. */
  readonly edges: number;
}

export interface FileDiffInput {
  /** The file, relative to `root`. */
  readonly file: string;
  /** The repository's directory: the file's relative imports load its real files from there (projectModules), for both versions. */
  readonly root?: string;
  /** The file at BASE; undefined for a new file. */
  readonly before: string | undefined;
  readonly after: string;
  readonly fragments: readonly Fragment[];
  readonly seed: number;
  /** Edge scenarios at most (EDGE_BUDGET when absent). */
  readonly edgeBudget?: number;
  /** Write each finding's reproduction (a `node:test` file's source). */
  readonly reproductions?: boolean;
  /** The names the changed version declares and uses free (fileNames), and whether it is an ES module. */
  readonly names: FileNames;
  /** The free names the change introduces (introducedNames): their uses are ReferenceErrors. */
  readonly introduced?: ReadonlyMap<string, Undeclared>;
  /** The access paths the base version tests for absence (nullishBeliefs): an edge `undefined`/`null` of one is a value callers send. */
  readonly baseBeliefs?: ReadonlySet<string>;
  /** The module elements the base version tests for truthiness or absence (testedModuleValues): they get the falsy exports as edge values. */
  readonly testedModules?: readonly string[];
  /** Per named function of the base version, the parameters its code reads (readParameters). */
  readonly baseReads?: ReadonlyMap<string, ReadonlySet<number>>;
  /** The access paths the base version reads (memberPaths). */
  readonly baseMembers?: ReadonlySet<string>;
  /** Per function of the changed version (its first line), the parameters the change touches (hotParameters): their edge values go first. */
  readonly hotParameters?: ReadonlyMap<number, ReadonlySet<number>>;
  /** The fields of `this` each function of the changed version reads and writes (thisFields): which sibling methods drive calls first. */
  readonly thisFields?: readonly ThisFields[];
  /** The error handlers the change touches (catchHandlers): their thrown-value edges go first. */
  readonly catchHandlers?: readonly CatchHandler[];
  /** The fields of `this` each function of the base version reads and writes: its receivers learn its own, the changed version's only those the base reads too (receiverFields). */
  readonly baseThisFields?: readonly ThisFields[];
  /** The string literals the changed code tests strings against (changedLiterals): strings built from them are edge values of its string inputs. */
  readonly literals?: readonly CodeLiteral[];
  /** The classes of the base version and their prototype members (classMembers): own-class edge values. */
  readonly baseClasses?: ClassMembers;
  /** Per function of the changed version (its first line), the parameters whose members a changed line deletes or writes (mutatedParameters): frozen-object edge values. */
  readonly mutatedParameters?: ReadonlyMap<number, ReadonlySet<number>>;
}

/** Per-run budgets of diff's executions: a file's module and its driven functions. */
const RUN_OPTIONS = { mode: 'trace', scenarios: 1, timeoutMs: 2_000, totalTimeoutMs: 60_000, maxRuns: 6 } as const;
/**
 * An edge scenario runs once, on the learnt values with the edge value held: what its path newly
 * needs gets the generator's value without a learning run.
 */
const EDGE_RUNS = 1;
/** Exploration's scenarios for the changed version, the first one included: each kept one is compared and gets its edge values. */
const DIFF_SCENARIOS = 6;

/** A scenario edge values are tried in: exploration's, or one an edge value opened (its `chain`, held at their values). */
interface Scenario {
  readonly defs: Map<string, Definition>;
  /** The changed lines its run covered. */
  readonly covered: ReadonlySet<number>;
  readonly held: ReadonlySet<string>;
  readonly chain: readonly EdgeValue[];
}

/** A measured run of one version: its result, the definitions it used, and what a reproduction needs. */
interface VersionRun {
  readonly result: RunResult;
  readonly defs: Map<string, Definition>;
  readonly rendered: RenderedDefinitions;
  readonly drives: readonly DriveRecord[];
  readonly scenario: ScenarioRun;
  readonly book: DefinitionBook;
}

/** One version of the file, prepared once and run on given values. */
class Version {
  readonly session: SnippetSession;
  /** The drive targets it calls, by index, and their names. */
  readonly driveOnly: readonly number[];
  readonly targetNames: readonly string[];
  /** Per target index, the fields of `this` its receiver learns (receiverFields), set once both versions' targets are known. */
  private receivers: Record<number, readonly string[]> = {};

  private constructor(session: SnippetSession, driveOnly: readonly number[]) {
    this.session = session;
    this.driveOnly = driveOnly;
    this.targetNames = driveOnly.map((k) => session.instrumented.driveTargets[k]!.name);
  }

  static async open(text: string, file: string, root: string | undefined, seed: number, drive: (targets: readonly DriveTarget[]) => number[]): Promise<Version | RunResult> {
    const session = await SnippetSession.open(text, { ...RUN_OPTIONS, seed, fileName: file, ...(root !== undefined ? { projectDir: root } : {}) });
    if (!(session instanceof SnippetSession)) return session;
    const only = drive(session.instrumented.driveTargets);
    return new Version(session, only);
  }

  /** Drives these targets (by name) on receivers that inherit from their owners, with these fields learnt. */
  learnReceivers(byName: ReadonlyMap<string, readonly string[]>): void {
    this.receivers = receiversByIndex(this.session.instrumented.driveTargets, byName);
  }

  /** The run's configuration: drive limited to the targets around the change, on the receivers callers make. */
  private get config() {
    return { ...this.session.config, driveOnly: this.driveOnly, driveEntered: true, ...(Object.keys(this.receivers).length > 0 ? { driveReceivers: this.receivers } : {}) };
  }

  /** Runs with these definitions (learning what else its path needs), `held` at their values; `edge`: an arity edge's shorter call (shorterCalls). */
  async run(defs: ReadonlyMap<string, Definition> | undefined, held?: ReadonlySet<string>, maxRuns?: number, edge?: EdgeValue): Promise<VersionRun> {
    const { session } = this;
    const book = session.newBook(held);
    if (defs) book.restore(new Map(defs));
    const options = maxRuns === undefined ? session.options : { ...session.options, maxRuns };
    const arity = driveArity(session.instrumented.driveTargets, edge);
    // The declared types stand: an error the declared inputs raise is a finding, not a reason to set them aside.
    const scenario = await session.run({ ...this.config, ...(arity ? { driveArity: arity } : {}) }, book, options, undefined, false);
    book.restore(scenario.ranWith);
    const rendered = renderDefinitions(book.defs);
    const result = session.result(scenario.last, book, rendered, scenario.runs);
    return { result, defs: scenario.ranWith, rendered, drives: scenario.last?.report?.drives ?? [], scenario, book };
  }

  /** Exploration's scenarios after `first` (runSnippet's tree, drive limited as in every run): the definitions of each kept one. */
  async explore(first: VersionRun, scenarios: number): Promise<{ defs: Map<string, Definition>; runs: number }[]> {
    const { kept } = await exploreScenarios(this.session, this.config, first.scenario, first.book, first.rendered, scenarios);
    return kept.map((k) => ({ defs: k.defs, runs: k.result.runs }));
  }
}

/**
 * Differential execution of one changed file: the changed version runs as a whole module (its own
 * top level, constants and helpers real; only what lies outside the file is learnt), driving the
 * functions around the change; the base version runs on the same learnt values. An error the
 * changed version raises and the base version does not, on the same inputs, is the change's. Then
 * edge values (`undefined`, `null`, `''`, `[]`, `{}`, `0`, `NaN`, the other shape) for the driven
 * functions' inputs and the results of outside calls, the ones near the change first, each run on
 * both versions. A new file has no base: its errors count when the code's own values cause them.
 */
export async function diffFile(input: FileDiffInput): Promise<FileDiff> {
  const { fragments } = input;
  const inFragment = (line: number) => fragments.some((f) => line >= f.startLine && line <= f.endLine);
  const changedLines = new Set(fragments.flatMap((f) => f.changedLines));
  const inCallback = (line: number) => fragments.some((f) => f.callbacks.some(([from, to]) => line >= from && line <= to));
  const after = await Version.open(input.after, input.file, input.root, input.seed, (targets) => drivenAround(targets, fragments, input.thisFields ?? []));
  if (!(after instanceof Version)) return { fragments: fragments.map((fragment) => ({ fragment, status: after.status, lineCoverage: 0 })), findings: [], runs: 0, edges: 0 };
  const targets = after.session.instrumented.driveTargets;
  const baseThisReads = new Set((input.baseThisFields ?? []).flatMap((f) => [...f.reads]));
  after.learnReceivers(receiverFields(targets, after.driveOnly, input.thisFields ?? [], input.before === undefined ? undefined : baseThisReads));
  // Each function fragment's own target: the outermost one that starts on its first line (drive names it as it is reached: `module.exports`).
  const entryOf = new Map(fragments.flatMap((f) => { const t = f.kind === 'function' ? targets.find((x) => x.line === f.startLine) : undefined; return t ? [[f, t.name] as const] : []; }));
  // And the functions an entry returns (`wrapHelper` returns `wrapper`): callers call what they are
  // given. Not one that reads fields of `this`: how callers call it (as whose method) is unknown.
  const usesThisFields = (line: number) => (input.thisFields ?? []).some((f) => f.start === line && (f.reads.size > 0 || f.writes.size > 0));
  // (drive names a method of a returned object by its object, `self.parse`: it is the entry's by its line.)
  const returnedBy = (f: Fragment) => targets.filter((t) => f.returned.includes(t.line) && !usesThisFields(t.line) && entryOf.has(f) && (t.name.startsWith(`${entryOf.get(f)!}.`) || t.memberOf === 'object')).map((t) => t.name);
  const returned = new Set(fragments.flatMap(returnedBy));
  const entries = new Set([...entryOf.values(), ...returned]);
  const first = await after.run(undefined);
  let runs = first.result.runs;
  const report = fragments.map((fragment) => ({ fragment, status: first.result.status, lineCoverage: fragmentCoverage(first.result, fragment) }));
  const findings: FileFinding[] = [];
  const fragmentOf = (line: number) => fragments.find((f) => line >= f.startLine && line <= f.endLine && f.kind === 'function') ?? fragments.find((f) => f.kind === 'top-level') ?? fragments[0]!;
  /**
   * `via`: the drive call to replay when the error itself names none (a ReferenceError found by
   * reading, at a use inside a driven function). `base`: the base version's run on the same input,
   * whose extra values (what its own path needed) the reproduction carries too.
   */
  const driven = new Set(targets.map((t) => t.name));
  const add = (error: ReportedError, how: FileFinding['how'], evidence: FindingEvidence, run: VersionRun | undefined, base?: VersionRun, via?: string, omit?: string) => {
    if (findings.some((f) => f.error.line === error.line && f.error.type === error.type && f.error.message === error.message)) return;
    const fragment = fragmentOf(error.line);
    const name = error.drive ?? via;
    const drive = name === undefined ? undefined : run?.drives.find((d) => targets[d.k]?.name === name);
    // An undeclared name stays undeclared in the reproduction: the run injected a value for it, as for any free name.
    const other = (id: string) => name !== undefined && otherCallsArgument(id, name, driven);
    const rendered = run && (base || omit !== undefined || (name !== undefined && [...run.defs.keys()].some(other)))
      ? renderDefinitions(new Map([...(base?.defs ?? []), ...run.defs].filter(([id, d]) => !d.proposal.probe && (omit === undefined || !isWithin(id, omit)) && !other(id))))
      : run?.rendered;
    // What the call depends on: the sibling methods drive called first on the same instance, or the call that returned the function.
    const owner = drive ? targets[drive.k]?.owner : undefined;
    const order = run?.drives ?? [];
    const siblings = drive && owner !== undefined ? order.slice(0, order.indexOf(drive)).filter((d) => targets[d.k]?.owner === owner && targets[d.k]?.kind === 'method') : [];
    const parent = name !== undefined && returned.has(name) ? order.find((d) => (name.startsWith(`${targets[d.k]?.name}.`) || (fragmentOf(targets[d.k]?.line ?? 0) === fragment && targets[d.k]?.line === fragment.startLine)) && entries.has(targets[d.k]?.name ?? '')) : undefined;
    const repro = input.reproductions && run && rendered
      ? reproduction({ file: input.file, esm: input.names.esm, type: error.type, message: error.message, line: error.line, fragment: fragment.name, rendered, targets, drive, callText: evidence.call, before: siblings, ...(parent ? { returnedBy: parent } : {}), ...(how === 'unguarded' && omit !== undefined ? { absent: [omit] } : {}), ...(evidence.base === 'rethrew' ? { rethrows: true } : {}) })
      : undefined;
    findings.push({ error, fragment, how, evidence, context: (run ?? first).result.injections.map((i) => i.element), ...(repro ? { reproduction: repro } : {}) });
  };
  if (input.before === undefined) {
    // A new file: no base to compare with; the errors its own values cause (docs/reference/result-schema.md, `attribution`).
    for (const e of first.result.errors) if (ownError(e) && inFragment(e.line)) add(e, 'own', evidenceOf(first.result, first.defs, e, undefined, undefined), first);
    return { fragments: report, findings, runs, edges: 0 };
  }
  const before = await Version.open(input.before, input.file, input.root, input.seed, (targets) => targets.flatMap((t, k) => (after.targetNames.includes(t.name) ? [k] : [])));
  if (!(before instanceof Version)) return { fragments: report, findings, runs, edges: 0 };
  before.learnReceivers(receiverFields(before.session.instrumented.driveTargets, before.driveOnly, input.baseThisFields ?? [], undefined));
  // The base version on the learnt values: what an edge value must change in it to count as handled.
  const baseFirst = await before.run(first.defs);
  runs += baseFirst.result.runs;
  const introduced = [...(input.introduced?.keys() ?? [])];
  /**
   * Compares a run of the changed version with the base version on the same values. `edge`: the
   * edge value the run was given, on top of the scenario's (`held`, with their base run as the
   * reference the edge value must change the base version's branches against).
   */
  const compare = async (changed: VersionRun, edge: EdgeValue | undefined, scenario?: Scenario): Promise<void> => {
    // A run that went past a name the change left undeclared (a value was injected for it) is not
    // the changed code's: it throws a ReferenceError there (undeclaredUses), and nothing after runs.
    if (changed.result.injections.some((i) => introduced.some((name) => isWithin(i.element, name)))) return;
    const raised = changed.result.errors.filter((e) => TYPE_ERRORS.has(e.type) && !e.explicit && e.line > 0 && e.attribution !== 'sandbox' && e.attribution !== 'provider' && asCallersCall(e, changed, edge));
    if (raised.length === 0) return;
    // The base version on the scenario's own values (run once per scenario, when it has something to compare).
    const reference = scenario ? await baseOf(scenario) : baseFirst;
    // An error the base version raises on the scenario's values as well is not the edge value's doing.
    const candidates = edge === undefined ? raised : raised.filter((e) => !reference.result.errors.some((b) => sameError(b, e)));
    if (candidates.length === 0) return;
    let base = reference;
    let admitted = candidates;
    if (edge) {
      base = await before.run(changed.defs, new Set([...(scenario?.held ?? []), edge.element]), EDGE_RUNS, edge);
      runs += base.result.runs;
      // A shorter call counts only where the base version took another way for it (it reads
      // `arguments.length`) and its call returned: the base copes with the callers' shorter call.
      const arity = arityOf(edge);
      // An instance of the file's own class is a value of the type the code expects (no guard is
      // needed for it): it counts in a driven call the base version's returned from, its class serving the caller.
      if (isOwnInstance(edge)) admitted = candidates.filter((e) => e.drive !== undefined);
      // A frozen object, on the changed line that deletes or writes its member: where the base's call returned, it coped.
      else if (isFrozen(edge.source)) admitted = candidates.filter((e) => e.drive !== undefined && changedLines.has(e.line));
      else if (arity && !(tookOtherBranch(base.result, reference.result) && (base.result.drives ?? []).some((d) => d.target === arity.target && d.outcome === 'returned'))) return;
      // A thrown value counts where the changed handler fails on it, the base having let it out or returned (rethrown).
      else if (edge.thrown !== undefined) admitted = candidates.filter((e) => (input.catchHandlers ?? []).some((h) => e.line >= h.start && e.line <= h.end));
      // An edge value counts where the base version handled it: it took another branch for it (a
      // guard, a default, an early return), not merely passed it along; for `undefined` and `null`,
      // also where the base tests the same path for absence elsewhere (its authors believe callers
      // send it absent). Otherwise only errors on changed lines count, and only for an empty
      // string, list or zero or a string built from the changed code's own literals (values of the
      // expected type need no guard), or a whole argument left out or null that the base's
      // function read, its call returning (a caller may omit it, and the base coped), or a member
      // left out that the base never read, of an object whose other members the base tests for
      // presence (`res.getHeader` where it tests `res.send`: callers pass objects of more than one
      // shape). Another member of one (`user.profile` undefined) needs the base's branch.
      else if (!tookOtherBranch(base.result, reference.result) && !believedAbsent(edge)) {
        if (IN_TYPE.has(edge.source) || edge.literal !== undefined) admitted = candidates.filter((e) => changedLines.has(e.line));
        else if (wholeArgument(edge)) admitted = candidates.filter((e) => e.drive !== undefined && changedLines.has(e.line));
        else if (variedShape(edge)) admitted = candidates.filter((e) => changedLines.has(e.line));
        else return;
      }
    }
    for (const e of admitted) {
      const verdict = edge?.thrown !== undefined ? rethrown(e, edge.thrown, base.result) : baseOutcome(e, changed.result, base.result);
      if (!verdict) continue;
      const shown = await onBaseValues(changed, base, e, edge, scenario);
      add(e, edge ? 'edge' : 'learnt', evidenceOf(shown.result, shown.defs, e, edge, verdict, scenario?.chain.filter((c) => c.element !== edge?.element)), shown, base);
    }
  };
  /**
   * The changed version's run again on the values the base version ended with, where the base had
   * to replace some it was given (its path called what the changed one only read: an argument
   * a shorter call shifts into the iteratee's place): the reproduction loads one set of values for
   * both versions, and must pass on the base. That run, when it raises the same error; else `changed`.
   */
  const onBaseValues = async (changed: VersionRun, base: VersionRun, e: ReportedError, edge: EdgeValue | undefined, scenario: Scenario | undefined): Promise<VersionRun> => {
    const replaced = [...base.defs].filter(([id, d]) => { const was = changed.defs.get(id); return was !== undefined && !was.proposal.probe && !d.proposal.probe && was.proposal.source !== d.proposal.source; }).map(([id]) => id);
    if (replaced.length === 0) return changed;
    const held = new Set([...(scenario?.held ?? []), ...(edge ? [edge.element] : []), ...replaced]);
    const again = await after.run(new Map([...changed.defs, ...base.defs]), held, EDGE_RUNS, edge);
    runs += again.result.runs;
    return again.result.errors.some((x) => sameError(x, e) && x.line === e.line) ? again : changed;
  };
  /** `parse#arg1.decoder` of the fragment `parse(str, options)`: the fragment, the argument's position and the members below it (`.decoder`). */
  const argumentOf = (element: string): { fragment: Fragment; index: number; members: string } | undefined => {
    for (const [fragment, target] of entryOf) {
      const m = element.startsWith(`${target}#arg`) ? /^(\d+)((?:\.[A-Za-z_$][\w$]*)*)$/.exec(element.slice(target.length + 4)) : null;
      if (m) return { fragment, index: Number(m[1]), members: m[2]! };
    }
    return undefined;
  };
  const absent = (edge: EdgeValue) => edge.category === 'undefined' || edge.category === 'null';
  /** A driven function's whole argument (`loadLocale#arg0`) left out or null, which the base version's function reads (a new parameter, or one it ignored, is a new requirement, not a change in handling). */
  const wholeArgument = (edge: EdgeValue): boolean => {
    const arg = absent(edge) ? argumentOf(edge.element) : undefined;
    return arg !== undefined && arg.members === '' && input.baseReads?.get(arg.fragment.name)?.has(arg.index) === true;
  };
  /** `undefined`/`null` for a path the base version tests for absence: `options.decoder` for `parse#arg1.decoder`. */
  const believedAbsent = (edge: EdgeValue): boolean => {
    const arg = absent(edge) ? argumentOf(edge.element) : undefined;
    const param = arg && arg.fragment.params[arg.index];
    return param !== undefined && input.baseBeliefs?.has(param + arg!.members) === true;
  };
  /** `undefined` for a member the base never read, of an object whose other members it tests for presence (newMemberOfVariedObject). */
  const variedShape = (edge: EdgeValue): boolean => {
    const arg = edge.category === 'undefined' ? argumentOf(edge.element) : undefined;
    const param = arg && arg.members !== '' ? arg.fragment.params[arg.index] : undefined;
    return param !== undefined && newMemberOfVariedObject(param + arg!.members, input.baseMembers ?? new Set(), input.baseBeliefs ?? new Set());
  };
  /** The base version on a scenario's values (a chained one's edge values held): the reference for the edge values tried on top of them. */
  const baseRuns = new Map<Scenario, Promise<VersionRun>>();
  const baseOf = (sc: Scenario): Promise<VersionRun> => {
    let run = baseRuns.get(sc);
    if (!run) {
      run = before.run(sc.defs, sc.held, EDGE_RUNS).then((r) => { runs += r.result.runs; return r; });
      baseRuns.set(sc, run);
    }
    return run;
  };
  /**
   * Whether an error arose the way callers would meet it: outside drive, or in drive's call of a
   * fragment's own function on an instance its constructor made. A nested function or callback
   * driven on its own, or a method called on an object no constructor set up, runs out of the
   * context its enclosing code gives it: an error there is drive's artefact, whatever the base
   * version did; so is a method of an object literal that calls a method of `this` the object does
   * not have (a mixin's, `this.listeners is not a function`). With the learnt values alone, an
   * error an injected value caused means the value was learnt short of the changed code's use of
   * it, not that callers send it; one outside the changed functions comes from module code they
   * reached with values no caller chose; and one off the changed lines in a callback of outside
   * code comes from the values outside code called it with, which follow the order of the calls
   * around it (a listener the change adds shifts them), not from the change.
   */
  const asCallersCall = (e: ReportedError, run: VersionRun, edge: EdgeValue | undefined): boolean => {
    // The learnt values alone: the changed function's own line, on a value it did not get from outside, not in a callback of outside code unless on a changed line.
    if (!edge && (e.attribution === 'injected' || !inFragment(e.line) || (!changedLines.has(e.line) && inCallback(e.line)))) return false;
    if (e.drive === undefined) return true;
    // A method of an object literal calling a method of `this` its object lacks: a mixin's, driven on the mixin itself.
    if (targets.find((t) => t.name === e.drive)?.memberOf === 'object' && MIXIN_CALL.test(e.message)) return false;
    const record = run.drives.find((d) => targets[d.k]?.name === e.drive);
    return entries.has(e.drive) && record?.receiver !== 'create';
  };
  await compare(first, undefined);
  // Exploration's tree: scenarios that answer a decision on an injected value the other way reach
  // code the first one does not (`typeof source !== 'object'` answered true); each is compared too,
  // and edge values are tried in each, the scenarios that reach more changed lines first.
  const scenarios: Scenario[] = [{ defs: first.defs, covered: changedCoveredLines(first.result, changedLines), held: new Set(), chain: [] }];
  baseRuns.set(scenarios[0]!, Promise.resolve(baseFirst));
  for (const k of await after.explore(first, DIFF_SCENARIOS)) {
    runs += k.runs;
    const again = await after.run(k.defs, undefined, 1);
    runs += again.result.runs;
    const scenario: Scenario = { defs: again.defs, covered: changedCoveredLines(again.result, changedLines), held: new Set(), chain: [] };
    scenarios.push(scenario);
    await compare(again, undefined, scenario);
  }
  scenarios.sort((a, b) => b.covered.size - a.covered.size);
  // The change's own ReferenceErrors: a name it uses that the file or an import defined before, or that nothing defines.
  for (const u of undeclaredUses(input.names, input.introduced ?? new Map(), [first.result])) {
    // Replayed by loading the file (a use at its top level, or in a function called where it is
    // defined) or by the drive call of the function around the use.
    const around = fragmentOf(u.error.line);
    add(u.error, u.how, { base: 'completed', definitions: [], ...(u.reached ? {} : { reached: false as const }) }, u.reached ? first : undefined, undefined, around.immediate ? undefined : entryOf.get(around), u.name);
  }
  // Edge values, one at a time in each scenario. One that takes the changed version to changed lines
  // its scenario did not reach (`values` undefined: the branch without them) becomes a scenario of
  // its own, and edge values are tried on top of it (`list[1]` null there): a bug that needs two
  // unusual inputs at once. Those get a third of the budget once the first such scenario is found.
  const budget = input.edgeBudget ?? EDGE_BUDGET;
  // The driven functions' parameters the change touches (hotParameters), as element ids: `stringify#arg1`.
  const hot = after.driveOnly.flatMap((k) => [...(input.hotParameters?.get(targets[k]!.line) ?? [])].map((i) => `${targets[k]!.name}#arg${i}`));
  // Shorter calls of the driven entries that read `arguments` (shorterCalls).
  const shorter = shorterCalls(targets, after.targetNames.filter((n) => entries.has(n)));
  // Per scenario, in this order: the element's own values in the shape an edge value gave it, where
  // that edge value opened the scenario (reshapedEdges: the element is held there, so they are not
  // filtered out with the held ones); the falsy values of a module the base tests (moduleEdges);
  // strings built from the changed code's literals, at most a quarter of the budget in each pass
  // over the scenarios, whatever their number (capLiteralEdges); then edgeValues' rounds, with the
  // shorter calls (shorterCalls) and instances of the file's own classes (ownInstanceEdges) beside
  // the `undefined`s, and frozen objects a changed line writes to (frozenEdges) first.
  const entryLiterals = literalsByEntry(input.literals ?? [], [...entryOf].filter(([, target]) => after.targetNames.includes(target)).map(([f, target]) => ({ from: f.startLine, to: f.endLine, target })));
  const literalCap = Math.floor(budget / 4);
  const reshaped = new Map<Scenario, EdgeValue[]>();
  const own = (defs: ReadonlyMap<string, Definition>) => (input.baseClasses ? ownInstanceEdges(defs, edgeInputs(defs, after.targetNames).map((d) => d.id), input.baseClasses, targets) : []);
  const frozen = (defs: ReadonlyMap<string, Definition>) => frozenEdges(defs, targets, after.targetNames, input.mutatedParameters ?? new Map());
  const edgesOf = (sc: Scenario): EdgeValue[] => {
    const fresh = [
      ...moduleEdges(sc.defs, input.testedModules ?? []),
      ...literalEdges(sc.defs, entryLiterals, literalCap),
      ...edgeValues(sc.defs, after.targetNames, changedLines, inFragment, budget, hot, [...shorter, ...own(sc.defs)], frozen(sc.defs)),
    ].filter((edge) => ![...sc.held].some((h) => isWithin(edge.element, h)));
    return [...(reshaped.get(sc) ?? []), ...fresh];
  };
  const tryEdges = (from: readonly Scenario[]) => capLiteralEdges(interleave(from.map((sc) => edgesOf(sc).map((edge) => ({ edge, sc }))), budget + literalCap), literalCap).slice(0, budget);
  let edges = 0;
  const tryEdge = async (edge: EdgeValue, sc: Scenario): Promise<VersionRun> => {
    edges++;
    const changed = await after.run(withEdgeValue(sc.defs, edge), new Set([...sc.held, edge.element]), EDGE_RUNS, edge);
    runs += changed.result.runs;
    await compare(changed, edge, sc);
    return changed;
  };
  // Thrown values first, where the change touches an error handler (none otherwise: nothing to spend).
  for (const { edge, sc } of thrownScenarios(scenarios, input.catchHandlers ?? [], after.driveOnly.map((k) => targets[k]!))) {
    if (edges >= budget) break;
    await tryEdge(edge, sc);
  }
  const chained = new Map<string, Scenario>();
  for (const { edge, sc } of tryEdges(scenarios)) {
    if (edges >= budget - (chained.size > 0 ? Math.floor(budget / 3) : 0)) break;
    const changed = await tryEdge(edge, sc);
    const covered = changedCoveredLines(changed.result, changedLines);
    const reached = [...covered].filter((l) => !sc.covered.has(l)).sort((a, b) => a - b);
    const key = reached.join(',');
    // A shorter call opens no scenario: edge values on top of it would be tried with every argument.
    if (reached.length > 0 && !chained.has(key) && !arityOf(edge)) {
      const opened: Scenario = { defs: changed.defs, covered: new Set([...sc.covered, ...covered]), held: new Set([...sc.held, edge.element]), chain: [...sc.chain, edge] };
      chained.set(key, opened);
      const learnt = sc.defs.get(edge.element)?.proposal.category;
      if (learnt) reshaped.set(opened, reshapedEdges(edge, learnt));
    }
  }
  const deeper = [...chained.values()].sort((a, b) => b.covered.size - a.covered.size);
  for (const { edge, sc } of tryEdges(deeper).slice(0, budget - edges)) await tryEdge(edge, sc);
  return { fragments: report, findings, runs, edges };
}

/**
 * The drive targets of the changed functions, and the methods of the same object (a class's, a
 * prototype's) that write a field of `this` the changed functions read: drive calls those on the
 * same instance, in source order, so the changed method meets the state its siblings leave
 * (`cleanup()` sets `this.state = null` before `endPacket()` reads it). Their own errors are no
 * findings (they are not the fragments' entries).
 */
function drivenAround(targets: readonly DriveTarget[], fragments: readonly Fragment[], fields: readonly ThisFields[]): number[] {
  const inside = (from: number, to: number) => fragments.some((f) => f.kind === 'function' && from >= f.startLine && to <= f.endLine);
  const own = targets.flatMap((t, k) => (inside(t.line, t.line) ? [k] : []));
  const method = (t: DriveTarget) => t.owner !== undefined && (t.memberOf === 'prototype' || t.memberOf === 'class') && !t.static;
  const owners = new Set(own.flatMap((k) => (method(targets[k]!) ? [targets[k]!.owner] : [])));
  const reads = new Set(fields.filter((f) => inside(f.start, f.end)).flatMap((f) => [...f.reads]));
  const siblings = targets.flatMap((t, k) => (!own.includes(k) && method(t) && owners.has(t.owner) && fields.some((f) => f.start === t.line && [...f.writes].some((w) => reads.has(w))) ? [k] : []));
  return [...own, ...siblings].sort((a, b) => a - b);
}

/**
 * What the base version did where the changed one raised `e`: `returned` when the same driven
 * function returned, `completed` when the error is raised outside drive and the base version
 * raised no error of that type and message; undefined when the base failed as well.
 */
function baseOutcome(e: ReportedError, changed: RunResult, base: RunResult): FindingEvidence['base'] {
  if (base.errors.some((b) => sameError(b, e))) return undefined;
  if (e.drive !== undefined) {
    const call = (base.drives ?? []).find((d) => d.target === e.drive);
    if (call) return call.outcome === 'returned' ? 'returned' : undefined;
  }
  // Not driven (the top level, or a function its own code called): the base run must have gone as far without failing.
  if (base.status !== 'completed' && !(changed.status !== 'completed' && base.status === 'stopped' && base.errors.every((b) => b.caught))) return undefined;
  return 'completed';
}

/** The same error: its type and message, raised in the same driven call (or both outside drive). */
function sameError(a: ReportedError, b: ReportedError): boolean {
  return a.type === b.type && a.message === b.message && a.drive === b.drive;
}

/** Whether a decision (an `if`, `?:`, `&&`/`||`/`??`, `switch`; not a loop) went a way in `run` it did not in `reference`. */
function tookOtherBranch(run: RunResult, reference: RunResult): boolean {
  const hit = (r: RunResult) => new Set((r.detail?.coverage.branches ?? []).flatMap((b) => (b.kind === 'loop' ? [] : b.counts.flatMap((c, k) => (c > 0 ? [`${b.line}:${b.column}:${k}`] : [])))));
  const before = hit(reference);
  for (const key of hit(run)) if (!before.has(key)) return true;
  return false;
}

/** A runtime type error of the code's own values (a new file's findings, as before differential runs). */
function ownError(e: ReportedError): boolean {
  return e.attribution === 'snippet' && !e.explicit && e.drive === undefined && (e.type === 'TypeError' || e.type === 'RangeError') && e.line > 0;
}

function evidenceOf(result: RunResult, defs: ReadonlyMap<string, Definition>, e: ReportedError, edge: EdgeValue | undefined, base: FindingEvidence['base'], chain: readonly EdgeValue[] = []): FindingEvidence {
  const call = e.drive === undefined ? undefined : (result.drives ?? []).find((d) => d.target === e.drive);
  return {
    ...(call ? { call: callText(call, defs) } : {}),
    ...(edge ? { edge: { element: edge.element, source: edge.source } } : {}),
    ...(chain.length > 0 ? { with: chain.map((c) => ({ element: c.element, source: c.source })) } : {}),
    ...(base ? { base } : {}),
    definitions: result.injections.map((i) => ({ element: i.element, source: i.source })),
  };
}

/** `parse("a,b", null)`: the driven call with each argument's learnt value inlined, as far as it is short. */
function callText(call: DrivenCall, defs: ReadonlyMap<string, Definition>): string {
  const args = call.args.map((_, i) => inline(defs, `${call.target}#arg${i}`, 0) ?? 'undefined');
  return `${call.target}(${args.join(', ')})`;
}

/** An element's value as one expression, its parts inlined; undefined past a depth or a length. */
function inline(defs: ReadonlyMap<string, Definition>, id: string, depth: number): string | undefined {
  const d = defs.get(id);
  if (!d || d.proposal.probe) return undefined;
  const source = fillRefs(d.proposal.source, d.proposal.refs, (ref) => (depth < 4 ? inline(defs, ref, depth + 1) : undefined) ?? 'undefined');
  return source.length > 400 ? `${source.slice(0, 400)}…` : source;
}

/** The changed lines the run covered. */
function changedCoveredLines(result: RunResult, changed: ReadonlySet<number>): Set<number> {
  const uncovered = new Set(result.lines.uncovered);
  return new Set(result.lines.measured.filter((l) => changed.has(l) && !uncovered.has(l)));
}

/** Round-robin over the lists (the first list first in each round), up to `budget` items. */
function interleave<T>(lists: readonly (readonly T[])[], budget: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < budget && lists.some((l) => i < l.length); i++) {
    for (const l of lists) if (i < l.length && out.length < budget) out.push(l[i]!);
  }
  return out;
}

/** The share of a fragment's measured lines the run covered. */
function fragmentCoverage(result: RunResult, fragment: Fragment): number {
  const inside = (l: number) => l >= fragment.startLine && l <= fragment.endLine;
  const measured = result.lines.measured.filter(inside);
  if (measured.length === 0) return 1;
  const uncovered = new Set(result.lines.uncovered);
  return measured.filter((l) => !uncovered.has(l)).length / measured.length;
}
