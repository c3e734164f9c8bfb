/**
 * linkedom registers a class for only some tags: `createElement('form')` (and the parser) make a
 * plain HTMLElement. Here createElement (of the document's class: innerHTML parses in a document
 * of its own) makes the element of the tag's own class (HTMLFormElement, HTMLDivElement, …), so
 * instanceof, and what is added to those classes, hold.
 */

const CLASS_OF_TAG: Readonly<Record<string, string>> = {
  area: 'Area', audio: 'Audio', base: 'Base', body: 'Body', br: 'BR', dl: 'DList', data: 'Data', datalist: 'DataList', details: 'Details',
  dir: 'Directory', div: 'Div', embed: 'Embed', fieldset: 'FieldSet', font: 'Font', form: 'Form', frame: 'Frame', frameset: 'FrameSet',
  head: 'Head', hr: 'HR', html: 'Html', label: 'Label', legend: 'Legend', li: 'LI', map: 'Map', marquee: 'Marquee', menu: 'Menu',
  meter: 'Meter', del: 'Mod', ins: 'Mod', ol: 'OList', object: 'Object', optgroup: 'OptGroup', output: 'Output', p: 'Paragraph',
  param: 'Param', picture: 'Picture', pre: 'Pre', progress: 'Progress', q: 'Quote', blockquote: 'Quote', span: 'Span',
  caption: 'TableCaption', td: 'TableCell', th: 'TableCell', table: 'Table', tr: 'TableRow', thead: 'TableSection', tbody: 'TableSection', tfoot: 'TableSection', track: 'Track', ul: 'UList', video: 'Video',
};

type ElementClass = new (ownerDocument: Document, localName: string) => Element;

/** Makes `document.createElement` build each tag's own class; then rebuilds the page's html, head and body with them. */
export function giveTagsTheirClasses(document: Document, classes: Readonly<Record<string, unknown>>): void {
  const HTMLElement = classes.HTMLElement;
  const owner = Object.getPrototypeOf(document) as Document;
  const create = owner.createElement;
  Object.defineProperty(owner, 'createElement', {
    value: function createElement(this: Document, localName: unknown, options?: ElementCreationOptions): Element {
      const element = create.call(this, localName as string, options);
      const name = CLASS_OF_TAG[element.localName];
      const Class = name ? (classes[`HTML${name}Element`] as ElementClass | undefined) : undefined;
      if (!Class || Object.getPrototypeOf(element) !== (HTMLElement as { prototype: object }).prototype || options?.is) return element;
      return new Class(this, element.localName);
    },
    writable: true,
    configurable: true,
  });
  const html = document.createElement('html');
  for (const attr of document.documentElement.getAttributeNames()) html.setAttribute(attr, document.documentElement.getAttribute(attr) ?? '');
  const head = document.createElement('head');
  head.innerHTML = document.head.innerHTML;
  html.append(head, document.createElement('body'));
  document.documentElement.replaceWith(html);
}
