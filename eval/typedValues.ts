// Measures whether injected values honour the types a snippet declares: on the TypeScript snippets
// of the datasets, counts the injected definitions whose element has an annotated type (a
// TypeScript annotation or a JSDoc type), and the share of them whose runtime type matches it.
//
// Usage: node --no-node-snapshot eval/typedValues.ts [--tool DIR] [--shared DIR] [--concurrency N] [--out FILE] [--list]
//   --tool DIR     run the snipexec checkout at DIR (its src/index.ts), e.g. main's code for a "before"
//                  figure; the annotations are always read by this checkout's collector. Default: this one.
//   --shared DIR   the shared datasets (*.jsonl); default ../shared/datasets, else /work/shared/datasets
//   --list         print every typed injection, not only the mismatches
//
// The TypeScript snippets: rows of the shared sets whose `lang`/`language`/`ext` says ts or tsx, or
// that carry none and parse only as TypeScript; rows of datasets/generated/functions.jsonl from .ts
// files; the hand-written files with a .ts or .tsx extension.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FUNCTIONS_FILE, readHandwritten, SHARED_DIR } from '../datasets/loadDatasets.ts';
import type { Category } from '../src/core/categories.ts';
import type { Lang } from '../src/core/options.ts';
import type { Injection, RunResult } from '../src/core/runResult.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

const { values } = parseArgs({
  options: {
    tool: { type: 'string' },
    shared: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    out: { type: 'string' },
    list: { type: 'boolean', default: false },
  },
});

interface TsSnippet {
  readonly id: string;
  readonly set: string;
  readonly code: string;
  readonly lang: Lang;
}

const TYPED = new Set(['ts', 'tsx']);

/** The language a row declares, if any. */
function declaredLang(row: Record<string, unknown>): string | undefined {
  for (const k of ['lang', 'language', 'ext']) if (typeof row[k] === 'string') return (row[k] as string).replace(/^\./, '').toLowerCase();
  return undefined;
}

/** The language a row without one parses as (js, jsx, ts, tsx in turn); undefined when nothing parses. */
function parsedLang(code: string): Lang | undefined {
  try {
    return parseSnippet(code).lang;
  } catch {
    return undefined;
  }
}

async function tsSnippets(): Promise<TsSnippet[]> {
  const out: TsSnippet[] = [];
  const sharedDir = values.shared ?? (existsSync(SHARED_DIR) ? SHARED_DIR : '/work/shared/datasets');
  if (existsSync(sharedDir)) {
    for (const f of readdirSync(sharedDir).filter((n) => n.endsWith('.jsonl')).sort()) {
      for (const line of readFileSync(join(sharedDir, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const row = JSON.parse(line) as Record<string, unknown>;
        const code = typeof row.code === 'string' ? row.code : undefined;
        if (code === undefined) continue;
        const lang = declaredLang(row) ?? parsedLang(code);
        if (lang && TYPED.has(lang)) out.push({ id: String(row.id), set: f.replace(/\.jsonl$/, ''), code, lang: lang as Lang });
      }
    }
  }
  if (existsSync(FUNCTIONS_FILE)) {
    for (const line of readFileSync(FUNCTIONS_FILE, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { id: string; code: string; file?: string };
      const m = row.file?.match(/\.(tsx?)$/);
      if (m) out.push({ id: row.id, set: 'functions', code: row.code, lang: m[1] as Lang });
    }
  }
  for await (const item of readHandwritten()) if (item.lang && TYPED.has(item.lang)) out.push({ id: item.id, set: 'handwritten', code: item.code, lang: item.lang });
  return out;
}

/**
 * What the snippet declares of each element, by element id: this checkout's reading, whichever tool
 * runs the snippet. The declared types its own run reports (`declared` of each injection), then
 * its collector's usage table for elements only the other tool injected (there an element's id is
 * its usage key as a rule).
 */
async function declaredTable(s: TsSnippet, own: RunResult): Promise<Map<string, { type: string; category: Category }>> {
  const out = new Map<string, { type: string; category: Category }>();
  for (const inj of own.injections) if (inj.declared) out.set(inj.element, inj.declared);
  const parsed = parseSnippet(s.code, s.lang);
  const { usage } = instrumentSnippet(parsed.ast, parsed.code, { lang: parsed.lang, operatorHooks: true, drive: true });
  for (const [key, u] of Object.entries(usage)) if (u.declared?.category && !out.has(key)) out.set(key, { type: u.declared.type ?? u.declared.category, category: u.declared.category });
  return out;
}

/** The runtime type a value of a category has: what `typeof` and the built-in constructors tell apart. */
function runtimeType(c: Category): string {
  switch (c) {
    case 'array': case 'tuple': return 'array';
    case 'function': case 'class': return 'function';
    default: return c;
  }
}

/** Whether an injected value of `got` has the declared type: an interface or `object` is any plain object (an element too). */
function matches(declared: Category, got: Category): boolean {
  if (declared === 'object') return got === 'object' || got === 'element';
  return runtimeType(declared) === runtimeType(got);
}

interface TypedInjection {
  readonly snippet: string;
  readonly element: string;
  readonly declared: string;
  readonly category: Category;
  readonly got: Category;
  readonly match: boolean;
}

type Run = (code: string, options: Record<string, unknown>) => Promise<RunResult>;
const ownDir = resolve(import.meta.dirname, '..');
const toolDir = resolve(values.tool ?? ownDir);
const { runSnippet: runOwn } = (await import(join(ownDir, 'src', 'index.ts'))) as { runSnippet: Run };
const { runSnippet } = toolDir === ownDir ? { runSnippet: runOwn } : ((await import(join(toolDir, 'src', 'index.ts'))) as { runSnippet: Run });

const snippets = await tsSnippets();
const typed: TypedInjection[] = [];
const bySet = new Map<string, number>();
let next = 0;
async function worker(): Promise<void> {
  for (let i = next++; i < snippets.length; i = next++) {
    const s = snippets[i] as TsSnippet;
    bySet.set(s.set, (bySet.get(s.set) ?? 0) + 1);
    const options = { mode: 'trace', lang: s.lang };
    const own = await runOwn(s.code, options);
    const table = await declaredTable(s, own);
    const result = toolDir === ownDir ? own : await runSnippet(s.code, options);
    for (const inj of result.injections as Injection[]) {
      const d = table.get(inj.element);
      if (!d?.category) continue;
      typed.push({ snippet: `${s.set}/${s.id}`, element: inj.element, declared: d.type ?? d.category, category: d.category, got: inj.category, match: matches(d.category, inj.category) });
    }
  }
}
await Promise.all(Array.from({ length: Math.max(1, Number(values.concurrency)) }, worker));

typed.sort((a, b) => a.snippet.localeCompare(b.snippet) || a.element.localeCompare(b.element));
const matched = typed.filter((x) => x.match).length;
for (const x of typed) if (values.list || !x.match) console.log(`${x.match ? 'ok  ' : 'MISS'} ${x.snippet}  ${x.element}: declared ${x.declared} (${x.category}), injected ${x.got}`);
const share = typed.length === 0 ? 0 : matched / typed.length;
console.log(`snippets: ${snippets.length} (${[...bySet].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'})`);
console.log(`tool: ${toolDir}`);
console.log(`injected values with an annotated type: ${typed.length}; runtime type matches: ${matched} (${(share * 100).toFixed(1)} %)`);
if (values.out) writeFileSync(values.out, `${JSON.stringify({ tool: toolDir, snippets: snippets.length, typed: typed.length, matched, share, injections: typed }, null, 2)}\n`);
