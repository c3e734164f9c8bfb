// Checks the measured lines against an independent statement count (test/statementLines.ts), over
// every snippet of the given JSONL datasets that parses: parse and instrument only, nothing runs.
// A statement line that is not measured is a line the metric leaves out. Exit status 1 if any.
//   npx node --no-node-snapshot test/checkStatementCount.ts [FILE.jsonl…]   (default: ../shared/datasets/*)
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measuredLines } from '../src/instrument/coverageModel.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { statementLines } from './statementLines.ts';

const shared = fileURLToPath(new URL('../../shared/datasets/', import.meta.url));
const files = process.argv.length > 2 ? process.argv.slice(2) : ['so-node-edits.jsonl', 'npm-readme-examples.jsonl'].map((f) => shared + f).filter(existsSync);
let parsedCount = 0;
const problems: string[] = [];
for (const file of files) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const item = JSON.parse(line) as { id: string; code: string; lang?: 'js' | 'jsx' | 'ts' | 'tsx' };
    let parsed;
    try {
      parsed = parseSnippet(item.code, item.lang);
    } catch {
      continue; // a syntax error: nothing is measured
    }
    parsedCount++;
    let measured: Set<number>;
    try {
      measured = new Set(measuredLines(instrumentSnippet(parsed.ast, parsed.code, { lang: parsed.lang, operatorHooks: false, droppedLines: parsed.droppedLines ?? [] }).map));
    } catch (error) {
      problems.push(`${item.id}: instrumentation failed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const missing = [...statementLines(parsed.code, parsed.lang)].filter((l) => !measured.has(l));
    if (missing.length > 0) problems.push(`${item.id}: statements on lines ${missing.join(', ')} are not measured`);
  }
}
for (const p of problems) console.log(p);
console.log(`${parsedCount} parsed snippets in ${files.length} file(s); ${problems.length} with statement lines not measured`);
process.exitCode = problems.length > 0 ? 1 : 0;
