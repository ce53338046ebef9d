// What the pages share: the signed-in account, navigation and the error line.

import { Account } from "./api";

export interface App {
  account: Account | null;
  /** The element a page renders into. */
  main: HTMLElement;
  navigate(path: string, replace?: boolean): void;
  setAccount(account: Account | null): void;
  /** Shows a refusal in #error (its code as data-code). */
  showError(err: unknown): void;
  clearError(): void;
}

/** What a page leaves behind: called when the page is left. */
export type Cleanup = () => void;
