import pino, { type Logger } from 'pino';
import type { LlmOptions } from '../llm/llmOptions.ts';

/**
 * The CLI's pino logger: to --log-file at debug level (every LLM exchange, redacted), else to
 * stderr at warn. Synchronous, so a killed batch keeps every line written so far.
 */
export function createLogger(options: Pick<LlmOptions, 'logFile' | 'logLevel'>): Logger {
  const level = options.logLevel ?? (options.logFile ? 'debug' : 'warn');
  const destination = options.logFile ? pino.destination({ dest: options.logFile, sync: true, mkdir: true }) : pino.destination({ dest: 2, sync: true });
  return pino({ level }, destination);
}
