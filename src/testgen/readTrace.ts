import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CorruptTrace } from '../core/errors.ts';
import { CALL_KINDS, SERIALIZATIONS, TRACE_VERSION, type CallKind, type CallRecord, type CallTrace, type Serialization, type Snapshot } from '../record/callTrace.ts';
import { lineAt, scanJson } from './jsonPositions.ts';

const serialization = z.enum(SERIALIZATIONS as readonly Serialization[] as [Serialization, ...Serialization[]]);
const kind = z.enum(CALL_KINDS as readonly CallKind[] as [CallKind, ...CallKind[]]);

const snapshot: z.ZodType<Snapshot> = z.lazy(() =>
  z.discriminatedUnion('serialization', [
    z.object({ serialization: z.literal('json'), value: z.json(), class: z.string().optional() }).refine((s) => 'value' in s, { error: 'a json snapshot needs its value', path: ['value'] }),
    z.object({ serialization: z.literal('undefined'), class: z.string().optional() }),
    z.object({ serialization: z.literal('bigint'), value: z.string().regex(/^-?[0-9]+$/, 'a bigint snapshot is a decimal string') }),
    z.object({ serialization: z.literal('date'), value: z.string().refine((iso) => !Number.isNaN(Date.parse(iso)), 'a date snapshot is an ISO date string') }),
    z.object({ serialization: z.literal('map'), value: z.array(z.tuple([snapshot, snapshot])) }),
    z.object({ serialization: z.literal('set'), value: z.array(snapshot) }),
    z.object({ serialization: z.literal('regexp'), value: z.object({ source: z.string(), flags: z.string().regex(/^[dgimsuvy]*$/, 'unknown regexp flag') }) }),
    z.object({ serialization: z.literal('function'), value: z.string().optional() }),
    // A returned instance in the older form (its fields as returnValue) names no class: the generator skips it.
    z.object({ serialization: z.literal('instance'), value: z.record(z.string(), snapshot), class: z.string().min(1).optional() }),
    z.object({ serialization: z.literal('repr'), value: z.string().optional(), class: z.string().optional(), redacted: z.literal(true).optional() }),
  ]),
);

/** A module path as the trace gives it: relative to the program's directory, `/`-separated, inside it. */
const modulePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !/^[A-Za-z]:/.test(path) && !path.includes('\\') && !path.split('/').some((part) => part === '..' || part === '.' || part === ''), {
    error: 'a module is a /-separated path inside the program directory',
  });

const callRecord = z
  .object({
    callId: z.int().positive(),
    parentCallId: z.int().positive().nullable(),
    module: modulePath,
    qualname: z.string().min(1),
    kind,
    line: z.int().nonnegative(),
    args: z.record(z.string(), snapshot),
    this: snapshot.optional(),
    returnValue: z.unknown().optional(),
    returnSerialization: serialization.optional(),
    threw: z.literal(true).optional(),
    exception: z.object({ name: z.string().min(1), module: modulePath.optional(), message: z.string().optional() }).optional(),
  })
  .superRefine((call, context) => {
    if ((call.threw === true) === (call.returnSerialization !== undefined)) {
      context.addIssue({ code: 'custom', message: 'a call has either returnSerialization (it returned) or threw', path: [] });
    } else if (call.threw === true && call.exception === undefined) {
      context.addIssue({ code: 'custom', message: 'a call that threw needs its exception', path: ['exception'] });
    } else if (call.returnSerialization !== undefined) {
      const returned = snapshot.safeParse(returnSnapshot(call as CallRecord));
      for (const issue of returned.success ? [] : returned.error.issues) {
        context.addIssue({ code: 'custom', message: `return value: ${issue.message}`, path: ['returnValue', ...issue.path.slice(1)] });
      }
    }
  });

const callTrace = z
  .object({
    version: z.literal(TRACE_VERSION, { error: (issue) => `unsupported trace version ${JSON.stringify(issue.input)} (this snipexec reads version ${TRACE_VERSION})` }),
    program: z.string().min(1),
    argv: z.array(z.string()),
    exitCode: z.int(),
    calls: z.array(callRecord),
  })
  .superRefine((trace, context) => {
    const seen = new Set<number>();
    trace.calls.forEach((call, index) => {
      if (seen.has(call.callId)) context.addIssue({ code: 'custom', message: `callId ${call.callId} appears twice`, path: ['calls', index, 'callId'] });
      seen.add(call.callId);
    });
  });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A call's result as one snapshot. The recorder writes a returned instance as
 * `returnValue: { class, value }` (its class and its fields), and a redacted result as the `repr`
 * `<redacted:env>` (CallRecord has no field for either); fields alone (`{ items: {…} }`) name no class.
 */
export function returnSnapshot(call: CallRecord): Snapshot {
  const { returnSerialization: serialization = 'undefined', returnValue: value } = call;
  if (serialization === 'instance' && isRecord(value) && typeof value.class === 'string' && isRecord(value.value)) return { serialization, class: value.class, value: value.value };
  if (serialization === 'repr' && typeof value === 'string' && value.startsWith('<redacted')) return { serialization, value, redacted: true };
  return value === undefined ? { serialization } : { serialization, value };
}

/**
 * Reads and validates a call trace (`PROGRAM.trace.json`, the layout of callTrace.ts). A file that
 * is not one throws CorruptTrace naming the file and, when known, the 1-based line of the bad
 * record (for a JSON syntax error, the line of the error).
 */
export function readTrace(path: string): CallTrace {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CorruptTrace(`${path}: cannot read the trace file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, undefined, { cause: error });
  }
  return parseTrace(text, path);
}

/** parseTrace(text, name): readTrace on text already read; `name` is the file named in errors. */
export function parseTrace(text: string, name: string): CallTrace {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const found = scanJson(text, -1).error;
    const line = found === undefined ? undefined : lineAt(text, found.offset);
    const what = found?.message ?? (error as Error).message;
    throw new CorruptTrace(`${name}${line === undefined ? '' : `:${line}`}: not JSON: ${what}`, line, { cause: error });
  }
  const result = callTrace.safeParse(data);
  if (result.success) return result.data as CallTrace;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new CorruptTrace(`${name}: not a call trace`);
  // The line of the record the issue is in (`calls/3`), else of the field (`version`), else the file's first.
  const offsets = scanJson(text, 2).offsets;
  let offset: number | undefined;
  for (let length = Math.min(issue.path.length, 2); offset === undefined && length >= 0; length--) offset = offsets.get(issue.path.slice(0, length).map(String).join('/'));
  const line = offset === undefined ? undefined : lineAt(text, offset);
  throw new CorruptTrace(`${name}${line === undefined ? '' : `:${line}`}: not a call trace: ${describePath(issue.path)}${issue.message}`, line);
}

function describePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '';
  return `${path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('')}: `;
}
