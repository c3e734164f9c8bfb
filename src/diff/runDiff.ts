import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidOptions, SnipexecError } from '../core/errors.ts';
import { diffFile, type FileFinding, type FindingEvidence } from './diffFile.ts';
import { findFragments, readParameters, type Fragment } from './findFragments.ts';
import { langsFromFileName, parseSnippet, type ParsedSnippet } from '../parse/parseSnippet.ts';
import { baseText, gitChanges } from './gitChanges.ts';
import { fileNames, introducedNames, type Undeclared } from './removedNames.ts';
import { memberPaths } from './variedShapes.ts';
import { nullishBeliefs } from './nullishBeliefs.ts';
import { testedModuleValues } from './moduleEdges.ts';
import { thisFields } from './thisFields.ts';
import { classMembers } from './ownInstances.ts';
import { mutatedParameters } from './frozenEdges.ts';
import { hotParameters } from './hotParameters.ts';
import { catchHandlers } from './catchHandlers.ts';
import { changedLiterals } from './changedLiterals.ts';

/** A runtime error the change introduces, with the input that shows it. */
export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly type: string;
  readonly message: string;
  readonly function: string;
  /**
   * How it was found: `learnt` (the changed version throws on the values learnt from its usage,
   * the base version does not), `edge` (the same on an edge value: `null`, a missing option, an
   * empty list), `removed` (a name the base version declared and the change uses undeclared),
   * `undeclared` (a name nothing declares, new in a module), or `own` (a new file, whose own values cause it).
   */
  readonly how: FileFinding['how'];
  /** 0..1: 0.9 on a changed line with learnt values or a removed name, 0.8 with an edge value or an undeclared name; 0.2 less off a changed line, and 0.2 less for a use no run reached. */
  readonly confidence: number;
  /** The injected elements of the run that reached it: the context it ran in. */
  readonly context: readonly string[];
  /** The input: the driven call, the edge value, what the base version did on it, the run's definitions. */
  readonly evidence: FindingEvidence;
  /** The code catches it itself: the run goes on, but the operation failed all the same. */
  readonly caught?: true;
  /** With `reproductions`: a `node:test` file that fails with this error under plain Node, when the file is CommonJS (`--repro DIR`: the file written). */
  readonly reproduction?: string;
}

export interface FragmentReport {
  readonly file: string;
  /** The file is new and not yet tracked by git: all of it is the change. */
  readonly untracked?: true;
  readonly function: string;
  readonly kind: Fragment['kind'];
  readonly startLine: number;
  readonly endLine: number;
  readonly changedLines: readonly number[];
  readonly status: string;
  readonly lineCoverage: number;
  readonly error?: string;
}

export interface DiffReport {
  readonly findings: Finding[];
  readonly fragments: FragmentReport[];
  /** The repository's top-level directory: every `file` is relative to it. */
  readonly root: string;
  /** When the diff started, as an ISO 8601 UTC time. */
  readonly startedAt: string;
  readonly elapsedMs: number;
  /** Executions made, of the changed and the base versions, and edge scenarios tried. */
  readonly runs: number;
  readonly edges: number;
}

export interface DiffOptions {
  readonly cwd: string;
  readonly base?: string;
  /** The seed of value synthesis (1 when absent). */
  readonly seed?: number;
  /** Also run the files git does not track and does not ignore, as wholly new (default true). */
  readonly untracked?: boolean;
  /** Edge scenarios per changed file (EDGE_BUDGET when absent). */
  readonly edgeBudget?: number;
  /** Give each finding its reproduction, a `node:test` file's source (`--repro DIR` writes them). */
  readonly reproductions?: boolean;
}

/** The exit status of `snipexec diff` for a report: 1 with findings, 0 without. */
export function diffExitCode(report: DiffReport): 0 | 1 {
  return report.findings.length > 0 ? 1 : 0;
}

/**
 * `snipexec diff`: for every file a git change touched, runs the changed version as a module,
 * driving the functions around the change, and the base version on the same values (diffFile.ts).
 * A runtime type error the changed version raises and the base version does not is a finding.
 */
