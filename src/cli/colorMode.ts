/**
 * Whether human output to `stream` is coloured, as Node decides for its own output: FORCE_COLOR
 * forces colour on (any value but `0` or `false`), even into a pipe, and off with `0`/`false`;
 * else a non-empty NO_COLOR turns it off (no-color.org); else a terminal that has colours gets them.
 */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && (typeof stream.hasColors !== 'function' || stream.hasColors(env));
}
