import type { Page } from 'playwright-core';

/**
 * A toast's title or description, in the toast region (Radix adds a screen-reader copy elsewhere).
 * An open modal dialog marks the rest of the page aria-hidden, the region included.
 */
export const toastText = (page: Page, text: string) =>
  page.getByRole('region', { name: /^Notifications/, includeHidden: true }).getByText(text, { exact: true });

/** Letters only, so a name made from it is matched by nothing else. */
export function uniqueWord(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
}
