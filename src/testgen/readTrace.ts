import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { CorruptTrace } from '../core/errors.ts';
import { CALL_KINDS, SERIALIZATIONS, TRACE_FORMAT, TRACE_VERSION, isTraceEnd, type CallKind, type CallRecord, type CallTrace, type Serialization, type Snapshot, type TraceEnd, type TraceHeader, type TraceReach } from '../record/callTrace.ts';
import { lineAt, scanJson } from '../core/jsonPositions.ts';

const serialization = z.enum(SERIALIZATIONS as readonly Serialization[] as [Serialization, ...Serialization[]]);
const kind = z.enum(CALL_KINDS as readonly CallKind[] as [CallKind, ...CallKind[]]);

const symbolSnapshot = z.object({ serialization: z.literal('symbol'), symbol: z.enum(['registered', 'well-known', 'unique']), value: z.string().optional() });
const symbolEntry = z.object({ key: symbolSnapshot, value: z.lazy(() => snapshot), enumerable: z.boolean() });

const snapshot: z.ZodType<Snapshot> = z.lazy(() =>
  z.discriminatedUnion('serialization', [
    z.object({ serialization: z.literal('json'), value: z.json(), class: z.string().optional() }).refine((s) => 'value' in s, { error: 'a json snapshot needs its value', path: ['value'] }),
    z.object({ serialization: z.literal('undefined'), class: z.string().optional() }),
    z.object({ serialization: z.literal('bigint'), value: z.string().regex(/^-?[0-9]+$/, 'a bigint snapshot is a decimal string') }),
    z.object({ serialization: z.literal('date'), value: z.string().refine((iso) => !Number.isNaN(Date.parse(iso)), 'a date snapshot is an ISO date string') }),
    z.object({ serialization: z.literal('map'), value: z.array(z.tuple([snapshot, snapshot])) }),
    z.object({ serialization: z.literal('set'), value: z.array(snapshot) }),
    z.object({ serialization: z.literal('regexp'), value: z.object({ source: z.string(), flags: z.string().regex(/^[dgimsuvy]*$/, 'unknown regexp flag') }) }),
    z.object({ serialization: z.literal('function'), value: z.string().optional(), function: z.object({ module: modulePath, qualname: z.string().min(1) }).optional(), withState: z.literal(true).optional() }),
    // A returned instance in the older form (its fields as returnValue) names no class: the generator skips it.
    z.object({ serialization: z.literal('instance'), value: z.record(z.string(), snapshot), class: z.string().min(1).optional(), symbols: z.array(symbolEntry).optional() }),
    z.object({ serialization: z.literal('object'), value: z.record(z.string(), snapshot), nullPrototype: z.literal(true).optional(), symbols: z.array(symbolEntry).optional() }),
    z.object({ serialization: z.literal('array'), value: z.array(snapshot), fields: z.record(z.string(), snapshot).optional() }),
    symbolSnapshot,
    z.object({ serialization: z.literal('cycle'), value: z.int().positive() }),
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
    state: z.record(z.string(), snapshot).optional(),
    returnValue: z.unknown().optional(),
    returnSerialization: serialization.optional(),
    threw: z.literal(true).optional(),
    exception: z.object({ name: z.string().min(1), module: modulePath.optional(), message: z.string().optional() }).optional(),
    yields: z.array(snapshot).optional(),
    made: z.object({ callId: z.int().positive(), path: z.array(z.string()), rest: z.literal(true).optional(), returnsMade: z.literal(true).optional() }).optional(),
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

const versionError = (issue: { input: unknown }): string => `unsupported trace version ${JSON.stringify(issue.input)} (this snipexec reads versions 1 and ${TRACE_VERSION})`;

/** Version 1: one JSON document. */
const callTraceV1 = z
  .object({
    version: z.literal(1, { error: versionError }),
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
  if (serialization === 'instance' && isRecord(value) && typeof value.class === 'string' && isRecord(value.value)) return { ...value, serialization } as Snapshot;
  // returnFields' form: the snapshot without its serialization.
  if ((serialization === 'object' || serialization === 'symbol' || serialization === 'array') && isRecord(value)) return { ...value, serialization } as Snapshot;
  if (serialization === 'repr' && typeof value === 'string' && value.startsWith('<redacted')) return { serialization, value, redacted: true };
  return value === undefined ? { serialization } : { serialization, value };
}

const header = z
  .object({
    format: z.literal(TRACE_FORMAT),
    version: z.literal(TRACE_VERSION, { error: versionError }),
    program: z.string().min(1),
    argv: z.array(z.string()),
  })
  .strict();

const end = z
  .object({
    end: z.literal(true),
    exitCode: z.int(),
    calls: z.int().nonnegative(),
    truncated: z.object({ limit: z.enum(['maxCalls', 'maxTraceBytes']), max: z.int().positive(), droppedCalls: z.int().nonnegative() }).optional(),
    signal: z.string().optional(),
    interrupted: z.literal(true).optional(),
  })
  .strict();

const reachLine = z
  .object({
    reach: z.array(
      z
        .object({
          module: modulePath,
          qualname: z.string().min(1),
          root: modulePath,
          path: z.array(z.string()).min(1),
          params: z.array(z.object({ name: z.string(), rest: z.boolean() }).strict()),
          async: z.boolean(),
          generator: z.boolean(),
          maker: z.int().positive().optional(),
        })
        .strict(),
    ),
  })
  .strict();

/** How much of a trace file is read at a time: lines are parsed as they come, never the whole file as one string. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads and validates a call trace (`PROGRAM.trace.json`, the layouts of callTrace.ts): version 2
 * line by line, as it streams from the file (a trace may be larger than any string), version 1 as
 * one document. A file that is not one throws CorruptTrace naming the file and, when known, the
 * 1-based line of the bad record (for a JSON syntax error, the line of the error).
 */
export function readTrace(path: string): CallTrace {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new CorruptTrace(`${path}: cannot read the trace file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, undefined, { cause: error });
  }
  try {
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.alloc(CHUNK_BYTES);
    const reader = new TraceLines(path);
    let rest = '';
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const lines = (rest + decoder.write(chunk.subarray(0, read))).split('\n');
      rest = lines.pop() ?? '';
      if (reader.legacy(lines[0] ?? rest)) return parseTraceV1(readWhole(fd, path), path);
      for (const line of lines) reader.line(line);
    }
    rest += decoder.end();
    if (reader.legacy(rest)) return parseTraceV1(readWhole(fd, path), path);
    if (rest !== '') reader.line(rest);
    return reader.trace();
  } finally {
    closeSync(fd);
  }
}

/** parseTrace(text, name): readTrace on text already read; `name` is the file named in errors. */
export function parseTrace(text: string, name: string): CallTrace {
  const reader = new TraceLines(name);
  const lines = text.split('\n');
  if (reader.legacy(lines[0] ?? '')) return parseTraceV1(text, name);
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) reader.line(line);
  return reader.trace();
}

/** Validates a version-2 trace one line at a time, keeping only the calls. */
class TraceLines {
  private readonly name: string;
  private number = 0;
  private head: TraceHeader | undefined;
  private ending: TraceEnd | undefined;
  private reach: TraceReach['reach'] | undefined;
  private readonly calls: CallRecord[] = [];
  private readonly seen = new Set<number>();

  constructor(name: string) {
    this.name = name;
  }

  /** Whether a file starting with `first` (its first line, or what was read of it) is one JSON document (version 1, whose first key is its version), before any line was read. */
  legacy(first: string): boolean {
    return this.number === 0 && /^\s*\{\s*"version"\s*:/.test(first);
  }

  line(text: string): void {
    const line = ++this.number;
    if (this.ending !== undefined) throw this.corrupt(line, 'not a call trace: a line after the end line');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new CorruptTrace(`${this.name}:${line}: not JSON: ${(error as Error).message}`, line, { cause: error });
    }
    if (line === 1) {
      this.head = this.check(header, data, line, 'not a trace header (a trace starts with {"format":"snipexec-trace",…})') as TraceHeader;
    } else if (typeof data === 'object' && data !== null && isTraceEnd(data)) {
      this.ending = this.check(end, data, line) as TraceEnd;
    } else if (typeof data === 'object' && data !== null && 'reach' in data) {
      this.reach = (this.check(reachLine, data, line) as TraceReach).reach;
    } else {
      const call = this.check(callRecord, data, line) as CallRecord;
      if (this.seen.has(call.callId)) throw this.corrupt(line, `not a call trace: callId ${call.callId} appears twice`);
      this.seen.add(call.callId);
      this.calls.push(call);
    }
  }

  trace(): CallTrace {
    if (this.head === undefined) throw this.corrupt(undefined, 'not a call trace: the file is empty');
    const ending = this.ending;
    if (ending === undefined) throw this.corrupt(this.number, 'not a call trace: no end line (the recording did not finish, or the file was cut)');
    if (ending.calls !== this.calls.length) throw this.corrupt(this.number, `not a call trace: the end line counts ${ending.calls} calls, the file holds ${this.calls.length}`);
    // Lines come in the order calls ended; the trace lists them in the order they started.
    const calls = this.calls.sort((a, b) => a.callId - b.callId);
    return { version: TRACE_VERSION, program: this.head.program, argv: this.head.argv, exitCode: ending.exitCode, calls, ...(ending.truncated ? { truncated: ending.truncated } : {}), ...(this.reach ? { reach: this.reach } : {}) };
  }

  private check(schema: z.ZodType, data: unknown, line: number, what?: string): unknown {
    const result = schema.safeParse(data);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const version = issue?.path[0] === 'version';
    throw this.corrupt(line, `${what !== undefined && !version ? what : 'not a call trace'}: ${issue === undefined ? '' : `${describePath(issue.path)}${issue.message}`}`);
  }

  private corrupt(line: number | undefined, message: string): CorruptTrace {
    return new CorruptTrace(`${this.name}${line === undefined ? '' : `:${line}`}: ${message}`, line);
  }
}

/** The whole file as text (a version-1 trace, which its recorder built as one string). */
function readWhole(fd: number, path: string): string {
  const parts: Buffer[] = [];
  const chunk = Buffer.alloc(CHUNK_BYTES);
  for (let at = 0, read = readSync(fd, chunk, 0, CHUNK_BYTES, 0); read > 0; at += read, read = readSync(fd, chunk, 0, CHUNK_BYTES, at)) parts.push(Buffer.from(chunk.subarray(0, read)));
  try {
    return Buffer.concat(parts).toString('utf8');
  } catch (error) {
    throw new CorruptTrace(`${path}: a version-1 trace too large to read as one document: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/** A version-1 trace, already read. */
function parseTraceV1(text: string, name: string): CallTrace {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const found = scanJson(text, -1).error;
    const line = found === undefined ? undefined : lineAt(text, found.offset);
    const what = found?.message ?? (error as Error).message;
    throw new CorruptTrace(`${name}${line === undefined ? '' : `:${line}`}: not JSON: ${what}`, line, { cause: error });
  }
  const result = callTraceV1.safeParse(data);
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
