import type { DiffReport } from './runDiff.ts';

const RULE_ID = 'snipexec/runtime-type-error';

/** The findings as a SARIF 2.1.0 log, for code scanning (GitHub, Azure DevOps, IDEs). */
export function toSarif(report: DiffReport, version: string): object {
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'snipexec',
            version,
            rules: [
              {
                id: RULE_ID,
                name: 'RuntimeTypeError',
                shortDescription: { text: 'A changed fragment raises a runtime type error with its own values' },
                fullDescription: { text: 'snipexec ran the fragment with its missing values injected; the error persisted across differently synthesised values and its culprit is a value of the code itself.' },
                defaultConfiguration: { level: 'error' },
              },
            ],
          },
        },
        results: report.findings.map((f) => ({
          ruleId: RULE_ID,
          level: f.confidence >= 0.8 ? 'error' : 'warning',
          message: { text: `${f.type}: ${f.message} (in ${f.function})` },
          locations: [{ physicalLocation: { artifactLocation: { uri: f.file.split('\\').join('/') }, region: { startLine: f.line, startColumn: Math.max(1, f.column) } } }],
          properties: { confidence: f.confidence, function: f.function, injectedContext: f.context, caught: f.caught === true },
        })),
      },
    ],
  };
}
