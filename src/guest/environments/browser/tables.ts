/**
 * The table API of the HTML standard, which linkedom leaves out (its table classes are bare):
 * HTMLTableElement (caption, tHead, tFoot, tBodies, rows, insertRow, deleteRow, createTHead, deleteTHead and the like),
 * HTMLTableSectionElement (a class of its own for thead, tbody, tfoot: rows, insertRow, deleteRow),
 * HTMLTableRowElement (cells, rowIndex, sectionRowIndex, insertCell, deleteCell) and
 * HTMLTableCellElement (cellIndex, colSpan, rowSpan), each step as the standard writes it
 * (https://html.spec.whatwg.org/multipage/tables.html). Collections are snapshots, not live.
 */
import { linkedom } from './dom.ts';
import { domException } from './network.ts';

type ElementClass = new (ownerDocument: Document, localName: string) => HTMLElement;

/** The element children of `parent`, in tree order (read without the page-growing getters of relatives.ts). */
function elementChildren(parent: Node): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

/** The element children of `parent` whose tag is one of `tags`. */
const childrenTagged = (parent: Node, ...tags: string[]) => elementChildren(parent).filter((e) => tags.includes(e.localName));

const collection = (elements: readonly Element[]) => {
  const list = new linkedom.NodeList() as unknown as Element[] & { item?: (i: number) => Element | null; namedItem?: (name: string) => Element | null };
  list.push(...elements);
  Object.defineProperty(list, 'item', { value: (i: number) => list[Number(i) | 0] ?? null });
  Object.defineProperty(list, 'namedItem', { value: (name: string) => list.find((e) => e.id === String(name) || e.getAttribute('name') === String(name)) ?? null });
  return list;
};

/** WebIDL `long` for an optional index whose default is -1. */
const toIndex = (index: unknown) => (index === undefined ? -1 : Number(index) | 0);

function indexError(method: string, owner: string, index: number, max: number): Error {
  return domException(`Failed to execute '${method}' on '${owner}': The index provided (${index}) is outside the range [-1, ${max}].`, 'IndexSizeError');
}

/** The table's rows: thead rows, then those of the table itself and its tbody elements, then tfoot rows. */
function tableRows(table: Element): Element[] {
  const sections = (tag: string) => childrenTagged(table, tag).flatMap((s) => childrenTagged(s, 'tr'));
  const body: Element[] = [];
  for (const child of childrenTagged(table, 'tr', 'tbody')) body.push(...(child.localName === 'tr' ? [child] : childrenTagged(child, 'tr')));
  return [...sections('thead'), ...body, ...sections('tfoot')];
}

function removeAt(list: readonly Element[], index: number, method: string, owner: string): void {
  if (index < -1 || index >= list.length) throw indexError(method, owner, index, list.length - 1);
  (index === -1 ? list[list.length - 1] : list[index])?.remove();
}

function define(Class: unknown, members: Record<string, PropertyDescriptor>): void {
  const proto = (Class as { prototype: object }).prototype;
  for (const [key, d] of Object.entries(members)) Object.defineProperty(proto, key, { configurable: true, ...d });
}

/** A reflected unsigned attribute clamped to [min, max], `fallback` when absent or invalid. */
function clamped(name: string, fallback: number, min: number, max: number): PropertyDescriptor {
  return {
    get(this: Element) {
      const n = parseInt(this.getAttribute(name) ?? '', 10);
      return Number.isNaN(n) || n < 0 ? fallback : Math.min(Math.max(n, min), max);
    },
    set(this: Element, v: unknown) {
      this.setAttribute(name, String(Number(v) >>> 0));
    },
  };
}

const reflected = (name: string): PropertyDescriptor => ({
  get(this: Element) { return this.getAttribute(name) ?? ''; },
  set(this: Element, v: unknown) { this.setAttribute(name, String(v)); },
});

