// The account's settings, a panel of the lobby (`/lobby#settings`, linked
// from the header): the turn mail address and switch (docs/server.md,
// "Turn mail": GET/PUT /api/account/mail), and whether this server sends
// mail at all.
// Ids: #settings-panel, #mail-email, #mail-on, #mail-save,
// #mail-sending[data-sending], #mail-status[data-state].

import { api, ApiError, MailSettings } from "./api";
import { App } from "./app";
import { h, setReady } from "./dom";
import { t } from "./i18n";

/** The settings panel; `open`: unfolded (the page was opened for it). */
export function settingsPanel(app: App, open: boolean): HTMLDetailsElement {
  const email = h("input", { id: "mail-email", type: "email", autocomplete: "email", spellcheck: "false", autocapitalize: "none", maxlength: 254 });
  const on = h("input", { id: "mail-on", type: "checkbox" });
  const sending = h("p", { id: "mail-sending", class: "meta" });
  const status = h("p", { id: "mail-status", class: "meta", role: "status" });
  const save = h("button", { type: "submit", id: "mail-save", class: "primary" }, t("mailSave"));
  const form = h(
    "form",
    { id: "mail-settings", novalidate: true, "aria-labelledby": "mail-title" },
    h("h3", { id: "mail-title" }, t("mailTitle")),
    h("p", { class: "hint" }, t("mailIntro")),
    sending,
    h("div", { class: "field" }, h("label", { for: "mail-email" }, t("mailAddress")), email),
    h("div", { class: "option check" }, on, h("label", { for: "mail-on" }, t("mailOn"))),
    h("div", { class: "buttons" }, save),
    status,
  );
  const panel = h("details", { id: "settings-panel", class: "panel fold", open }, h("summary", null, h("h2", { id: "settings-title" }, t("settings"))), form);

  function show(m: MailSettings, state: "loaded" | "saved"): void {
    email.value = m.email ?? "";
    // No address yet: a new one comes with turn mail on, as the server has it.
    on.checked = m.email ? m.turn_mail : true;
    sending.dataset.sending = String(m.sending);
    sending.textContent = m.sending ? t("mailSending") : t("mailNotSending");
    status.dataset.state = state;
    status.textContent = state === "saved" ? t("mailSaved") : "";
  }

  form.onsubmit = async (e) => {
    e.preventDefault();
    save.disabled = true;
    setReady(false);
    status.dataset.state = "saving";
    try {
      const address = email.value.trim();
      show(await api.setMail(address ? { email: address, turn_mail: on.checked } : { email: "" }), "saved");
      app.clearError();
    } catch (err) {
      status.dataset.state = "error";
      status.textContent = "";
      app.showError(err);
    } finally {
      save.disabled = false;
      setReady(true);
    }
  };

  if (open) window.setTimeout(() => panel.scrollIntoView({ block: "start" }), 0);
  api
    .mail()
    .then((m) => show(m, "loaded"))
    .catch((e) => {
      if (!(e instanceof ApiError && e.code === "auth/required")) app.showError(e);
    });
  return panel;
}
