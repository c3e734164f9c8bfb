import { painter } from '../report/paint.ts';
import { terminalLine as line1 } from '../report/terminalText.ts';
import type { DiffReport, Finding } from './runDiff.ts';

/** Human output of `snipexec diff`: each finding as file:line:col, then the fragments run. */
export function formatDiff(report: DiffReport, color: boolean): string {
  const paint = painter(color);
  const out: string[] = [];
  for (const f of report.findings) {
    out.push(`${line1(f.file)}:${f.line}:${f.column} ${paint('red', line1(`${f.type}: ${f.message}`))}${f.caught ? ' (caught by the code)' : ''}`);
    out.push(`  in ${line1(f.function)}, confidence ${f.confidence.toFixed(1)}: ${line1(evidenceText(f))}`);
    if (f.reproduction !== undefined && !f.reproduction.includes('\n')) out.push(`  reproduction: ${line1(f.reproduction)}`);
  }
  if (report.findings.length === 0) out.push(paint('green', 'no runtime type errors in the changed code'));
  out.push('', `${report.fragments.length} fragment(s) run in ${(report.elapsedMs / 1000).toFixed(1)} s:`);
  for (const g of report.fragments) {
    const changed = g.untracked ? 'new file' : `changed ${ranges(g.changedLines)}`;
    out.push(`  ${line1(g.file)}:${g.startLine}-${g.endLine} ${line1(g.function)} (${g.kind}, ${changed}): ${g.status}, ${(g.lineCoverage * 100).toFixed(0)} % of lines${g.error ? `; ${line1(g.error)}` : ''}`);
  }
  return out.join('\n') + '\n';
}

/** The input and what the base version did with it: "throws on parse(null); the base version returned on the same input". */
export function evidenceText(f: Finding): string {
  const e = f.evidence;
  const reached = e.reached === false ? ' (no run reached the use: found by reading the code)' : '';
  if (f.how === 'removed') return `the base version declared this name; the change uses it undeclared${reached}`;
  if (f.how === 'undeclared') return `nothing in the file or its imports declares this name, and no environment's globals hold it${reached}`;
  if (f.how === 'unguarded') return `the base version tests whether this global exists; the change uses it with no such test (where it is absent)${reached}`;
  const input = e.call !== undefined ? `throws on ${e.call}` : 'throws while the file loads';
  const edge = e.edge ? ` with ${[...(e.with ?? []), e.edge].map((x) => `${x.element} = ${x.source}`).join(' and ')}` : '';
  const base = e.base === 'returned' ? '; the base version returned on the same input' : e.base === 'completed' ? '; the base version ran without it on the same values' : e.base === 'rethrew' ? '; the base version let the thrown value out unchanged on the same input' : f.how === 'own' ? ' (a new file: its own values cause it)' : '';
  return `${input}${edge}${base}`;
}

/** Line numbers as `3,11,19-21`. */
function ranges(lines: readonly number[]): string {
  const sorted = [...lines].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i] ?? 0;
    while (i + 1 < sorted.length && sorted[i + 1] === (sorted[i] ?? 0) + 1) i++;
    const end = sorted[i] ?? start;
    out.push(end > start ? `${start}-${end}` : `${start}`);
  }
  return out.join(',');
}
