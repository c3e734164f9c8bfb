import { z } from 'zod';
import { LANGS } from '../core/options.ts';
import { jobLlmSchema, jobRunSchema } from './jobTrust.ts';

/** The version of the job payload; a worker answers a job of another version with an error row. */
export const PAYLOAD_VERSION = 1;

/**
 * What a queued job carries: the snippet, the run's behaviour and budgets (capped by the worker,
 * jobTrust.ts), its LLM model, temperature and caps, and with a shared secret the producer's HMAC.
 * Nothing else: an unknown key is a malformed payload.
 */
export const jobPayloadSchema = z
  .object({
    v: z.literal(PAYLOAD_VERSION),
    runKey: z.string().min(1).max(200),
    id: z.string(),
    code: z.string(),
    lang: z.enum(LANGS).optional(),
    run: jobRunSchema,
    llm: jobLlmSchema.optional(),
    /** HMAC-SHA256 of the rest under SNIPEXEC_QUEUE_SECRET (signPayload), when the producer has one. */
    sig: z.string().optional(),
  })
  .strict();

export type JobPayload = z.infer<typeof jobPayloadSchema>;

/** The queue of a run named `name` (--name; `snipexec` when none is given). */
export function queueName(name: string | undefined): string {
  return name === undefined || name === '' ? 'snipexec' : `snipexec-${name}`;
}
