import { terminalText } from '../report/terminalText.ts';
import pino, { type Logger } from 'pino';
import type { LlmOptions } from '../llm/llmOptions.ts';

const LEVEL_WORD: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warning', 50: 'error', 60: 'fatal' };
/** pino's own fields, which a sentence does not repeat. */
const OWN_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'module', 'snippet', 'err']);

/**
 * A pino line as a sentence for a person at a terminal: `snipexec: warning: LLM request failed
 * (snippet a.js; error: HTTP 503: …; retries: 4)`. Only stderr gets these; --log-file keeps JSON.
 */
export function logLineAsSentence(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVEL_WORD[Number(o.level)] ?? 'log';
  const details: string[] = [];
  if (typeof o.snippet === 'string') details.push(`snippet ${o.snippet}`);
  for (const [key, value] of Object.entries(o)) {
    if (OWN_FIELDS.has(key) || value === undefined) continue;
    details.push(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  const err = o.err as { message?: unknown; stack?: unknown } | undefined;
  const stack = typeof err?.stack === 'string' ? `\n${err.stack}` : typeof err?.message === 'string' ? `: ${err.message}` : '';
  return `snipexec: ${level}: ${String(o.msg ?? '')}${details.length > 0 ? ` (${details.join('; ')})` : ''}${stack}\n`;
}

/**
 * The CLI's pino logger: to --log-file at debug level (every LLM exchange, redacted, as JSON),
 * else to stderr at warn, as sentences. Synchronous, so a killed batch keeps every line written so far.
 */
export function createLogger(options: Pick<LlmOptions, 'logFile' | 'logLevel'>): Logger {
  const level = options.logLevel ?? (options.logFile ? 'debug' : 'warn');
  if (options.logFile) return pino({ level }, pino.destination({ dest: options.logFile, sync: true, mkdir: true }));
  const stderr = pino.destination({ dest: 2, sync: true });
  // A log line may quote a snippet's or a model's text: its control codes are shown, not obeyed.
  return pino({ level }, { write: (line: string) => stderr.write(terminalText(logLineAsSentence(line))) });
}
