// The board: the server's drawn SVG (or a plain grid where there is none),
// coloured by who controls each territory, a unit badge on each occupied
// space, pan and zoom, and spaces lit as destinations or selected.

import { boardSvg, RulesetInfo, SpaceInfo } from "./api";
import { h, svg, replace } from "./dom";
import { t, unitName, powerName } from "./i18n";
import { Position, allUnits } from "./types";

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const COLOURS: Record<string, [string, string]> = {
  // power: [strong (badges), tint (territory fill)]
  russia: ["#8c2d2d", "#d9a79d"],
  germany: ["#3f3f3f", "#a8a8a0"],
  uk: ["#8a6a2e", "#dcc796"],
  japan: ["#c47f00", "#f0cd73"],
  usa: ["#3f6b2a", "#aac98c"],
  italy: ["#6b4a2e", "#c4a58a"],
  china: ["#2f6f6a", "#97c7c0"],
};

/** A power's colours: [strong, tint]; unknown powers get a colour from their name. */
export function powerColours(power: string): [string, string] {
  const known = COLOURS[power];
  if (known) return known;
  let hash = 0;
  for (const ch of power) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return [`hsl(${hue} 45% 32%)`, `hsl(${hue} 45% 75%)`];
}

/** Prefixes each rule of the SVG's own <style> with `#board` so that it styles only the board. */
function scopeStyle(css: string): string {
  return css.replace(/([^{}]+)\{/g, (_m, sel: string) => sel.split(",").map((s) => `#board ${s.trim()}`).join(",") + "{");
}

export class BoardView {
  readonly root: HTMLElement;
  private holder: HTMLDivElement;
  private note: HTMLParagraphElement;
  private svgEl: SVGSVGElement | null = null;
  private base: Box = { x: 0, y: 0, w: 1000, h: 1000 };
  private vb: Box = { x: 0, y: 0, w: 1000, h: 1000 };
  private spaceEls = new Map<string, SVGGraphicsElement>();
  private anchors = new Map<string, { x: number; y: number }>();
  private badges: SVGGElement | null = null;
  private marks: SVGGElement | null = null;
  private spaces = new Map<string, SpaceInfo>();
  private lit = new Set<string>();
  private selected: string | null = null;
  private origin: string | null = null;
  fallback = false;

  /** `name`: the ruleset's name as the game gives it (`anniversary-1941`), for the board's URL. */
  constructor(private name: string, ruleset: RulesetInfo, private onSpace: (id: string) => void) {
    for (const s of ruleset.spaces ?? []) this.spaces.set(s.id, s);
    this.holder = h("div", { class: "board-holder" });
    this.note = h("p", { class: "board-note", id: "board-note" }, t("boardHelp"));
    const zoom = (f: number) => () => this.zoomBy(f);
    this.root = h(
      "div",
      { id: "board", role: "region", "aria-label": t("board"), "aria-describedby": "board-note" },
      h(
        "div",
        { class: "board-tools" },
        h("button", { type: "button", class: "tool", "aria-label": t("zoomIn"), title: t("zoomIn"), onclick: zoom(1 / 1.3) }, "+"),
        h("button", { type: "button", class: "tool", "aria-label": t("zoomOut"), title: t("zoomOut"), onclick: zoom(1.3) }, "−"),
        h("button", { type: "button", class: "tool", "aria-label": t("zoomFit"), title: t("zoomFit"), onclick: () => this.fit() }, "⤢"),
      ),
      this.holder,
      this.note,
    );
  }

  spaceName(id: string): string {
    const s = this.spaces.get(id);
    return s ? `${s.name} (${id})` : id;
  }

  async load(): Promise<void> {
    const text = await boardSvg(this.name);
    let el: SVGSVGElement | null = null;
    if (text) {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const root = doc.documentElement;
      if (root && root.nodeName.toLowerCase() === "svg" && !doc.querySelector("parsererror")) {
        el = document.importNode(root, true) as unknown as SVGSVGElement;
        for (const st of Array.from(el.querySelectorAll("style"))) st.textContent = scopeStyle(st.textContent ?? "");
        // Nothing from the file runs: no scripts, no handlers.
        for (const bad of Array.from(el.querySelectorAll("script, foreignObject"))) bad.remove();
      }
    }
    if (!el) {
      el = this.grid();
      this.fallback = true;
      this.note.textContent = `${t("boardFallback")} ${t("boardHelp")}`;
    }
    el.removeAttribute("width");
    el.removeAttribute("height");
    el.setAttribute("preserveAspectRatio", "xMidYMid meet");
    el.setAttribute("class", `board-svg${this.fallback ? " fallback" : ""}`);
    replace(this.holder, el);
    this.svgEl = el;
    const vb = el.viewBox.baseVal;
    if (vb && vb.width > 0 && vb.height > 0) this.base = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
    this.vb = { ...this.base };
    this.holder.style.setProperty("--board-ratio", String(this.base.w / this.base.h));
    for (const node of Array.from(el.querySelectorAll<SVGGraphicsElement>(".space[data-space]"))) {
      this.spaceEls.set(node.dataset.space!, node);
    }
    for (const label of Array.from(el.querySelectorAll<SVGTextElement>("text[data-space]"))) {
      const x = Number(label.getAttribute("x"));
      const y = Number(label.getAttribute("y"));
      if (Number.isFinite(x) && Number.isFinite(y)) this.anchors.set(label.dataset.space!, { x, y });
    }
    for (const [id, node] of this.spaceEls) {
      if (!this.anchors.has(id)) {
        try {
          const b = node.getBBox();
          this.anchors.set(id, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
        } catch {
          /* not rendered */
        }
      }
    }
    // Marks (destinations, origin, selection) above the borders, below the labels.
    this.marks = svg("g", { class: "marks" });
    el.insertBefore(this.marks, el.querySelector(":scope > g.labels"));
    this.badges = svg("g", { class: "badges" });
    el.appendChild(this.badges);
    this.applyView();
    this.wire(el);
    this.fitMode();
    window.addEventListener("resize", this.onResize);
  }

  private onResize = () => this.fitMode();

  /** A holder much narrower than the board (a phone) is filled, cropping the sides (pan to see them). */
  private fitMode(): void {
    if (!this.svgEl || !this.holder.isConnected) return;
    const box = this.holder.getBoundingClientRect();
    const narrow = box.height > 0 && box.width / box.height < this.base.w / this.base.h / 1.6;
    this.svgEl.setAttribute("preserveAspectRatio", narrow ? "xMidYMid slice" : "xMidYMid meet");
  }

  /** Stops listening to the window (the page is left). */
  dispose(): void {
    window.removeEventListener("resize", this.onResize);
  }

  /** The fallback: every space as a cell of a grid, land first, then sea. */
  private grid(): SVGSVGElement {
    const all = [...this.spaces.values()];
    const ordered = [...all.filter((s) => !s.sea), ...all.filter((s) => s.sea)];
    const cols = Math.max(1, Math.ceil(Math.sqrt(ordered.length * 1.5)));
    const cw = 80;
    const ch = 52;
    const rows = Math.ceil(ordered.length / cols);
    const el = svg("svg", { xmlns: "http://www.w3.org/2000/svg", viewBox: `0 0 ${cols * cw} ${rows * ch}` });
    const cells = svg("g", { class: "spaces" });
    const labels = svg("g", { class: "labels" });
    ordered.forEach((s, i) => {
      const x = (i % cols) * cw;
      const y = Math.floor(i / cols) * ch;
      cells.appendChild(
        svg(
          "rect",
          { id: `space-${s.id}`, class: `space ${s.sea ? "sea" : "land"}${s.neutral ? " neutral" : ""}`, "data-space": s.id, x: x + 2, y: y + 2, width: cw - 4, height: ch - 4, rx: 4 },
          svg("title", null, s.name),
        ),
      );
      labels.appendChild(svg("text", { class: "label", "data-space": s.id, x: x + cw / 2, y: y + 16 }, s.id));
    });
    el.append(cells, labels);
    return el;
  }

  private applyView(): void {
    this.svgEl?.setAttribute("viewBox", `${this.vb.x} ${this.vb.y} ${this.vb.w} ${this.vb.h}`);
  }

  fit(): void {
    this.vb = { ...this.base };
    this.applyView();
  }

  /** Zooms by `factor` (below 1: in) around a point of the board (default: the middle). */
  zoomBy(factor: number, cx?: number, cy?: number): void {
    const w = Math.min(this.base.w * 2, Math.max(this.base.w / 12, this.vb.w * factor));
    const f = w / this.vb.w;
    const px = cx ?? this.vb.x + this.vb.w / 2;
    const py = cy ?? this.vb.y + this.vb.h / 2;
    this.vb = { x: px - (px - this.vb.x) * f, y: py - (py - this.vb.y) * f, w: this.vb.w * f, h: this.vb.h * f };
    this.applyView();
  }

  panBy(dx: number, dy: number): void {
    this.vb = { ...this.vb, x: this.vb.x + dx, y: this.vb.y + dy };
    this.applyView();
  }

  private toBoard(el: SVGSVGElement, clientX: number, clientY: number): { x: number; y: number } | null {
    const m = el.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  private wire(el: SVGSVGElement): void {
    el.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const p = this.toBoard(el, e.clientX, e.clientY);
        this.zoomBy(e.deltaY > 0 ? 1.15 : 1 / 1.15, p?.x, p?.y);
      },
      { passive: false },
    );
    let drag: { x: number; y: number; moved: boolean; space: string | null; id: number } | null = null;
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      const target = (e.target as Element).closest("[data-space]") as SVGElement | null;
      drag = { x: e.clientX, y: e.clientY, moved: false, space: target?.dataset.space ?? null, id: e.pointerId };
    });
    el.addEventListener("pointermove", (e) => {
      if (!drag || drag.id !== e.pointerId) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      if (!drag.moved) {
        drag.moved = true;
        try {
          el.setPointerCapture(e.pointerId);
        } catch {
          /* a pointer the browser no longer tracks */
        }
        el.classList.add("panning");
      }
      const m = el.getScreenCTM();
      const scale = m ? m.a : 1;
      this.panBy(-dx / scale, -dy / scale);
      drag.x = e.clientX;
      drag.y = e.clientY;
    });
    const end = (e: PointerEvent) => {
      if (!drag || drag.id !== e.pointerId) return;
      const d = drag;
      drag = null;
      el.classList.remove("panning");
      if (!d.moved && d.space && e.type === "pointerup") this.onSpace(d.space);
    };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    this.root.addEventListener("keydown", (e) => {
      if (e.target !== this.holder) return;
      const step = this.vb.w / 10;
      const keys: Record<string, () => void> = {
        ArrowLeft: () => this.panBy(-step, 0),
        ArrowRight: () => this.panBy(step, 0),
        ArrowUp: () => this.panBy(0, -step),
        ArrowDown: () => this.panBy(0, step),
        "+": () => this.zoomBy(1 / 1.3),
        "=": () => this.zoomBy(1 / 1.3),
        "-": () => this.zoomBy(1.3),
        "0": () => this.fit(),
      };
      const f = keys[e.key];
      if (f) {
        e.preventDefault();
        f();
      }
    });
    this.holder.tabIndex = 0;
    this.holder.setAttribute("aria-label", t("boardHelp"));
  }

  /** Colours the territories by controller and redraws the unit badges. */
  update(pos: Position | null): void {
    if (!this.svgEl || !pos) return;
    for (const [id, el] of this.spaceEls) {
      const owner = pos.control[id];
      if (owner && owner !== "neutral") {
        el.style.fill = powerColours(owner)[1];
        el.dataset.owner = owner;
      } else {
        el.style.fill = "";
        delete el.dataset.owner;
      }
    }
    const counts = new Map<string, Map<string, Map<string, number>>>(); // space -> owner -> type -> n
    for (const u of allUnits(pos)) {
      if (!u.at) continue;
      const byOwner = counts.get(u.at) ?? new Map<string, Map<string, number>>();
      counts.set(u.at, byOwner);
      const byType = byOwner.get(u.owner) ?? new Map<string, number>();
      byOwner.set(u.owner, byType);
      byType.set(u.type, (byType.get(u.type) ?? 0) + 1);
    }
    const layer = this.badges!;
    replace(layer);
    const unit = this.base.w / 1000; // badges scale with the board's size
    for (const [space, byOwner] of counts) {
      const a = this.anchors.get(space);
      if (!a) continue;
      let total = 0;
      const parts: { owner: string; n: number }[] = [];
      const lines: string[] = [];
      for (const [owner, byType] of byOwner) {
        let n = 0;
        const desc: string[] = [];
        for (const [type, k] of byType) {
          n += k;
          desc.push(`${k} ${unitName(type)}`);
        }
        total += n;
        parts.push({ owner, n });
        lines.push(`${powerName(owner)}: ${desc.join(", ")}`);
      }
      const bh = 13 * unit;
      const widths = parts.map((p) => (7 + 6.5 * String(p.n).length) * unit);
      const full = widths.reduce((s, w) => s + w, 0) + (parts.length - 1) * unit;
      let x = a.x - full / 2;
      const g = svg("g", { class: "badge", "data-units-for": space, "data-count": total });
      g.appendChild(svg("title", null, `${this.spaceName(space)}\n${lines.join("\n")}`));
      parts.forEach((p, i) => {
        const [strong] = powerColours(p.owner);
        g.appendChild(svg("rect", { x, y: a.y + 7 * unit, width: widths[i], height: bh, rx: 3 * unit, fill: strong, "data-owner": p.owner }));
        g.appendChild(svg("text", { x: x + widths[i] / 2, y: a.y + 7 * unit + bh / 2, "font-size": 10 * unit, class: "badge-text" }, String(p.n)));
        x += widths[i] + unit;
      });
      layer.appendChild(g);
    }
  }

  /** Lights the spaces a chosen stack can reach (class `dest`). */
  setDestinations(ids: Iterable<string>): void {
    for (const id of this.lit) this.spaceEls.get(id)?.classList.remove("dest");
    this.lit = new Set(ids);
    for (const id of this.lit) this.spaceEls.get(id)?.classList.add("dest");
    this.redrawMarks();
  }

  /** Marks the space the chosen stack moves from (class `origin`). */
  setOrigin(id: string | null): void {
    if (this.origin) this.spaceEls.get(this.origin)?.classList.remove("origin");
    this.origin = id;
    if (id) this.spaceEls.get(id)?.classList.add("origin");
    this.redrawMarks();
  }

  /** Marks the space whose units the side panel shows (class `selected`). */
  setSelected(id: string | null): void {
    if (this.selected) this.spaceEls.get(this.selected)?.classList.remove("selected");
    this.selected = id;
    if (id) this.spaceEls.get(id)?.classList.add("selected");
    this.redrawMarks();
  }

  /** Outlines drawn over the borders, so that a lit space shows whole. */
  private redrawMarks(): void {
    if (!this.marks) return;
    replace(this.marks);
    const mark = (id: string | null, cls: string) => {
      const el = id ? this.spaceEls.get(id) : undefined;
      if (!el) return;
      const copy = el.cloneNode(false) as SVGElement;
      copy.removeAttribute("id");
      copy.removeAttribute("style");
      copy.removeAttribute("data-space");
      copy.removeAttribute("data-owner");
      copy.setAttribute("class", `mark ${cls}`);
      this.marks!.appendChild(copy);
    };
    for (const id of this.lit) mark(id, "mark-dest");
    mark(this.origin, "mark-origin");
    mark(this.selected, "mark-selected");
  }

  has(id: string): boolean {
    return this.spaceEls.has(id);
  }
}
