import { z } from 'zod';
import { statSync } from 'node:fs';
import { InvalidOptions } from './errors.ts';

export const MODES = ['none', 'dummy', 'trace', 'llm'] as const;
export const LANGS = ['js', 'jsx', 'ts', 'tsx'] as const;

/** Options of one snippet run. Every field has a description and a default; unknown keys are rejected. */
export const runOptionsSchema = z
  .object({
    mode: z.enum(MODES).default('trace').describe('Where missing values come from: none, dummy (heuristic classifier), trace (learnt from recorded usage), llm.'),
    lang: z.enum(LANGS).optional().describe('Source language; inferred from the file name, else tried in order js, jsx, ts, tsx.'),
    fileName: z.string().optional().describe('File name, used to infer the language and in messages.'),
    timeoutMs: z.number().int().min(50).max(600_000).default(5_000).describe('Wall-clock budget of one execution, including timers and promise continuations.'),
    totalTimeoutMs: z.number().int().min(50).max(3_600_000).default(20_000).describe('Wall-clock budget of the whole snippet, all runs together.'),
    memoryLimitMb: z.number().int().min(16).max(4_096).default(128).describe('Heap limit of the isolate in MiB.'),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(1).describe('Seed for Math.random, the virtual clock and value synthesis; a run is deterministic for a seed.'),
    maxRuns: z.number().int().min(1).max(100).default(12).describe('Executions per snippet, the final measured run included.'),
    maxInjections: z.number().int().min(0).max(10_000).default(300).describe('Injected elements per snippet.'),
    maxAttempts: z.number().int().min(1).max(20).default(5).describe('Proposals per element before the fallback dummy is used.'),
    maxChecks: z.number().int().min(0).max(1_000).default(40).describe('Definition checks per snippet (llm mode): each generated definition runs alone in a fresh isolate before the snippet uses it, apart from --max-runs; past this many, definitions go to the snippet unchecked.'),
    checkTimeoutMs: z.number().int().min(50).max(60_000).default(1_000).describe('Wall-clock budget of one definition check; a definition that does not finish in it (an endless loop) is a failed attempt.'),
    maxConsoleBytes: z.number().int().min(0).max(64 * 1024 * 1024).default(64 * 1024).describe('Console output kept per run; the rest is cut and counted.'),
    maxTimerTicks: z.number().int().min(0).max(1_000_000).default(10_000).describe('Timer callbacks run by the virtual clock after the script.'),
    staleTimerTicks: z.number().int().min(0).max(1_000_000).default(1_000).describe('A timer whose callback ran this many times in a row without covering a new statement or branch (an endless setInterval, a poll that sets its own timeout again) is not run again; 0 never stops one.'),
    maxSourceBytes: z.number().int().min(1).max(64 * 1024 * 1024).default(1024 * 1024).describe('Largest snippet accepted, in bytes.'),
    drive: z.boolean().default(true).describe('Drive: after the snippet, call each function, method, getter, setter and constructor it defines that nothing called, with learnt arguments (and in --emit too, for those reachable from its top level). On by default; --no-drive runs the code as written.'),
    scenarios: z.number().int().min(1).max(64).default(8).describe('Explore: after the first execution, up to this many scenarios in all (trace and llm modes), each answering one decision on an injected value the other way; a scenario is kept when it covers new lines. The result\'s explored field holds their union; lineCoverage stays the first execution\'s. 1 gives a single execution.'),
    callUncalled: z.boolean().optional().describe('Alias of drive (the default), for scripts written when it was opt-in.'),
    environments: z.boolean().default(true).describe('Environments: the names a snippet uses select a DOM, jQuery, React, Node\'s built-ins, Express-style servers or installed pure npm modules, loaded before it runs. On by default; --no-environments runs the snippet on learnt values alone.'),
    modulesDirs: z
      .array(z.string().min(1).refine(isDirectory, { error: (issue) => `not a directory: ${String(issue.input)}` }))
      .default([])
      .describe('Directories to look for installed npm modules in (a node_modules directory, or one holding it), before node_modules of the working directory and its parents. A pure-JavaScript module found there is bundled into the sandbox instead of synthesized.'),
    projectDir: z
      .string()
      .min(1)
      .refine(isDirectory, { error: (issue) => `not a directory: ${String(issue.input)}` })
      .optional()
      .describe('The project the snippet is a file of (fileName, relative to it): its relative imports (`./utils`) load the project\'s real files into the sandbox, instead of learnt values. Nothing outside the directory, or inside its node_modules, is loaded.'),
    operatorHooks: z.boolean().optional().describe('Hook comparison, arithmetic and typeof operators; on by default in trace and llm mode, which learn from them.'),
  })
  .strict();

export type RunOptionsInput = z.input<typeof runOptionsSchema>;
export type RunOptions = z.output<typeof runOptionsSchema>;
export type Mode = (typeof MODES)[number];
export type Lang = (typeof LANGS)[number];

/** Validates options at the API boundary and converts a zod failure into InvalidOptions. */
export function parseRunOptions(input: unknown): RunOptions {
  return parseWith(runOptionsSchema, input);
}

export const batchOptionsSchema = z
  .object({
    out: z.string().optional().describe('JSONL file the results are appended to as they finish.'),
    concurrency: z.number().int().min(1).max(64).default(2).describe('Snippets run at once, each in its own isolate.'),
    processes: z.number().int().min(1).max(64).default(1).describe('Worker processes the running snippets are shared over (at most --concurrency). One process does all host work on its one main thread, so it uses about 1.5 cores whatever --concurrency says; more processes can use more cores, each paying its own start and warm-up (about a second), so it pays on machines with more than 2 cores and large datasets. Not with --mode llm or a caller\'s value source.'),
    resume: z.boolean().default(false).describe('Skip the ids already present in --out.'),
    limit: z.number().int().min(1).optional().describe('Run at most this many snippets.'),
  })
  .strict();

export type BatchOptionsInput = z.input<typeof batchOptionsSchema>;
export type BatchOptions = z.output<typeof batchOptionsSchema>;

export function parseBatchOptions(input: unknown): BatchOptions {
  return parseWith(batchOptionsSchema, input);
}

/** Limits of one recording (`snipexec record`, `recordProgram`): the trace is written as the program runs, and stops growing at either. */
export const recordLimitsSchema = z
  .object({
    maxCalls: z.number().int().min(1).max(1_000_000_000).default(200_000).describe('Calls recorded at most, in the order they start; the program still runs the rest, and the trace\'s end line and the summary say how many were dropped.'),
    maxTraceBytes: z.number().int().min(4_096).max(Number.MAX_SAFE_INTEGER).default(256 * 1024 * 1024).describe('Largest trace file, in bytes; calls that would make it larger are dropped and counted, as with --max-calls.'),
  })
  .strict();

export type RecordLimitsInput = z.input<typeof recordLimitsSchema>;
export type RecordLimits = z.output<typeof recordLimitsSchema>;

export function parseRecordLimits(input: unknown): RecordLimits {
  return parseWith(recordLimitsSchema, input);
}

/** `input` (undefined: no options) checked against `schema`, a failure an InvalidOptions naming each bad field. */
function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new InvalidOptions(formatIssues(result.error));
  return result.data;
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; ');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
