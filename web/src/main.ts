// warboard's browser interface: the shell (header, error line) and the
// router over location.pathname: /, /lobby (#settings: its settings open), /game/{id}, /game/{id}/replay, /calc,
// /ladder (#family: the family shown), /players/{name}.

import "./app.css";
import { api, Account, ApiError } from "./api";
import { App, Cleanup } from "./app";
import { h, replace, setReady } from "./dom";
import { t, currentLang, setLang, errorText as refusalText } from "./i18n";
import { gamePage } from "./pages/game";
import { lobbyPage } from "./pages/lobby";
import { calcPage } from "./pages/calc";
import { ladderPage } from "./pages/ladder";
import { playerPage } from "./pages/player";
import { replayPage } from "./pages/replay";
import { signinPage } from "./pages/signin";

const mount = document.getElementById("app") ?? document.body.appendChild(h("div", { id: "app" }));
mount.removeAttribute("aria-live");

const header = h("header", { class: "top" });
const errorLine = h("span", { class: "msg" });
const errorEl = h(
  "div",
  { id: "error", role: "alert", "aria-live": "assertive", hidden: true },
  h("strong", null, ""),
  errorLine,
  h("button", { type: "button", class: "close", "aria-label": t("dismiss"), onclick: () => app.clearError() }, "×"),
);
const main = h("main", { id: "main", tabindex: -1 });

let cleanup: Cleanup | null = null;

const app: App = {
  account: null,
  main,
  navigate(path: string, replaceState = false) {
    if (path !== location.pathname + location.hash) {
      if (replaceState) history.replaceState(null, "", path);
      else history.pushState(null, "", path);
    }
    route();
  },
  setAccount(account: Account | null) {
    app.account = account;
    renderHeader();
  },
  showError(err: unknown) {
    let code = "error";
    let message = String(err);
    if (err instanceof ApiError) {
      code = err.code;
      message = err.code === "network/failed" ? t("networkFailed", { message: err.message }) : err.code === "socket/closed" ? t("socketClosed") : refusalText(err.code, err.message || err.code, err.args);
    } else if (err instanceof Error) message = err.message;
    errorEl.dataset.code = code;
    (errorEl.firstChild as HTMLElement).textContent = `${t("errorTitle")} (${code}): `;
    errorLine.textContent = message;
    errorEl.hidden = false;
  },
  clearError() {
    errorEl.hidden = true;
    delete errorEl.dataset.code;
    errorLine.textContent = "";
  },
};

function renderHeader(): void {
  document.documentElement.lang = currentLang();
  const other = currentLang() === "en" ? "de" : "en";
  replace(
    header,
    h("a", { href: "#main", class: "skip" }, t("skipToContent")),
    h("a", { href: app.account ? "/lobby" : "/", class: "brand" }, t("appName")),
    h(
      "nav",
      { "aria-label": "warboard" },
      app.account ? h("a", { href: "/lobby" }, t("lobby")) : location.pathname.startsWith("/game/") ? h("a", { href: "/", id: "header-signin", onclick: (e: Event) => { e.preventDefault(); showSignin(); } }, t("signIn")) : null,
      h("a", { href: "/ladder", id: "nav-ladder" }, t("ladder")),
      h("a", { href: "/calc", id: "nav-calc" }, t("calcTitle")),
      app.account ? h("a", { href: "/lobby#settings", id: "nav-settings" }, t("settings")) : null,
      app.account ? h("span", { class: "who", id: "signed-in" }, signedIn(app.account.name)) : null,
      app.account ? h("button", { type: "button", id: "signout", onclick: () => void signOut() }, t("signOut")) : null,
      h(
        "button",
        { type: "button", id: "lang-switch", lang: other, "data-lang": currentLang(), "aria-label": t("switchLanguageLabel"), onclick: () => switchLang(other) },
        other.toUpperCase(),
      ),
    ),
  );
}

/** "Signed in as NAME", the name a link to the account's profile. */
function signedIn(name: string): (Node | string)[] {
  const [before, after = ""] = t("signedInAs").split("{name}");
  return [before, h("a", { href: `/players/${encodeURIComponent(name)}`, id: "nav-profile" }, name), after];
}

/** Signing in from a page that does not need it (watching a game): back to that page after. */
function showSignin(): void {
  cleanup?.();
  cleanup = signinPage(app, location.pathname);
}

function switchLang(l: "en" | "de"): void {
  setLang(l);
  renderHeader();
  (errorEl.querySelector("button.close") as HTMLButtonElement).setAttribute("aria-label", t("dismiss"));
  route();
  document.getElementById("lang-switch")?.focus();
}

async function signOut(): Promise<void> {
  try {
    await api.signout();
  } catch {
    /* signed out anyway */
  }
  app.setAccount(null);
  app.navigate("/");
}

function route(): void {
  cleanup?.();
  cleanup = null;
  setReady(false);
  app.clearError();
  renderHeader();
  const path = location.pathname;
  const game = /^\/game\/([^/]+)\/?$/.exec(path);
  const replay = /^\/game\/([^/]+)\/replay\/?$/.exec(path);
  const player = /^\/players\/([^/]+)\/?$/.exec(path);
  if (replay) {
    cleanup = replayPage(app, decodeURIComponent(replay[1]));
  } else if (game) {
    cleanup = gamePage(app, decodeURIComponent(game[1]));
  } else if (path === "/calc") {
    cleanup = calcPage(app);
  } else if (path === "/ladder") {
    cleanup = ladderPage(app);
  } else if (player) {
    cleanup = playerPage(app, decodeURIComponent(player[1]));
  } else if (!app.account) {
    cleanup = signinPage(app, path === "/" ? "/lobby" : path);
  } else if (path === "/" || path === "/lobby") {
    cleanup = lobbyPage(app);

  } else {
    app.navigate("/lobby", true);
  }
}

// Links inside the page go through the router.
document.addEventListener("click", (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element).closest?.("a[href]") as HTMLAnchorElement | null;
  if (!a || a.target || a.hasAttribute("download") || a.origin !== location.origin || a.getAttribute("href")!.startsWith("#")) return;
  e.preventDefault();
  app.navigate(a.pathname + a.hash);
  main.focus({ preventScroll: true });
});
window.addEventListener("popstate", () => route());

async function start(): Promise<void> {
  replace(mount, header, errorEl, main);
  renderHeader();
  try {
    app.account = await api.me();
  } catch (e) {
    app.account = null;
    if (!(e instanceof ApiError && e.status === 401)) app.showError(e);
  }
  renderHeader();
  route();
}

void start();
