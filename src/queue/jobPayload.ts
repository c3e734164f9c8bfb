import { z } from 'zod';
import { LANGS } from '../options.ts';

/** The version of the job payload; a worker answers a job of another version with an error row. */
export const PAYLOAD_VERSION = 1;

/** What a queued job carries: the snippet, and the run's options as the producer gave them (validated again by the worker's engine). */
export const jobPayloadSchema = z.object({
  v: z.literal(PAYLOAD_VERSION),
  runKey: z.string().min(1),
  id: z.string(),
  code: z.string(),
  lang: z.enum(LANGS).optional(),
  run: z.record(z.string(), z.unknown()),
  /** The producer's LLM flags (no endpoint or key: each worker reads its own environment). */
  llm: z.record(z.string(), z.unknown()).optional(),
});

export type JobPayload = z.infer<typeof jobPayloadSchema>;

/** The queue of a run named `name` (--name; `snipexec` when none is given). */
export function queueName(name: string | undefined): string {
  return name === undefined || name === '' ? 'snipexec' : `snipexec-${name}`;
}
