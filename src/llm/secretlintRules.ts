import { rules as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { SnipexecError } from '../core/errors.ts';
import type { Finding } from './secretRules.ts';

/**
 * secretlint's recommended preset, applied synchronously to one string. Its scanners are plain
 * functions that call `context.report` while `file()` runs, so no secretlint engine is needed: each
 * rule is created once with a context that collects its reports.
 */
interface Report {
  readonly message: { readonly data?: Readonly<Record<string, unknown>> };
  readonly range: readonly [number, number];
}
interface RuleContext {
  readonly sharedOptions: Readonly<Record<string, unknown>>;
  createTranslator(messages: unknown): (id: string, data?: Record<string, unknown>) => Report['message'];
  report(report: Report): void;
  ignore(): void;
}
interface RuleCreator {
  readonly meta: { readonly id: string; readonly type: string };
  create(context: RuleContext, options: Record<string, unknown>): { file?(source: Source): void | Promise<void> };
}
interface Source {
  readonly content: string;
  readonly filePath: string;
  readonly ext: string;
  readonly contentType: 'text';
}

let reports: { kind: string; report: Report }[] = [];

const scanners = (recommended as unknown as readonly RuleCreator[])
  // Filters such as secretlint-disable comments would let a snippet switch redaction off.
  .filter((rule) => rule.meta.type === 'scanner')
  .map((rule) => {
    const kind = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '').toUpperCase().replace(/[^A-Z]+/g, '_').replace(/^_+|_+$/g, '');
    const context: RuleContext = {
      sharedOptions: {},
      createTranslator: () => (_id, data) => ({ data }),
      report: (report) => reports.push({ kind, report }),
      ignore: () => {},
    };
    return synchronous(rule.create(context, {}).file);
  });

function synchronous(file: ((source: Source) => void | Promise<void>) | undefined): (source: Source) => void {
  return (source) => {
    // A text source never takes the asynchronous paths (.p12 files); a promise here would be a missed report.
    const pending = file?.(source);
    if (pending instanceof Promise) throw new SnipexecError('INTERNAL', 'a secretlint rule answered asynchronously; redaction must be synchronous');
  };
}

/** Every secret the preset knows is a run of 16 or more non-space characters; shorter text is skipped cheaply. */
const LONG_ENOUGH = /\S{16}/;

/** What secretlint's recommended rules find in `text`, each narrowed to the secret itself. */
export function secretlintFindings(text: string): Finding[] {
  if (!LONG_ENOUGH.test(text)) return [];
  reports = [];
  const source: Source = { content: text, filePath: 'snippet.txt', ext: '.txt', contentType: 'text' };
  for (const scan of scanners) scan(source);
  return reports.map(({ kind, report }) => narrowed(text, kind, report));
}

const URL_PASSWORD = /:\/\/[^\s:/@]*:([^\s@/]+)@/;

/**
 * Rules report ranges that are sometimes loose (the AWS rule's starts at the key name, the
 * connection-string rule's runs past the closing quote); the reported value is exact, so it is looked
 * for from the range's start. A URL with credentials is narrowed to its password.
 */
function narrowed(text: string, kind: string, { message, range }: Report): Finding {
  const [start, end] = range;
  for (const value of Object.values(message.data ?? {})) {
    if (typeof value !== 'string' || value.length < 4) continue;
    const secret = URL_PASSWORD.exec(value)?.[1] ?? value;
    const i = text.indexOf(secret, Math.max(0, start - secret.length));
    if (i >= 0 && i <= end) return { start: i, end: i + secret.length, kind };
  }
  return { start, end, kind };
}
