// The page's DOM helpers, shared by main.ts's parts and every panel: finding
// the page's elements, building HTML and SVG elements, tables shown a page at
// a time, and the few number formats more than one panel writes. This module
// imports nothing of the page's, so any panel can use it without an import
// cycle.

/** The page's element for `selector`; index.html always has it. */
export const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

/** An HTML element with these properties and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with these attributes. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Simulated microseconds, in µs or, from a millisecond up, in ms (under a
 * tenth of a microsecond, in ns: a tiny kernel is not "0.00 µs"). */
export function us(value: number): string {
  if (value >= 1000) return `${(value / 1000).toFixed(2)} ms`;
  if (value > 0 && value < 0.1) return `${(value * 1000).toFixed(value < 0.01 ? 2 : 1)} ns`;
  return `${value.toFixed(value < 10 ? 2 : 1)} µs`;
}

/** A byte count in B, KiB, MiB or GiB. */
export function bytesText(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(2)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(2)} KiB`;
  return `${n} B`;
}

export function table(className: string, headers: string[], rows: HTMLElement[]): HTMLElement {
  return el(
    "table",
    { className },
    el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows),
  );
}

/** Rows a table shows at once; the pager says how many it hides. */
export const PAGE_ROWS = 50;

/**
 * A table (or list) of `items` shown a page at a time: the DOM never holds
 * more than PAGE_ROWS rows, however long the run, and the pager always says
 * how many rows are hidden.
 */
export function paginated<T>(
  items: T[],
  row: (item: T, index: number) => HTMLElement,
  frame: (rows: HTMLElement[]) => HTMLElement,
  noun = "rows",
): HTMLElement {
  const box = el("div", { className: "paginated" });
  let page = 0;
  const pages = Math.max(1, Math.ceil(items.length / PAGE_ROWS));
  const count = (n: number) => n.toLocaleString("en-US");
  const show = () => {
    const first = page * PAGE_ROWS;
    const shown = items.slice(first, first + PAGE_ROWS);
    const parts: HTMLElement[] = [frame(shown.map((item, i) => row(item, first + i)))];
    if (items.length > PAGE_ROWS) {
      const prev = el("button", { type: "button", className: "secondary", disabled: page === 0 }, "‹ previous");
      const next = el("button", { type: "button", className: "secondary", disabled: page === pages - 1 }, "next ›");
      prev.addEventListener("click", () => {
        page -= 1;
        show();
      });
      next.addEventListener("click", () => {
        page += 1;
        show();
      });
      const where = `${noun} ${count(first + 1)}–${count(first + shown.length)} of ${count(items.length)} (${count(
        items.length - shown.length,
      )} hidden)`;
      parts.push(el("p", { className: "pager" }, prev, " ", next, " ", el("span", {}, where)));
    }
    box.replaceChildren(...parts);
  };
  show();
  return box;
}
