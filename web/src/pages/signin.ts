// The sign-in page: name, password, sign in or create an account.

import { api } from "../api";
import { App, Cleanup } from "../app";
import { h, replace, setReady } from "../dom";
import { t } from "../i18n";

export function signinPage(app: App, next: string): Cleanup {
  const name = h("input", { id: "signin-name", name: "name", type: "text", autocomplete: "username", required: true, minlength: 3, maxlength: 32, autocapitalize: "none", spellcheck: "false" });
  const password = h("input", { id: "signin-password", name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 8 });
  let busy = false;
  const go = async (create: boolean) => {
    if (busy) return;
    busy = true;
    setReady(false);
    form.setAttribute("aria-busy", "true");
    try {
      const account = create ? await api.signup(name.value.trim(), password.value) : await api.signin(name.value.trim(), password.value);
      app.clearError();
      app.setAccount(account);
      app.navigate(next, true);
    } catch (e) {
      app.showError(e);
      password.select();
      setReady(true);
    } finally {
      busy = false;
      form.removeAttribute("aria-busy");
    }
  };
  const form = h(
    "form",
    {
      id: "signin",
      class: "panel narrow",
      novalidate: true,
      onsubmit: (e: Event) => {
        e.preventDefault();
        void go(false);
      },
    },
    h("h1", null, t("signInTitle")),
    h("p", { class: "hint" }, t("signInIntro")),
    h("div", { class: "field" }, h("label", { for: "signin-name" }, t("name")), name),
    h("div", { class: "field" }, h("label", { for: "signin-password" }, t("password")), password),
    h(
      "div",
      { class: "buttons" },
      h("button", { id: "signin-submit", type: "submit", class: "primary" }, t("signIn")),
      h("button", { id: "signup-submit", type: "button", onclick: () => void go(true) }, t("createAccount")),
    ),
  );
  replace(app.main, form);
  name.focus();
  setReady(true);
  return () => {};
}
