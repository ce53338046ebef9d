// The lobby: a form for a new game, the account's games and the open games.

import { api, ApiError, Game, NewGame, OptionInfo, RulesetInfo, SeatRequest } from "../api";
import { App, Cleanup } from "../app";
import { h, replace, setReady, Child } from "../dom";
import { t, powerName, word, currentLang, optionLabel } from "../i18n";
import { correspondenceFields } from "../corr_form";
import { bidFields } from "../bid_form";
import { settingsPanel } from "../settings";
import { localTime } from "../clock";

function optionInput(o: OptionInfo): HTMLElement {
  const id = `opt-${o.name}`;
  const attrs = { id, "data-option": o.name, "data-type": o.type, "aria-describedby": `${id}-doc` };
  if (o.type === "bool") return h("input", { ...attrs, type: "checkbox", checked: o.default === true });
  if ((o.type === "integer" || o.type === "int") && typeof o.default === "number") {
    return h("input", { ...attrs, type: "number", step: 1, inputmode: "numeric", min: o.min, max: o.max, value: String(o.default) });
  }
  if (o.type === "choice" && Array.isArray(o.values)) {
    return h("select", attrs, o.values.map((v) => h("option", { value: String(v), selected: v === o.default }, String(v))));
  }
  // Anything else (objects, lists): a JSON value, the default filled in.
  return h("input", { ...attrs, type: "text", class: "json", spellcheck: "false", value: JSON.stringify(o.default), placeholder: t("optionJsonHint") });
}

/** The option's value from its input, or undefined when it is the default. */
function optionValue(o: OptionInfo, el: HTMLElement): unknown {
  let v: unknown;
  if (el instanceof HTMLInputElement && el.type === "checkbox") v = el.checked;
  else if (el instanceof HTMLInputElement && el.type === "number") v = Number(el.value);
  else if (el instanceof HTMLSelectElement) v = o.values?.find((x) => String(x) === el.value) ?? el.value;
  else {
    const text = (el as HTMLInputElement).value.trim();
    try {
      v = JSON.parse(text);
    } catch (e) {
      // A bare word (e.g. "independent") is taken as a string.
      if (/^[\w-]+$/.test(text)) v = text;
      else throw new ApiError("request/bad-field", t("badJson", { name: o.name, message: e instanceof Error ? e.message : String(e) }));
    }
  }
  return JSON.stringify(v) === JSON.stringify(o.default) ? undefined : v;
}

function statusText(g: Game): string {
  if (g.status === "open") return g.bid ? t("statusBidding") : t("statusOpen");
  if (g.status === "over") return t("statusOver");
  return t("statusPlaying");
}

