import type { Log } from 'sarif';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lineHashes } from './lineHashes.ts';
import { diffExitCode, type DiffReport, type Finding } from './runDiff.ts';
import { evidenceText } from './formatDiff.ts';

const RULE_ID = 'snipexec/runtime-type-error';
/** The rule's help, as text; its markdown is the same with the error types as code. */
const HELP = 'snipexec diff ran the functions around the change in the changed file and in its base version, on the same inputs. The changed version raised this TypeError, RangeError or ReferenceError; the base version did not. The result names the input (the call and, for an edge value, the element given it). Restore the handling of that input, or check that it can no longer occur.';
/** The README section on `snipexec diff`, as GitHub anchors it. */
const README_ANCHOR = 'check-a-change-snipexec-diff';
/** The uriBaseId every artifact location is relative to: the repository's top level. */
const SRCROOT = '%SRCROOT%';
/** The statuses of a fragment that was not checked at all. */
const NOT_CHECKED = new Set(['syntax-error', 'internal-error']);

/**
 * The findings as a SARIF 2.1.0 log, for code scanning (GitHub, Azure DevOps, IDEs).
 *
 * Each result has `partialFingerprints`, so code scanning tracks it across commits:
 * `primaryLocationLineHash` as GitHub computes it (from the text of the line and the ones after
 * it, not its number), and `snipexecFindingHash/v1` (rule, function, the line's text with its
 * blanks collapsed, the message without line numbers). Both need the source: they are read from
 * `report.root`, and left out for a file that is gone.
 *
 * `informationUri` is the tool's home page, absolute (SARIF allows no relative one); the rule's
 * `helpUri` is its README section there. Without one, neither is written and the rule's `help`
 * carries the explanation alone.
 */
export function toSarif(report: DiffReport, version: string, informationUri?: string): Log {
  const sources = new Map<string, { lines: string[]; hashes: string[] } | undefined>();
  const source = (file: string) => {
    if (!sources.has(file)) {
      let text: string | undefined;
      try {
        text = readFileSync(join(report.root, file), 'utf8');
      } catch {
        text = undefined;
      }
      sources.set(file, text === undefined ? undefined : { lines: text.split(/\r\n|\r|\n/), hashes: lineHashes(text) });
    }
    return sources.get(file);
  };
  const startTime = Date.parse(report.startedAt);
  const notChecked = report.fragments.filter((g) => NOT_CHECKED.has(g.status));
  const helpUri = informationUri === undefined ? undefined : `${informationUri.replace(/#.*$/, '')}#${README_ANCHOR}`;
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'snipexec',
            version,
            ...(informationUri === undefined ? {} : { informationUri }),
            rules: [
              {
                id: RULE_ID,
                name: 'RuntimeTypeError',
                shortDescription: { text: 'The change raises a runtime type error the base version does not raise on the same input' },
                fullDescription: { text: 'snipexec ran the changed file and its base version on the same values (learnt from how the code uses them, or an edge value such as null, a missing option or an empty list that the base version handled); the changed version raised this error and the base version did not.' },
                help: {
                  text: HELP,
                  markdown: HELP.replace(/\b(TypeError|RangeError|ReferenceError)\b/g, '`$1`'),
                },
                ...(helpUri === undefined ? {} : { helpUri }),
                defaultConfiguration: { level: 'error' },
              },
            ],
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { uri: directoryUri(report.root), description: { text: 'The top-level directory of the git repository diffed.' } },
        },
        invocations: [
          {
            executionSuccessful: true,
            exitCode: diffExitCode(report),
            startTimeUtc: new Date(startTime).toISOString(),
            endTimeUtc: new Date(startTime + report.elapsedMs).toISOString(),
            ...(notChecked.length === 0 ? {} : {
              toolExecutionNotifications: notChecked.map((g) => ({
                level: 'warning',
                message: { text: `${g.file}: ${g.function} was not checked: ${g.status}${g.error ? `: ${g.error}` : ''}` },
                locations: [location(g.file, g.startLine)],
              })),
            }),
          },
        ],
        columnKind: 'utf16CodeUnits',
        results: report.findings.map((f) => {
          const text = source(f.file);
          const lineHash = text?.hashes[f.line - 1];
          return {
            ruleId: RULE_ID,
            ruleIndex: 0,
            level: f.confidence >= 0.8 ? 'error' : 'warning',
            message: { text: `${f.type}: ${f.message} (in ${f.function}): ${evidenceText(f)}` },
            locations: [location(f.file, f.line, f.column)],
            partialFingerprints: {
              ...(lineHash === undefined ? {} : { primaryLocationLineHash: lineHash }),
              'snipexecFindingHash/v1': findingHash(f, text?.lines[f.line - 1] ?? ''),
            },
            properties: { confidence: f.confidence, function: f.function, how: f.how, ...(f.evidence.call !== undefined ? { input: f.evidence.call } : {}), ...(f.evidence.edge ? { edgeValue: [...(f.evidence.with ?? []), f.evidence.edge].map((x) => `${x.element} = ${x.source}`).join(' and ') } : {}), ...(f.evidence.base ? { base: f.evidence.base } : {}), injectedContext: f.context, caught: f.caught === true },
          };
        }),
      },
    ],
  };
}

/** The OASIS SARIF 2.1.0 schema (errata 01), the one the log is valid against. */
export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

function location(file: string, line: number, column?: number): object {
  return {
    physicalLocation: {
      artifactLocation: { uri: fileUri(file), uriBaseId: SRCROOT },
      region: { startLine: line, ...(column === undefined ? {} : { startColumn: Math.max(1, column) }) },
    },
  };
}

/** A repository-relative path as a relative URI reference: `/` separators, each segment escaped. */
function fileUri(file: string): string {
  return file.split(/[\\/]/).map(encodeURIComponent).join('/');
}

/** SARIF wants a base URI to end with `/`. */
function directoryUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** Stable while the finding's line text, function and message stay, wherever the line moves. */
function findingHash(f: Finding, lineText: string): string {
  const message = `${f.type}: ${f.message}`.replace(/:\d+(?::\d+)?\b/g, '').replace(/\bline \d+/gi, 'line');
  return createHash('sha256').update(JSON.stringify([RULE_ID, f.function, lineText.trim().replace(/\s+/g, ' '), message])).digest('hex');
}
