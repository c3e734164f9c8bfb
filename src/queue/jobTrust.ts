import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { LlmFlags } from '../llm/llmOptions.ts';
import { runOptionsSchema, type RunOptions, type RunOptionsInput } from '../core/options.ts';

/**
 * What a worker takes from a job, and nothing more. Anyone who can write to the run's Redis can
 * enqueue a job, so a job carries the snippet and may ask for *less*: each budget is the smaller of
 * the job's and the worker's own (its flags), and no path, endpoint, cache or log setting is read
 * from a job at all. With a shared secret (SNIPEXEC_QUEUE_SECRET on the producer and the worker)
 * a job must carry the producer's HMAC of its payload, or it is refused unrun.
 */

/** The run options that are budgets: a job's value is capped at the worker's. */
export const BUDGET_KEYS = [
  'timeoutMs', 'totalTimeoutMs', 'memoryLimitMb', 'maxRuns', 'maxInjections', 'maxAttempts', 'maxChecks',
  'checkTimeoutMs', 'maxConsoleBytes', 'maxTimerTicks', 'staleTimerTicks', 'maxSourceBytes', 'scenarios',
] as const satisfies readonly (keyof RunOptions)[];

/** The run options a job may set as it likes: what runs, not how much or where. */
const BEHAVIOUR_KEYS = ['mode', 'lang', 'fileName', 'seed', 'drive', 'callUncalled', 'environments', 'operatorHooks'] as const satisfies readonly (keyof RunOptions)[];

const shape = runOptionsSchema.shape;
const pickOptional = <K extends keyof typeof shape>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, shape[k].optional()])) as { [P in K]: z.ZodOptional<(typeof shape)[P]> };

/** A job's run options: behaviour and budgets only (no `modulesDirs`: a job names no path of the worker's); unknown keys are refused. */
export const jobRunSchema = z.object({ ...pickOptional(BEHAVIOUR_KEYS), ...pickOptional(BUDGET_KEYS) }).strict();

/** The LLM settings a job may carry: the model and temperature of its run, and caps (each capped at the worker's). */
export const jobLlmSchema = z
  .object({
    model: z.string().min(1).max(200).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxCompletionTokens: z.number().int().min(16).optional(),
    maxCallsPerSnippet: z.number().int().min(0).optional(),
    maxTokensPerSnippet: z.number().int().min(0).optional(),
    maxCallsPerBatch: z.number().int().min(0).optional(),
    maxTokensPerBatch: z.number().int().min(0).optional(),
  })
  .strict();

export type JobRun = z.infer<typeof jobRunSchema>;
export type JobLlm = z.infer<typeof jobLlmSchema>;

const LLM_CAPS = ['maxCompletionTokens', 'maxCallsPerSnippet', 'maxTokensPerSnippet', 'maxCallsPerBatch', 'maxTokensPerBatch'] as const;

/** The options a job runs with: its behaviour, and each budget the smaller of its own and the worker's (`limits`, defaults filled in). */
export function runOptionsForJob(job: JobRun, limits: RunOptionsInput): RunOptionsInput {
  const worker = runOptionsSchema.parse({ ...limits });
  const out: Record<string, unknown> = {};
  for (const k of BEHAVIOUR_KEYS) if (job[k] !== undefined) out[k] = job[k];
  for (const k of BUDGET_KEYS) out[k] = Math.min(job[k] ?? worker[k], worker[k]);
  // The worker's own module directories, never a job's.
  if (worker.modulesDirs.length > 0) out.modulesDirs = worker.modulesDirs;
  return out as RunOptionsInput;
}

/**
 * The LLM flags a job runs with: every setting is the worker's (endpoint and key from its
 * environment, cache, log, timeouts, retries); the job's model and temperature are used only where
 * the worker sets none; each cap is the smaller of the two.
 */
export function llmFlagsForJob(job: JobLlm | undefined, worker: LlmFlags, env: NodeJS.ProcessEnv): LlmFlags {
  const out: Record<string, unknown> = { ...worker };
  if (out.model === undefined && job?.model !== undefined && (env.SNIPEXEC_MODEL ?? '').trim() === '') out.model = job.model;
  if (out.temperature === undefined && job?.temperature !== undefined) out.temperature = job.temperature;
  for (const k of LLM_CAPS) {
    const mine = worker[k];
    const theirs = job?.[k];
    if (theirs !== undefined) out[k] = mine === undefined ? theirs : Math.min(mine, theirs);
  }
  return out as LlmFlags;
}

/** A payload's canonical text: keys sorted at every depth, so the producer's and the worker's agree whatever order Redis hands back. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The part of a producer's options a job carries: its behaviour and budgets (runOptionsForJob caps them), its LLM model, temperature and caps. */
export function jobOptions(run: RunOptionsInput, llm: LlmFlags | undefined): { run: JobRun; llm?: JobLlm } {
  const keys = new Set<string>([...BEHAVIOUR_KEYS, ...BUDGET_KEYS]);
  const jobRun = Object.fromEntries(Object.entries(run).filter(([k, v]) => keys.has(k) && v !== undefined)) as JobRun;
  if (llm === undefined) return { run: jobRun };
  const llmKeys = new Set(Object.keys(jobLlmSchema.shape));
  return { run: jobRun, llm: Object.fromEntries(Object.entries(llm).filter(([k, v]) => llmKeys.has(k) && v !== undefined)) as JobLlm };
}

/** The HMAC-SHA256 of a payload (its `sig` left out) under the shared secret, hex. */
export function signPayload(payload: Record<string, unknown>, secret: string): string {
  const { sig: _sig, ...rest } = payload;
  return createHmac('sha256', secret).update(canonical(rest)).digest('hex');
}

/** Whether a payload carries the right signature for the secret (compared in constant time). */
export function signatureHolds(payload: Record<string, unknown>, secret: string): boolean {
  const sig = payload.sig;
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return false;
  return timingSafeEqual(Buffer.from(sig, 'hex'), Buffer.from(signPayload(payload, secret), 'hex'));
}

/** The shared secret of queued runs, from the environment (never a flag: a flag's value shows in `ps`). */
export function queueSecret(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const secret = env.SNIPEXEC_QUEUE_SECRET;
  return secret === undefined || secret === '' ? undefined : secret;
}