export function lobbyPage(app: App): Cleanup {
  let rulesets: RulesetInfo[] = [];
  let alive = true;
  const me = app.account!;
  const form = h("form", { id: "new-game", class: "panel", "aria-labelledby": "new-game-title", novalidate: true });
  // Kept across changes of ruleset: the clock and dice are no ruleset's.
  const corr = correspondenceFields();
  // Sides by sealed bid instead of seats: kept across changes of ruleset too.
  const bid = bidFields();
  const mine = h("div", { id: "my-games", class: "games" }, t("loading"));
  const open = h("div", { id: "open-games", class: "games" }, t("loading"));
  const refreshBtn = h("button", { type: "button", id: "lobby-refresh", onclick: () => void loadLists() }, t("refresh"));
  replace(
    app.main,
    h(
      "div",
      { class: "lobby" },
      form,
      h(
        "div",
        { class: "lists" },
        h("section", { class: "panel", "aria-labelledby": "my-games-title" }, h("div", { class: "title-row" }, h("h2", { id: "my-games-title" }, t("myGames")), refreshBtn), mine),
        h("section", { class: "panel", "aria-labelledby": "open-games-title" }, h("h2", { id: "open-games-title" }, t("openGames")), open),
        settingsPanel(app, location.hash === "#settings"),
      ),
    ),
  );

  const rulesetOf = (name: string) => rulesets.find((r) => r.name === name);
  const nameOf = (g: Game, power: string) => powerName(power, rulesetOf(g.ruleset)?.powers.find((p) => p.id === power)?.name);

  // ---- the new game form ----

  function renderForm(selected?: string): void {
    const current = rulesets.find((r) => r.name === selected) ?? rulesets[0];
    const select = h(
      "select",
      { id: "create-ruleset", onchange: () => renderForm(select.value) },
      rulesets.map((r) => h("option", { value: r.name, selected: r === current }, r.title)),
    );
    const options: Child[] = current.options.length
      ? current.options.map((o) => {
          const input = optionInput(o);
          const isCheck = input instanceof HTMLInputElement && input.type === "checkbox";
          const label = h("label", { for: input.id, title: o.name }, optionLabel(o.name));
          const doc = h("p", { class: "doc", id: `${input.id}-doc` }, o.doc, " ", h("span", { class: "meta" }, `(${t("defaultIs", { value: typeof o.default === "boolean" ? word(String(o.default)) : JSON.stringify(o.default) })})`));
          return h("div", { class: `option${isCheck ? " check" : ""}` }, isCheck ? [input, label] : [label, input], doc);
        })
      : [h("p", { class: "hint" }, t("noOptions"))];
    const seatRows = current.powers.map((p, i) => {
      const kind = h(
        "select",
        { "data-seat": p.id, id: `seat-${p.id}`, onchange: () => sync() },
        h("option", { value: "me", selected: i === 0 }, t("seatMe")),
        h("option", { value: "open" }, t("seatOpen")),
        h("option", { value: "computer", selected: i !== 0 }, t("seatComputer")),
        h("option", { value: "account" }, t("seatAccount")),
      );
      const pname = powerName(p.id, p.name);
      const think = h("input", { type: "number", min: 0, max: 60000, step: 50, value: "0", "data-think": p.id, id: `think-${p.id}`, "aria-label": t("thinkMs", { power: pname }), title: t("thinkMs", { power: pname }) });
      const acct = h("input", { type: "text", "data-account": p.id, id: `account-${p.id}`, "aria-label": t("accountName", { power: pname }), placeholder: t("name"), autocapitalize: "none", spellcheck: "false" });
      const extra = h("span", { class: "seat-extra" });
      const sync = () => {
        replace(extra, kind.value === "computer" ? [think, h("span", { class: "meta" }, " ms")] : kind.value === "account" ? acct : null);
      };
      sync();
      return h("tr", null, h("th", { scope: "row" }, h("label", { for: `seat-${p.id}` }, pname)), h("td", null, p.team ? powerName(p.team) : ""), h("td", null, kind, " ", extra));
    });
    const seatsBox = h(
      "fieldset",
      { class: "seats" },
      h("legend", null, t("seats")),
      h("table", null, h("thead", null, h("tr", null, h("th", { scope: "col" }, t("power")), h("th", { scope: "col" }, t("team")), h("th", { scope: "col" }, t("player")))), h("tbody", null, seatRows)),
    );
    // With a bid the seats are the bid's to give: the table is not sent.
    bid.onChange = () => {
      seatsBox.hidden = bid.chosen();
    };
    bid.onChange();
    const pub = h("input", { type: "checkbox", id: "create-public", checked: true });
    const submit = h("button", { type: "submit", id: "create-submit", class: "primary" }, t("create"));
    replace(
      form,
      h("h2", { id: "new-game-title" }, t("newGame")),
      h("div", { class: "field" }, h("label", { for: "create-ruleset" }, t("ruleset")), select),
      h("fieldset", { class: "options" }, h("legend", null, t("options")), options),
      bid.el,
      seatsBox,
      corr.el,
      h("div", { class: "option check" }, pub, h("label", { for: "create-public" }, t("publicGame"))),
      h("div", { class: "buttons" }, submit),
    );
    form.onsubmit = (e) => {
      e.preventDefault();
      void create(current, submit);
    };
  }

  async function create(rs: RulesetInfo, submit: HTMLButtonElement): Promise<void> {
    const body: NewGame = { ruleset: rs.name, options: {}, public: (form.querySelector<HTMLInputElement>("#create-public")?.checked ?? true), ...corr.read() };
    try {
      for (const o of rs.options) {
        const el = form.querySelector<HTMLElement>(`[data-option="${CSS.escape(o.name)}"]`);
        if (!el) continue;
        const v = optionValue(o, el);
        if (v !== undefined) body.options[o.name] = v;
      }
    } catch (e) {
      app.showError(e);
      return;
    }
    const seats: Record<string, SeatRequest> = {};
    for (const p of rs.powers) {
      const kind = form.querySelector<HTMLSelectElement>(`[data-seat="${CSS.escape(p.id)}"]`)?.value ?? "open";
      let seat: SeatRequest;
      if (kind === "computer") seat = { kind, think: Math.max(0, Math.floor(Number(form.querySelector<HTMLInputElement>(`[data-think="${CSS.escape(p.id)}"]`)?.value ?? 0)) || 0) };
      else if (kind === "account") seat = { kind, name: form.querySelector<HTMLInputElement>(`[data-account="${CSS.escape(p.id)}"]`)?.value.trim() ?? "" };
      else if (kind === "me") seat = { kind };
      else seat = { kind: "open" };
      seats[p.id] = seat;
    }
    if (bid.chosen()) body.bid = bid.read();
    else body.seats = seats;
    submit.disabled = true;
    submit.textContent = t("creating");
    setReady(false);
    try {
      const game = await api.createGame(body);
      app.clearError();
      app.navigate(`/game/${game.id}`);
    } catch (e) {
      app.showError(e);
      submit.disabled = false;
      submit.textContent = t("create");
      setReady(true);
    }
  }

  // ---- the lists ----

  function myPowers(g: Game): string[] {
    return g.seats.filter((s) => s.account === me.name).map((s) => s.power);
  }

  function gameLink(g: Game): HTMLAnchorElement {
    return h("a", { href: `/game/${g.id}`, "data-open-game": g.id, "aria-label": t("openGame", { id: g.id.slice(0, 8) }) }, t("open"));
  }

  function rulesetTitle(name: string): string {
    return rulesetOf(name)?.title ?? name;
  }

  function created(g: Game): string {
    try {
      return new Date(g.created_at).toLocaleString(currentLang());
    } catch {
      return "";
    }
  }

  function seatButton(g: Game, power: string, take: boolean): HTMLButtonElement {
    return h(
      "button",
      {
        type: "button",
        [take ? "data-take-seat" : "data-leave-seat"]: power,
        onclick: async () => {
          setReady(false);
          try {
            if (take) await api.takeSeat(g.id, power);
            else await api.leaveSeat(g.id, power);
            app.clearError();
          } catch (e) {
            app.showError(e);
          }
          await loadLists();
        },
      },
      take ? t("takeSeat", { power: nameOf(g, power) }) : t("leaveSeat", { power: nameOf(g, power) }),
    );
  }

  function renderMine(games: Game[]): void {
    if (games.length === 0) {
      replace(mine, h("p", { class: "hint" }, t("noGames")));
      return;
    }
    const rows = games.map((g) => {
      const powers = myPowers(g);
      const turn = g.status === "over" ? (g.winner ? String(Array.isArray(g.winner) ? g.winner.map((w) => powerName(String(w))).join(", ") : powerName(String(g.winner))) : "") : g.actor ? nameOf(g, g.actor) : "";
      const mineNow = g.status === "playing" && g.actor !== null && powers.includes(g.actor);
      // A correspondence game's deadline for the move it waits on.
      const deadline = g.status === "playing" ? g.seats.find((s) => s.deadline_ms !== undefined)?.deadline_ms : undefined;
      return h(
        "tr",
        { "data-game": g.id, "data-status": g.status, class: mineNow ? "my-turn" : "" },
        h("td", null, rulesetTitle(g.ruleset)),
        h("td", null, statusText(g)),
        h("td", null, turn, deadline !== undefined ? h("div", { class: "meta", "data-deadline": String(deadline) }, t("clockDeadline", { date: localTime(deadline) })) : null),
        h("td", null, powers.map((p) => nameOf(g, p)).join(", ")),
        h("td", null, created(g)),
        h("td", null, h("div", { class: "actions" }, gameLink(g), g.status === "open" ? powers.map((p) => seatButton(g, p, false)) : null)),
      );
    });
    replace(
      mine,
      h(
        "table",
        null,
        h("thead", null, h("tr", null, [t("colRuleset"), t("colStatus"), t("colTurn"), t("colMyPowers"), t("colCreated"), t("colActions")].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", null, rows),
      ),
    );
  }

  function renderOpen(games: Game[]): void {
    if (games.length === 0) {
      replace(open, h("p", { class: "hint" }, t("noOpenGames")));
      return;
    }
    const rows = games.map((g) => {
      const seats = g.seats.map((s) => `${nameOf(g, s.power)}: ${s.kind === "open" ? t("seatOpen") : s.kind === "computer" ? t("seatComputer") : (s.account ?? "")}`).join(" · ");
      const openSeats = g.seats.filter((s) => s.kind === "open").map((s) => s.power);
      return h(
        "tr",
        { "data-game": g.id },
        h("td", null, rulesetTitle(g.ruleset)),
        h("td", null, seats),
        h("td", null, created(g)),
        h("td", null, h("div", { class: "actions" }, openSeats.map((p) => seatButton(g, p, true)), gameLink(g))),
      );
    });
    replace(
      open,
      h(
        "table",
        null,
        h("thead", null, h("tr", null, [t("colRuleset"), t("colSeats"), t("colCreated"), t("colActions")].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", null, rows),
      ),
    );
  }

  async function loadLists(): Promise<void> {
    setReady(false);
    try {
      const [m, o] = await Promise.all([api.games("mine"), api.games("open")]);
      if (!alive) return;
      renderMine(m);
      renderOpen(o);
    } catch (e) {
      if (!alive) return;
      if (e instanceof ApiError && e.code === "auth/required") {
        app.setAccount(null);
        app.navigate("/", true);
        return;
      }
      app.showError(e);
    }
    setReady(true);
  }

  (async () => {
    try {
      rulesets = await api.rulesets();
      if (!alive) return;
      renderForm();
    } catch (e) {
      app.showError(e);
    }
    await loadLists();
  })();
  const timer = window.setInterval(() => {
    if (document.visibilityState === "visible") void loadLists();
  }, 15000);

  return () => {
    alive = false;
    window.clearInterval(timer);
  };
}
