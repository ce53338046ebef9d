// Tiny DOM helpers: element builders and a few utilities. No framework.

export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, unknown>;

const PROPS = new Set(["value", "checked", "disabled", "selected", "indeterminate"]);

function setAttrs(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [key, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (key.startsWith("on") && typeof v === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), v as EventListener);
    } else if (key === "class") {
      el.setAttribute("class", String(v));
    } else if (PROPS.has(key) && !(el instanceof SVGElement)) {
      (el as unknown as Record<string, unknown>)[key] = v;
    } else {
      el.setAttribute(key, v === true ? "" : String(v));
    }
  }
}

function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** An HTML element: `h("button", {id: "x", onclick: f}, "text")`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Removes every child of `el`, then appends `children`. */
export function replace(el: Element, ...children: Child[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** Reads a number input, clamped to its min/max; NaN counts as 0. */
export function numberValue(input: HTMLInputElement): number {
  let n = Math.floor(Number(input.value));
  if (!Number.isFinite(n)) n = 0;
  if (input.min !== "" && n < Number(input.min)) n = Number(input.min);
  if (input.max !== "" && n > Number(input.max)) n = Number(input.max);
  return n;
}

/** A labelled number input: returns [label, input]. */
export function numberField(id: string, label: string, value: number, min: number, max?: number, attrs?: Attrs): [HTMLLabelElement, HTMLInputElement] {
  const input = h("input", { id, type: "number", inputmode: "numeric", min, max, step: 1, value: String(value), ...attrs });
  return [h("label", { for: id }, label), input];
}

let uid = 0;
/** A fresh id for labels. */
export function freshId(prefix: string): string {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** Marks the page as settled (or not) for the browser tests. */
export function setReady(ready: boolean): void {
  document.body.dataset.ready = ready ? "1" : "0";
}

/** Narrow windows (a phone): the side panels start folded. */
export const NARROW = "(max-width: 900px)";

/** A side panel that folds (a <details>): open on wide screens, folded on
 * narrow ones, opened and closed by click, tap or the keyboard. */
export function foldable(attrs: Attrs, titleId: string, title: string, ...body: Child[]): HTMLDetailsElement {
  const open = !window.matchMedia(NARROW).matches;
  const cls = ["panel", "fold", attrs.class].filter(Boolean).join(" ");
  return h("details", { ...attrs, class: cls, open }, h("summary", null, h("h2", { id: titleId }, title)), ...body);
}
