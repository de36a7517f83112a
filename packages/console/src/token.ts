/**
 * The backoffice token lives in this tab's sessionStorage only: it is gone when the tab
 * closes, other tabs and sites cannot read it, and it never enters a URL.
 */
const KEY = 'pis.console.backofficeToken';

export const storedToken = (): string | null => window.sessionStorage.getItem(KEY);

export const storeToken = (token: string): void => window.sessionStorage.setItem(KEY, token);

export const forgetToken = (): void => window.sessionStorage.removeItem(KEY);