/** Adds the table API to the classes (HTMLTableSectionElement is created and added to `classes`). */
export function extendTables(classes: Record<string, unknown>): void {
  const HTMLElement = classes.HTMLElement as ElementClass;
  const HTMLTableSectionElement = class HTMLTableSectionElement extends HTMLElement {
    constructor(ownerDocument: Document, localName = 'tbody') {
      super(ownerDocument, localName);
    }
  };
  classes.HTMLTableSectionElement = HTMLTableSectionElement;
  const T = 'HTMLTableElement';

  const first = (tag: string) => ({ get(this: Element) { return childrenTagged(this, tag)[0] ?? null; } });
  const setSection = (tag: string, insert: (table: Element, section: Element) => void) => function (this: Element, value: unknown) {
    if (value !== null && (typeof value !== 'object' || (value as Element).localName !== tag)) throw domException(`Failed to set the '${tag === 'caption' ? 'caption' : tag === 'thead' ? 'tHead' : 'tFoot'}' property on '${T}': Not a ${tag} element.`, 'HierarchyRequestError');
    childrenTagged(this, tag)[0]?.remove();
    if (value !== null) insert(this, value as Element);
  };
  const insertHead = (table: Element, head: Element) => table.insertBefore(head, elementChildren(table).find((c) => c.localName !== 'caption' && c.localName !== 'colgroup') ?? null);
  const create = (tag: string, insert: (table: Element, section: Element) => void) => function (this: Element) {
    const existing = childrenTagged(this, tag)[0];
    if (existing) return existing;
    const made = this.ownerDocument.createElement(tag);
    insert(this, made);
    return made;
  };
  const remove = (tag: string) => function (this: Element) { childrenTagged(this, tag)[0]?.remove(); };

  define(classes.HTMLTableElement, {
    caption: { ...first('caption'), set: setSection('caption', (t, c) => t.prepend(c)) },
    createCaption: { value: create('caption', (t, c) => t.prepend(c)), writable: true },
    deleteCaption: { value: remove('caption'), writable: true },
    tHead: { ...first('thead'), set: setSection('thead', insertHead) },
    createTHead: { value: create('thead', insertHead), writable: true },
    deleteTHead: { value: remove('thead'), writable: true },
    tFoot: { ...first('tfoot'), set: setSection('tfoot', (t, f) => t.append(f)) },
    createTFoot: { value: create('tfoot', (t, f) => t.append(f)), writable: true },
    deleteTFoot: { value: remove('tfoot'), writable: true },
    tBodies: { get(this: Element) { return collection(childrenTagged(this, 'tbody')); } },
    createTBody: {
      value(this: Element) {
        const body = this.ownerDocument.createElement('tbody');
        const last = childrenTagged(this, 'tbody').pop();
        if (last) last.after(body);
        else this.append(body);
        return body;
      },
      writable: true,
    },
    rows: { get(this: Element) { return collection(tableRows(this)); } },
    insertRow: {
      value(this: Element, index?: unknown) {
        const i = toIndex(index);
        const rows = tableRows(this);
        if (i < -1 || i > rows.length) throw indexError('insertRow', T, i, rows.length);
        const row = this.ownerDocument.createElement('tr');
        const bodies = childrenTagged(this, 'tbody');
        if (rows.length === 0 && bodies.length === 0) this.append(this.ownerDocument.createElement('tbody'));
        if (rows.length === 0) (childrenTagged(this, 'tbody').pop() as Element).append(row);
        else if (i === -1 || i === rows.length) (rows[rows.length - 1]?.parentNode as Element).append(row);
        else rows[i]?.before(row);
        return row;
      },
      writable: true,
    },
    deleteRow: { value(this: Element, index: unknown) { removeAt(tableRows(this), Number(index) | 0, 'deleteRow', T); }, writable: true },
  });

  const S = 'HTMLTableSectionElement';
  define(HTMLTableSectionElement, {
    rows: { get(this: Element) { return collection(childrenTagged(this, 'tr')); } },
    insertRow: {
      value(this: Element, index?: unknown) {
        const i = toIndex(index);
        const rows = childrenTagged(this, 'tr');
        if (i < -1 || i > rows.length) throw indexError('insertRow', S, i, rows.length);
        const row = this.ownerDocument.createElement('tr');
        if (i === -1 || i === rows.length) this.append(row);
        else rows[i]?.before(row);
        return row;
      },
      writable: true,
    },
    deleteRow: { value(this: Element, index: unknown) { removeAt(childrenTagged(this, 'tr'), Number(index) | 0, 'deleteRow', S); }, writable: true },
  });

  const R = 'HTMLTableRowElement';
  const parentTag = (e: Element) => (e.parentNode as Element | null)?.localName;
  define(classes.HTMLTableRowElement, {
    cells: { get(this: Element) { return collection(childrenTagged(this, 'td', 'th')); } },
    rowIndex: {
      get(this: Element) {
        const parent = this.parentNode as Element | null;
        const table = parentTag(this) === 'table' ? parent : parent && SECTION_TAGS.includes(parent.localName) && parentTag(parent) === 'table' ? (parent.parentNode as Element) : null;
        return table ? tableRows(table).indexOf(this) : -1;
      },
    },
    sectionRowIndex: {
      get(this: Element) {
        const parent = this.parentNode as Element | null;
        if (!parent) return -1;
        if (parent.localName === 'table') return tableRows(parent).indexOf(this);
        return SECTION_TAGS.includes(parent.localName) ? childrenTagged(parent, 'tr').indexOf(this) : -1;
      },
    },
    insertCell: {
      value(this: Element, index?: unknown) {
        const i = toIndex(index);
        const cells = childrenTagged(this, 'td', 'th');
        if (i < -1 || i > cells.length) throw indexError('insertCell', R, i, cells.length);
        const cell = this.ownerDocument.createElement('td');
        if (i === -1 || i === cells.length) this.append(cell);
        else cells[i]?.before(cell);
        return cell;
      },
      writable: true,
    },
    deleteCell: { value(this: Element, index: unknown) { removeAt(childrenTagged(this, 'td', 'th'), Number(index) | 0, 'deleteCell', R); }, writable: true },
  });

  define(classes.HTMLTableCellElement, {
    cellIndex: { get(this: Element) { return parentTag(this) === 'tr' ? childrenTagged(this.parentNode as Element, 'td', 'th').indexOf(this) : -1; } },
    colSpan: clamped('colspan', 1, 1, 1000),
    rowSpan: clamped('rowspan', 1, 0, 65534),
    headers: reflected('headers'),
    scope: reflected('scope'),
    abbr: reflected('abbr'),
  });
}

const SECTION_TAGS = ['thead', 'tbody', 'tfoot'];
