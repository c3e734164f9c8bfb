// Compares two `runEval.ts --out DIR` results snippet by snippet: line coverage per dataset and mode
// (one execution, and with explored lines), and every snippet that lost or gained a covered line, in
// one execution or with explored lines.
//
// Usage: node eval/lostLines.ts BEFORE_DIR AFTER_DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Row {
  readonly id: string;
  readonly status: string;
  readonly lines: { readonly total: number; readonly measured: readonly number[]; readonly uncovered: readonly number[] };
  readonly explored?: { readonly lines?: { readonly uncovered?: readonly number[] } };
}

const [beforeDir, afterDir] = process.argv.slice(2);
if (!beforeDir || !afterDir) throw new Error('usage: node eval/lostLines.ts BEFORE_DIR AFTER_DIR');

function rows(dir: string, file: string): Map<string, Row> {
  const text = readFileSync(join(dir, file), 'utf8');
  return new Map(text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Row).map((r) => [r.id, r]));
}

const covered = (r: Row): Set<number> => {
  const uncovered = new Set(r.lines.uncovered);
  return new Set(r.lines.measured.filter((l) => !uncovered.has(l)));
};
/** Covered in one execution or in a kept exploration scenario. */
const explored = (r: Row): Set<number> => {
  const uncovered = new Set(r.explored?.lines?.uncovered ?? r.lines.uncovered);
  return new Set(r.lines.measured.filter((l) => !uncovered.has(l)));
};
const percent = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(2)} %`);

for (const file of readdirSync(beforeDir).filter((f) => f.endsWith('.jsonl')).sort()) {
  const before = rows(beforeDir, file);
  const after = rows(afterDir, file);
  let total = 0, b = 0, a = 0, bx = 0, ax = 0;
  const lost: string[] = [];
  const gained: string[] = [];
  for (const [id, rb] of before) {
    const ra = after.get(id);
    if (!ra) {
      lost.push(`  ${id}: absent after`);
      continue;
    }
    total += rb.lines.total;
    const cb = covered(rb), ca = covered(ra);
    b += cb.size; a += ca.size; bx += explored(rb).size; ax += explored(ra).size;
    const gone = [...cb].filter((l) => !ca.has(l));
    const come = [...ca].filter((l) => !cb.has(l));
    if (gone.length > 0) lost.push(`  ${id}: lost lines ${gone.join(', ')}${come.length ? `; gained ${come.join(', ')}` : ''} (${rb.status} → ${ra.status})`);
    else if (come.length > 0) gained.push(`  ${id}: gained lines ${come.join(', ')}`);
    const xb = explored(rb), xa = explored(ra);
    const xgone = [...xb].filter((l) => !xa.has(l));
    const xcome = [...xa].filter((l) => !xb.has(l));
    if (xgone.length > 0) lost.push(`  ${id}: with explored lines, lost ${xgone.join(', ')}${xcome.length ? `; gained ${xcome.join(', ')}` : ''}`);
    else if (xcome.length > 0) gained.push(`  ${id}: with explored lines, gained ${xcome.join(', ')}`);
  }
  console.log(`${file.replace(/\.jsonl$/, '')}: ${before.size} snippets; lines covered ${b} → ${a} of ${total} (${percent(b, total)} → ${percent(a, total)}); with explored lines ${bx} → ${ax} (${percent(bx, total)} → ${percent(ax, total)})`);
  for (const line of [...lost, ...gained]) console.log(line);
}
