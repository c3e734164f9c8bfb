/**
 * React's production build throws "Minified React error #31; visit https://react.dev/errors/31?…"
 * instead of its message. For the errors a snippet commonly meets, the message is put back (the
 * texts of React's error codes, with the arguments the URL carries); other codes keep React's.
 */

const MESSAGES: Readonly<Record<string, string>> = {
  31: 'Objects are not valid as a React child (found: %s). If you meant to render a collection of children, use an array instead.',
  130: 'Element type is invalid: expected a string (for built-in components) or a class/function (for composite components) but got: %s.%s',
  185: 'Maximum update depth exceeded. This can happen when a component repeatedly calls setState inside componentWillUpdate or componentDidUpdate. React limits the number of nested updates to prevent infinite loops.',
  299: 'Target container is not a DOM element.',
  301: 'Too many re-renders. React limits the number of renders to prevent an infinite loop.',
  321: 'Invalid hook call. Hooks can only be called inside of the body of a function component.',
};

const MINIFIED = /^Minified React error #(\d+); visit https:\/\/react\.dev\/errors\/\d+(\?\S*)? for the full message/;

/** React's message for a minified one it knows, else `message` unchanged. */
export function reactMessage(message: string): string {
  const match = MINIFIED.exec(message);
  const text = match ? MESSAGES[match[1] as string] : undefined;
  if (!match || text === undefined) return message;
  const args = (match[2] ?? '').slice(1).split('&').filter((p) => p.startsWith('args[]=')).map((p) => {
    try {
      return decodeURIComponent(p.slice('args[]='.length));
    } catch {
      return p;
    }
  });
  let i = 0;
  return text.replace(/%s/g, () => args[i++] ?? '');
}

/** Puts back the message of a minified React error (the same object: its stack still points where it was thrown). */
export function explainReactError(error: unknown): void {
  if (!(error instanceof Error) || typeof error.message !== 'string') return;
  const message = reactMessage(error.message);
  if (message !== error.message) error.message = message;
}
