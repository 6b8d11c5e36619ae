import type { Locator, Page } from 'playwright-core';

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

type TBox = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<TBox> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} is not on screen`);
  return box;
}

/** How far `inner` sticks out of `outer` (a locator, or the page's viewport), in px on its worst side: 0 or less fits. */
export async function overhang(inner: Locator, outer: Locator | 'viewport'): Promise<number> {
  const a = await boxOf(inner);
  const b = outer === 'viewport' ? { x: 0, y: 0, ...inner.page().viewportSize()! } : await boxOf(outer);
  return Math.max(b.x - a.x, b.y - a.y, a.x + a.width - (b.x + b.width), a.y + a.height - (b.y + b.height));
}

/**
 * How far the toast on screen reaches up over the signed-in layout's top bar (bell, user menu,
 * Logout), in px: 0 or less, it covers none of it.
 */
export async function toastOverTopBar(page: Page): Promise<number> {
  const header = await boxOf(page.locator('header:has([data-testid="user-summary"])'));
  const toast = await boxOf(
    page
      .getByRole('region', { name: /^Notifications/, includeHidden: true })
      .locator('li')
      .first(),
  );
  return header.y + header.height - toast.y;
}
