import { painter } from './paint.ts';
import { terminalLine as line1, terminalText as text } from './terminalText.ts';
import { LINE_MARKS, legendStates, resultLineStates } from './lineMarks.ts';
import { share } from './percent.ts';
import { consoleEntries } from './consoleEntries.ts';
import { sourceLines } from './sourceLines.ts';
import type { LineState } from '../core/lineStates.ts';
import type { RunResult } from '../core/runResult.ts';

const MARK_COLOUR: Readonly<Record<LineState, 'green' | 'yellow' | 'red' | 'magenta'>> = { covered: 'green', explored: 'yellow', threw: 'magenta', uncovered: 'red' };

/**
 * The human report: the snippet with each measured line marked, definitions, console, errors.
 * Every text of the snippet's, a model's or a run's is shown with its control codes escaped
 * (terminalText.ts): the only escape sequences in the report are its own colours.
 */
export function formatHuman(result: RunResult, code: string, color: boolean): string {
  const paint = painter(color);
  const out: string[] = [];
  const states = resultLineStates(result);
  // JavaScript's own line terminators, as Babel and V8 number lines: a raw U+2028 in a string starts a line.
  const lines = sourceLines(code);
  const width = String(lines.length).length;
  const degraded = result.degraded ? `, degraded: ${line1(result.degraded)}` : '';
  const legend = legendStates(states).map((s) => `${LINE_MARKS[s].mark} ${LINE_MARKS[s].label}`).join(', ');
  out.push(paint('bold', `snippet  (${result.status}${degraded}; ${legend})`));
  lines.forEach((source, i) => {
    const state = states.get(i + 1);
    const mark = state === undefined ? ' ' : paint(MARK_COLOUR[state], LINE_MARKS[state].mark);
    out.push(`${mark} ${String(i + 1).padStart(width)} | ${line1(source)}`);
  });
  out.push('');
  out.push(`lines ${result.lines.covered}/${result.lines.total} (${share(result.lines.covered, result.lines.total)})  branches ${result.branches.covered}/${result.branches.total} (${share(result.branches.covered, result.branches.total)})  runs ${result.runs}  ${result.elapsedMs} ms  (the first execution)`);
  if (result.explored) out.push(...describeExplored(result.explored));
  const llm = describeLlmUsage(result.llmCalls);
  if (llm !== '') out.push(llm);
  if (result.repairs && result.repairs.length > 0) out.push(`repaired: ${line1(result.repairs.join(', '))}`);
  if (result.environments) {
    const { loaded, failed } = result.environments;
    if (loaded.length > 0) out.push(`environments: ${line1(loaded.join(', '))}`);
    for (const f of failed) out.push(paint('red', `environment ${line1(f.name)} could not be loaded: ${text(f.message)}`));
  }
  for (const m of result.modules ?? []) {
    const name = line1(m.version ? `${m.specifier} ${m.version}` : m.specifier);
    if (m.provider === 'module') out.push(`module: ${name} (installed, run for real)`);
    else if (m.status === 'not-installed') out.push(paint('dim', `module: ${name} not installed; its values are synthesized (--modules DIR to say where it is)`));
    else out.push(paint('yellow', `module: ${name} not run (${m.status}: ${line1(m.reason ?? 'no reason given')}); its values are synthesized`));
  }
  if (result.injections.length > 0) {
    out.push('', paint('bold', 'injected definitions'));
    for (const inj of result.injections) out.push(`  ${text(inj.source)}  ${paint('dim', `// ${line1(inj.element)}: ${inj.category}, ${inj.provider}, ${inj.attempts} attempt(s)`)}`);
  }
  if (result.drives && result.drives.length > 0) {
    out.push('', paint('bold', 'called by drive (defined, never called; --no-drive runs the code as written)'));
    for (const d of result.drives) {
      const outcome = d.outcome === 'threw' && d.error ? paint('red', `threw ${line1(d.error.type)}: ${text(d.error.message)}`) : d.outcome;
      out.push(`  ${d.line}: ${line1(d.target)}(${line1(d.args.join(', '))})  ${paint('dim', '→')} ${outcome}`);
    }
  }
  if (result.stdout !== '') out.push('', paint('bold', 'console'), ...consoleListing(result, paint));
  if (result.errors.length > 0) {
    out.push('', paint('bold', 'errors'));
    for (const e of result.errors) out.push(`  ${e.line}:${e.column} ${line1(e.type)}: ${text(e.message)}  ${paint('dim', `[${e.attribution}${e.caught ? ', caught by the snippet' : ''}${e.drive ? `, in drive's call of ${line1(e.drive)}` : ''}]`)}`);
  }
  return out.join('\n') + '\n';
}

/**
 * The console: the program's own output as printed, indented; what snipexec's scenario printed
 * (drive's calls, an environment's driver) under a dim label, each line behind a bar.
 */
function consoleListing(result: RunResult, paint: ReturnType<typeof painter>): string[] {
  return consoleEntries(result).flatMap((e) => {
    const rows = e.text.replace(/\n$/, '').split('\n');
    if (e.by === 'program') return rows.map((l) => `  ${line1(l)}`);
    return [paint('dim', `  (${line1(e.label ?? '')})`), ...rows.map((l) => `  ${paint('dim', '│')} ${line1(l)}`)];
  });
}

/**
 * Exploration's union and its kept scenarios: `explored  3 scenarios kept of 5 tried (1 stalled):
 * lines 24/27 (88.9 %), branches 19/36 (52.8 %)`, then a line per kept scenario with what it
 * answered the other way and the lines it added.
 */
export function describeExplored(e: NonNullable<RunResult['explored']>): string[] {
  const stalled = e.stalled > 0 ? `, ${e.stalled} stalled (timed out or ran out of memory)` : '';
  const out = [`explored  ${e.scenarios} scenario${e.scenarios === 1 ? '' : 's'} kept of ${e.tried} tried${stalled}: lines ${e.lines.covered}/${e.lines.total} (${share(e.lines.covered, e.lines.total)}), branches ${e.branches.covered}/${e.branches.total} (${share(e.branches.covered, e.branches.total)})`];
  for (const k of e.kept) {
    const f = k.flipped;
    const what = 'answer' in f ? `line ${f.line}: ${line1(f.text)} answered ${line1(JSON.stringify(f.answer) ?? 'undefined')}` : `${line1(f.text)} given its ${f.outcome} outcome${f.line > 0 ? ` (used at line ${f.line})` : ''}`;
    out.push(`  scenario ${k.scenario}${k.from === 1 ? '' : ` (from ${k.from})`}: ${what} → line${k.newLines.length === 1 ? '' : 's'} ${k.newLines.join(', ')}`);
  }
  if (e.kept.length > 0) out.push('  (--emit FILE --scenario K writes scenario K\'s completed program)');
  return out;
}

/** `llm: 7 requests (2 from the cache), 3 retries, 1 failed; errors 429 ×2, timeout ×1; 5,120 + 830 tokens`; empty when none was made. */
export function describeLlmUsage(u: RunResult['llmCalls']): string {
  if (u.calls + u.cached + u.failed === 0) return '';
  const errors = Object.entries(u.errors ?? {}).map(([status, n]) => `${status} ×${n}`).join(', ');
  return `llm: ${u.calls + u.cached} requests (${u.cached} from the cache), ${u.retries} retries, ${u.failed} failed` +
    `${errors ? `; errors ${errors}` : ''}; ${u.promptTokens.toLocaleString('en')} + ${u.completionTokens.toLocaleString('en')} tokens${u.capped ? '; a cap was reached' : ''}`;
}
