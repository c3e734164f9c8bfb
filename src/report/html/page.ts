import { createHash } from 'node:crypto';
import { escapeHtml, type Html } from './escapeHtml.ts';

/** What one self-contained report page is made of. */
export interface PageParts {
  readonly title: string;
  readonly body: Html;
  /** The page's CSS: the report's own constant text. */
  readonly style: string;
  /** The page's script: the report's own constant text. */
  readonly script: string;
}

/**
 * A whole HTML document with its CSS and JavaScript inline. Its Content-Security-Policy allows
 * exactly that style and that script (by hash) and nothing else: no network, no other script, so
 * even markup that slipped through escaping could not run or load anything.
 */
export function htmlPage({ title, body, style, script }: PageParts): string {
  // Both are the report's own text, but one closing tag inside would end the element early.
  if (/<\/(script|style)/i.test(script + style)) throw new Error('a report page\'s own script or style holds a closing tag');
  const csp = `default-src 'none'; style-src '${sha256(style)}'; script-src '${sha256(script)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${style}</style>`,
    '</head>',
    `<body>${body.html}`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A script for the page from a function of this module's own code: the function's source, called once the page is parsed. */
export function pageScript(main: () => void): string {
  return `(${main.toString()})();`;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
