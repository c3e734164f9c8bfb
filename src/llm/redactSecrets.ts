import { PlaceholderRedactor } from './placeholderRedactor.ts';
import { OWN_RULES } from './secretRules.ts';
import { secretlintFindings } from './secretlintRules.ts';

export { entropy, isSecretName } from './secretRules.ts';

/**
 * Replaces secrets with placeholders like `REDACTED_AWS_KEY_1` before text leaves the machine,
 * by snipexec's own rules (secretRules.ts) and secretlint's recommended preset (secretlintRules.ts).
 * One instance per snippet: a secret gets the same placeholder in every prompt, so the snippet can be
 * redacted before its lines are numbered and every message again as the last safety net; text with
 * the prompts' line numbers (`>> 12 | `) is read as without them. The mapping never leaves the host.
 * Values of secret-named environment variables are replaced wherever they occur, and are never
 * restored into a reply, since the host's environment must not reach the isolate.
 */
export class SecretRedactor extends PlaceholderRedactor {
  constructor(env: NodeJS.ProcessEnv = {}) {
    super(env, [...OWN_RULES, secretlintFindings]);
  }
}