export async function runDiff(options: DiffOptions): Promise<DiffReport> {
  const started = Date.now();
  if (options.edgeBudget !== undefined && !(Number.isInteger(options.edgeBudget) && options.edgeBudget >= 0 && options.edgeBudget <= 1000)) {
    throw new InvalidOptions(`edgeBudget: expected a whole number from 0 to 1000, got ${String(options.edgeBudget)}`);
  }
  if (options.seed !== undefined && !(Number.isInteger(options.seed) && options.seed >= 0)) throw new InvalidOptions(`seed: expected a whole number from 0, got ${String(options.seed)}`);
  const base = options.base ?? 'HEAD';
  const findings: Finding[] = [];
  const fragments: FragmentReport[] = [];
  let runs = 0;
  let edges = 0;
  const { root, files } = gitChanges(options.cwd, base, options.untracked ?? true);
  for (const changed of files) {
    const path = join(root, changed.path);
    if (!existsSync(path)) continue; // deleted in the working tree
    const untracked = changed.untracked ? { untracked: true as const } : {};
    const after = readFileSync(path, 'utf8');
    const before = changed.untracked ? undefined : baseText(root, base, changed.path);
    let parsed: ParsedSnippet;
    try {
      parsed = parseSnippet(after, langsFromFileName(changed.path));
    } catch (error) {
      fragments.push({ file: changed.path, ...untracked, function: '(file)', kind: 'top-level', startLine: 1, endLine: 1, changedLines: [...changed.lines], status: 'syntax-error', lineCoverage: 0, error: message(error) });
      continue;
    }
    // The file is parsed once here: its fragments, the names it uses and whether it is an ES module are read off one tree.
    const names = fileNames(parsed);
    const baseParsed = before === undefined ? undefined : parsedOrUndefined(before, changed.path);
    const baseNames = baseParsed && fileNames(baseParsed);
    const introduced = baseNames === undefined ? new Map<string, Undeclared>() : introducedNames(baseNames, names);
    const found = findFragments(changed.path, parsed, changed.lines, new Set(introduced.keys()));
    if (found.length === 0) continue;
    const result = await diffFile({ file: changed.path, root, before, after, names, fragments: found, introduced, ...(baseParsed ? baseFacts(baseParsed, parsed, changed.lines) : {}), thisFields: thisFields(parsed), hotParameters: hotParameters(parsed, changed.lines), catchHandlers: catchHandlers(parsed, changed.lines), literals: changedLiterals(parsed, changed.lines), seed: options.seed ?? 1, ...(options.edgeBudget !== undefined ? { edgeBudget: options.edgeBudget } : {}), ...(options.reproductions ? { reproductions: true } : {}) });
    runs += result.runs;
    edges += result.edges;
    for (const { fragment, status, lineCoverage } of result.fragments) {
      fragments.push({ file: fragment.file, ...untracked, function: fragment.name, kind: fragment.kind, startLine: fragment.startLine, endLine: fragment.endLine, changedLines: fragment.changedLines, status, lineCoverage });
    }
    for (const f of result.findings) findings.push(toFinding(f));
  }
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return { findings, fragments, root, startedAt: new Date(started).toISOString(), elapsedMs: Date.now() - started, runs, edges };
}

function toFinding(f: FileFinding): Finding {
  const onChange = f.fragment.changedLines.includes(f.error.line);
  const confidence = (f.how === 'edge' || f.how === 'undeclared' || f.how === 'unguarded' ? 0.8 : 0.9) - (onChange ? 0 : 0.2) - (f.evidence.reached === false ? 0.2 : 0);
  return {
    file: f.fragment.file, line: f.error.line, column: f.error.column, type: f.error.type, message: f.error.message, function: f.fragment.name,
    how: f.how, confidence: Math.round(confidence * 10) / 10, context: f.context, evidence: f.evidence, ...(f.error.caught ? { caught: true as const } : {}), ...(f.reproduction ? { reproduction: f.reproduction } : {}),
  };
}

/**
 * What the base version tells of the values callers send, read once: the paths it tests for
 * absence, the parameters its functions read, its fields of `this`, the member paths it reads, its
 * classes, the parameters whose members both versions write, the module values it tests.
 */
function baseFacts(base: ParsedSnippet, changed: ParsedSnippet, lines: ReadonlySet<number>) {
  const baseBeliefs = nullishBeliefs(base);
  return {
    baseBeliefs,
    baseReads: readParameters(base),
    baseThisFields: thisFields(base),
    baseMembers: memberPaths(base),
    baseClasses: classMembers(base),
    mutatedParameters: mutatedParameters(changed, lines, base),
    testedModules: testedModuleValues(base, baseBeliefs),
  };
}

/** The base version parsed; undefined when it does not parse (nothing to compare). */
function parsedOrUndefined(source: string, file: string): ParsedSnippet | undefined {
  try {
    return parseSnippet(source, langsFromFileName(file));
  } catch {
    return undefined;
  }
}

function message(error: unknown): string {
  return error instanceof SnipexecError || error instanceof Error ? error.message : String(error);
}
