/**
 * The last line of defence against internal names in messages. V8 names the expression that failed,
 * and in the instrumented code that can be a hook call (`__snx_….ds(...) is not iterable`); the
 * runtime puts such messages back as it sees them, and the host does it again for any message
 * that never passed the runtime (an unhandled rejection). A hook call is replaced by the error
 * site's expression as V8 names it in the original code, `text`, else "(intermediate value)".
 */
export function originalMessage(message: string, hook: string, text: string | undefined): string {
  if (!message.includes(hook)) return message;
  const call = new RegExp(`${hook.replace(/[$]/g, '\\$&')}(?:\\.[A-Za-z_$][\\w$]*(?:\\(\\.\\.\\.\\))?)?`, 'g');
  const name = text !== undefined && !text.includes(hook) ? text : '(intermediate value)';
  return message.replace(call, () => name);
}
