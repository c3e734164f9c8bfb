/**
 * `document.implementation`, which linkedom's document lacks and jQuery 3 reads while it loads (its
 * `createHTMLDocument` feature test) and in `$.parseHTML` without a context (it parses there so that
 * no script or image of the HTML runs or loads in the page). Here its `createHTMLDocument(title)` is an
 * empty HTML document made by the window's DOMParser, as the standard's is: a head holding the
 * title, and an empty body.
 */

type ParserClass = new () => { parseFromString(html: string, type: string): Document };

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Defines `document.implementation` on the window's document when it has none; a document that has one keeps it. */
export function defineDomImplementation(window: Window): void {
  const document = window.document;
  if (document.implementation) return;
  const DOMParser = (window as unknown as { DOMParser?: ParserClass }).DOMParser;
  if (typeof DOMParser !== 'function') return;
  const implementation = {
    createHTMLDocument(title?: string): Document {
      const head = title === undefined ? '<head></head>' : `<head><title>${escapeText(String(title))}</title></head>`;
      return new DOMParser().parseFromString(`<!DOCTYPE html><html>${head}<body></body></html>`, 'text/html');
    },
    hasFeature: () => true,
  };
  Object.defineProperty(document, 'implementation', { value: implementation, configurable: true, enumerable: false, writable: false });
}
