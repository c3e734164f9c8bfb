import { jsString } from '../core/sourceText.ts';
import { failureMessage } from '../protocol/elementIds.ts';

/**
 * The source of the error an injected value fails with in an exploration scenario (the runtime's
 * injectedFailure). Its stack names no frame, as an injected error's: it was raised nowhere, and
 * frames would name the sandbox or the program's file, so Node and the sandbox print it alike.
 */
export function failureSource(id: string): string {
  const message = failureMessage(id);
  return `Object.assign(new Error(${jsString(message)}), { stack: ${jsString(`Error: ${message}`)} })`;
}
