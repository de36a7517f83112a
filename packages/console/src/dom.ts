/** Element builders: the console renders with the DOM API, so no markup string ever meets data. */
type Attributes = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

const SVG_NS = 'http://www.w3.org/2000/svg';

function fill<E extends Element>(element: E, attributes: Attributes, children: Child[]): E {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] => fill(document.createElement(tag), attributes, children);

export const s = <K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[K] => fill(document.createElementNS(SVG_NS, tag), attributes, children);

/** A button that runs `action` on click. */
export function button(label: string, action: () => void, attributes: Attributes = {}): HTMLButtonElement {
  const element = h('button', { type: 'button', ...attributes }, label);
  element.addEventListener('click', action);
  return element;
}

/** A date-time of the API, in the operator's locale, to the second. */
export const when = (iso: string | null): string =>
  iso === null ? '' : new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/** The time of day of a date-time of the API, to the minute (the full instant goes in a tooltip). */
export const timeOf = (iso: string): string =>
  new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
