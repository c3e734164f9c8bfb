import { styleText } from 'node:util';

/** The styles human output uses. */
export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta';

/**
 * Styles text with Node's util.styleText when `color` is on. Whether it is on is decided once, by
 * the CLI (src/cli/colorMode.ts: FORCE_COLOR, NO_COLOR, a terminal), so styleText is told not to
 * look at the stream again.
 */
export function painter(color: boolean): (style: Style, text: string) => string {
  return (style, text) => (color ? styleText(style, text, { validateStream: false }) : text);
}
