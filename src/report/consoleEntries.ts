import type { RunResult, ScenarioOutput } from '../core/runResult.ts';

/** A stretch of the console output: the program's own, or printed by snipexec's scenario (drive's calls, an environment's driver), with a label that says so. */
export interface ConsoleEntry {
  readonly text: string;
  /** `program`: its own code (top level, timers, callbacks it set up) printed it. */
  readonly by: 'program' | ScenarioOutput['by'];
  /** For snipexec's output: what made the call, in words (`drive called <anonymous>@3`). */
  readonly label?: string;
}

/**
 * The console listing of a result, as the terminal and the HTML report show it: `stdout` cut where
 * `scenarioOutput` says snipexec's own calls printed, each such part labelled as snipexec's
 * scenario; empty parts left out. The texts, joined, are `stdout`.
 */
export function consoleEntries(result: Pick<RunResult, 'stdout' | 'scenarioOutput'>): ConsoleEntry[] {
  const { stdout } = result;
  const parts = (result.scenarioOutput ?? []).filter((p) => p.start >= 0 && p.start <= stdout.length);
  const entries: ConsoleEntry[] = [];
  const add = (text: string, entry: Omit<ConsoleEntry, 'text'>) => {
    if (text !== '') entries.push({ text, ...entry });
  };
  add(stdout.slice(0, parts[0]?.start ?? stdout.length), { by: 'program' });
  parts.forEach((p, i) => add(stdout.slice(p.start, parts[i + 1]?.start ?? stdout.length), { by: p.by, label: scenarioLabel(p) }));
  return entries;
}

/** What made the call that printed a part, as the listings label it. */
export function scenarioLabel(p: ScenarioOutput): string {
  // An environment's driver is named by what it drives: "browser events", "server", "process exit".
  if (p.by === 'environment') return `snipexec's scenario: its ${p.name ?? 'environment'} driver`;
  return p.target !== undefined ? `snipexec's scenario: drive called ${p.target}` : "snipexec's scenario: what drive's calls left queued";
}
