import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TSaveSupplyItemInput, TSuppliesSummary, TSupplyItem, TSupplyOrder, TSupplySuggestion } from '#domain/supplies';
import { api } from './helpers/api.ts';
import { signInAs, type TDemoAccount } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// The Supply Orders screen and the supplier's workspace (issue 31). Tests that write use items of
// their own, made by the admin through the API, so none depends on the demo's supplies or on
// another test's leftovers.

/** Where the screenshots go that the test run leaves for a person to look at. */
const SHOTS = '/tmp/supply-shots';
mkdirSync(SHOTS, { recursive: true });

const orderRows = (page: Page) => page.getByTestId('supply-order-row');
const orderRow = (page: Page, orderNumber: string) => page.locator(`[data-testid=supply-order-row][data-order-number="${orderNumber}"]`);
const stockRow = (scope: Page | Locator, itemId: string) => scope.locator(`[data-testid=stock-item][data-item-id="${itemId}"]`);

async function openSupplies(page: Page, account: TDemoAccount, path = '/supply-orders'): Promise<void> {
  await signInAs(page, account, { landOn: path });
  await page.getByRole('heading', { name: 'Supply Orders', level: 1 }).waitFor();
}

/** The open orders list, once drawn (rows or its empty text). */
async function openOrdersShown(page: Page): Promise<void> {
  await page.locator('[data-testid=open-orders], [data-testid=open-orders-empty]').first().waitFor();
}

/** Neither the page nor the scrolling content area nor an open dialog is wider than the screen. */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const main = document.getElementById('main-content');
    const dialog = document.querySelector('[role=dialog]');
    return Math.max(root.scrollWidth - root.clientWidth, main ? main.scrollWidth - main.clientWidth : 0, dialog ? dialog.scrollWidth - dialog.clientWidth : 0);
  });
}

/** The demo supplier's id, read as she is (every item here is preferred from her). */
async function demoSupplierId(): Promise<string> {
  const page = await e2e.newPage();
  await signInAs(page, 'supplier', { landOn: '/team-chat' });
  const { json } = await api<{ id: string }>(page, 'GET', '/api/auth/user');
  await page.context().close();
  return json.id;
}

/** A catalogue item of the test's own, made by an admin signed in on `admin`. */
async function newItem(admin: Page, overrides: Partial<TSaveSupplyItemInput> = {}): Promise<TSupplyItem> {
  const body: TSaveSupplyItemInput = {
    name: `Gauze ${uniqueWord()}`,
    unit: 'box',
    packSize: 10,
    unitPriceCents: 1299,
    reorderPoint: 5,
    parLevel: 20,
    openingQuantity: 4,
    ...overrides,
  };
  const { status, json } = await api<TSupplyItem>(admin, 'POST', '/api/supply-items', body);
  expect(status, JSON.stringify(json)).toBe(201);
  return json;
}

describe("the issue's journey: a nurse orders, the supplier fills it live, the nurse picks it up", () => {
  it('a nurse orders; the supplier sees it without a reload, processes it and marks it ready; the nurse is told live and confirms a short pickup; stock rises', async () => {
    const supplierId = await demoSupplierId();
    const admin = await e2e.newPage();
    await signInAs(admin, 'admin', { landOn: '/team-chat' });
    const item = await newItem(admin, { preferredSupplierId: supplierId });
    const word = item.name.split(' ')[1]!;

    // The supplier watches her orders in a browser of her own.
    const supplier = await e2e.newPage();
    await openSupplies(supplier, 'supplier');
    await openOrdersShown(supplier);
    expect(await supplier.getByRole('tab').count()).toBe(0);
    expect(await supplier.getByRole('button', { name: 'New Order' }).count()).toBe(0);

    // The nurse finds the item in the catalogue, with its stock in view, and orders it.
    const { page } = e2e;
    await openSupplies(page, 'nurse');
    await page.getByRole('button', { name: 'New Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Supply Order' });
    await dialog.getByRole('searchbox', { name: 'Search the catalogue' }).fill(word);
    const match = dialog.locator(`[data-testid=catalogue-item][data-item-id="${item.id}"]`);
    await match.waitFor();
    expect(await match.innerText()).toContain('On hand 4 box');
    await match.getByRole('button', { name: `Add ${item.name}` }).click();
    const line = dialog.locator(`[data-testid=order-line][data-item-id="${item.id}"]`);
    // The supplier is the item's; the quantity is the reorder rule's: up to par from 4, in packs of 10.
    await expect.poll(() => dialog.getByLabel(/^Supplier/).inputValue()).toBe(supplierId);
    expect(await line.getByTestId('order-line-quantity').inputValue()).toBe('20');
    expect(await line.getByTestId('order-line-stock').innerText()).toMatch(/On hand\s*4 box/);
    await line.getByRole('button', { name: `One pack more of ${item.name}` }).click();
    expect(await line.getByTestId('order-line-quantity').inputValue()).toBe('30');
    await line.getByRole('button', { name: `One pack fewer of ${item.name}` }).click();
    expect(await dialog.getByTestId('order-total-preview').innerText()).toContain('$259.80');
    await dialog.getByLabel('Notes').fill(`Back door, ${word}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/new-order-1280.png` });
    await dialog.getByRole('button', { name: 'Place Order' }).click();

    // The order opens, numbered and priced by the server.
    const detail = page.getByTestId('supply-order-detail');
    await detail.getByTestId('supply-order-items').waitFor();
    const title = await detail.getByRole('heading').first().innerText();
    const orderNumber = /SO-\d{4}-\d{6}/.exec(title)![0];
    await toastText(page, `Order ${orderNumber} placed`).waitFor();
    expect(await detail.getByTestId('supply-order-detail-total').innerText()).toBe('$259.80');
    expect(await detail.getByTestId('supply-status').innerText()).toBe('Ordered');
    expect(await detail.getByTestId('supply-order-notes').innerText()).toBe(`Back door, ${word}`);
    // Before processing, the nurse may cancel it; nothing else is hers to press.
    expect(await detail.getByRole('button', { name: 'Cancel Order' }).count()).toBe(1);
    expect(await detail.getByRole('button', { name: /Start Processing|Ready for Pickup|Confirm Pickup/ }).count()).toBe(0);

    // The supplier sees it arrive without a reload, and is told.
    const hers = orderRow(supplier, orderNumber);
    await hers.waitFor();
    await toastText(supplier, 'New supply order').waitFor();
    expect(await hers.getByTestId('supply-order-total').innerText()).toBe('$259.80');
    await hers.getByRole('button', { name: /^Start Processing/ }).click();
    await toastText(supplier, 'Processing started').waitFor();
    await expect.poll(() => hers.getAttribute('data-status')).toBe('processing');
    await supplier.screenshot({ path: `${SHOTS}/supplier-orders-1280.png`, fullPage: true });
    await hers.getByRole('button', { name: /^Ready for Pickup/ }).click();
    await toastText(supplier, 'Marked ready for pickup').waitFor();
    await expect.poll(() => hers.getAttribute('data-status')).toBe('ready_for_pickup');

    // The nurse is told live (supply_ready), and the open order shows it is ready.
    await toastText(page, `${orderNumber} is ready for pickup.`).waitFor();
    await expect.poll(() => detail.getByTestId('supply-status').innerText()).toBe('Ready for pickup');
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    // The bell's notice leads to the order.
    const placed = (await api<TSupplyOrder[]>(page, 'GET', '/api/supply-orders?view=open&mine=1&limit=200')).json.find((o) => o.orderNumber === orderNumber)!;
    await page.getByTestId('notification-bell').click();
    const notice = page.getByTestId('bell-notification').filter({ hasText: 'Supply order ready' }).filter({ hasText: orderNumber });
    await notice.getByRole('link', { name: /^Open the supply order/ }).click();
    await page.waitForURL((url) => url.pathname === '/supply-orders' && url.searchParams.get('order') === placed.id);
    await detail.getByTestId('supply-order-items').waitFor();

    // She confirms the pickup: two boxes short.
    await detail.getByRole('button', { name: 'Confirm Pickup' }).click();
    const pickup = page.getByRole('dialog', { name: 'Confirm Pickup' });
    const received = pickup.getByLabel(item.name);
    expect(await received.inputValue()).toBe('20');
    await received.fill('18');
    expect(await pickup.getByTestId('pickup-summary').innerText()).toMatch(/^1 line short/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/pickup-1280.png` });
    await pickup.getByRole('button', { name: 'Confirm Pickup' }).click();
    await toastText(page, 'Pickup confirmed').waitFor();
    await expect.poll(() => detail.getByTestId('supply-status').innerText()).toBe('Picked up');
    expect(await detail.getByTestId('received').innerText()).toBe('Received 18 of 20: 2 short');
    expect(await detail.locator('[data-testid=timeline-step][data-step=picked]').innerText()).toContain('by Nora Bennett');
    await page.screenshot({ path: `${SHOTS}/order-detail-1280.png` });

    // Stock rose by what came, on the server and on the Stock tab.
    expect((await api<TSupplyItem>(page, 'GET', `/api/supply-items/${item.id}`)).json.onHand).toBe(22);
    await detail.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('tab', { name: 'Stock' }).click();
    await page.getByRole('searchbox', { name: 'Search the stock' }).fill(word);
    const row = stockRow(page.getByTestId('all-items'), item.id);
    await row.waitFor();
    expect(await row.getByTestId('on-hand').innerText()).toBe('22 box');
    // The supplier's list moved it to the done ones, still without a reload.
    await expect.poll(() => orderRow(supplier, orderNumber).getAttribute('data-status')).toBe('completed');
  });
});

describe("the supplier's workspace", () => {
  it('her dashboard shows her open orders by status and no patient figures; she is refused the clinic’s patient reads', async () => {
    const { page } = e2e;
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname.startsWith('/api/')) refused.push(`${response.status()} ${response.url()}`);
    });
    await signInAs(page, 'supplier');
    await page.getByTestId('stat-ordered').locator('.text-3xl').waitFor();
    const { json: summary } = await api<TSuppliesSummary>(page, 'GET', '/api/supplies/summary');
    expect(summary.lowStockItems).toBeNull();
    for (const status of ['ordered', 'processing', 'ready_for_pickup'] as const)
      expect(await page.getByTestId(`stat-${status}`).locator('.text-3xl').innerText(), status).toBe(String(summary.openOrders[status]));
    await page.getByTestId('stat-unreadMessages').waitFor();
    for (const patientCard of ['stat-todayAppointments', 'stat-activePatients', 'stat-pendingLabResults', 'stat-lowStockItems', 'todays-schedule'])
      expect(await page.getByTestId(patientCard).count(), patientCard).toBe(0);
    const panel = page.getByTestId('supplier-open-orders');
    await panel.locator('[data-testid=open-order-entry], [data-testid=open-orders-panel-empty]').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/supplier-dashboard-1280.png`, fullPage: true });

    // A card leads to that list.
    await page.getByTestId('stat-processing-link').click();
    await page.waitForURL((url) => url.pathname === '/supply-orders' && url.searchParams.get('status') === 'processing');
    await openOrdersShown(page);
    expect(await page.getByRole('button', { name: 'Processing', pressed: true }).count()).toBe(1);
    for (const row of await orderRows(page).all()) expect(await row.getAttribute('data-status')).toMatch(/processing|completed|cancelled/);
    expect(refused).toEqual([]);

    const mobile = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(mobile, 'supplier');
    await mobile.getByTestId('stat-ordered').locator('.text-3xl').waitFor();
    await mobile.getByTestId('supplier-open-orders').locator('[data-testid=open-order-entry], [data-testid=open-orders-panel-empty]').first().waitFor();
    expect(await horizontalOverflow(mobile)).toBeLessThanOrEqual(0);
    await mobile.screenshot({ path: `${SHOTS}/supplier-dashboard-375.png`, fullPage: true });
  });

  it('a scribe has no link and gets the no-access card, without calling the API', async () => {
    const { page } = e2e;
    const calls: string[] = [];
    page.on('request', (request) => {
      if (/^\/api\/suppl/.test(new URL(request.url()).pathname)) calls.push(request.url());
    });
    await signInAs(page, 'scribe');
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Supply Orders' }).count()).toBe(0);
    await page.goto('/supply-orders');
    await page.getByTestId('supply-orders-no-access').waitFor();
    expect(calls).toEqual([]);
    expect((await api(page, 'GET', '/api/supply-orders')).status).toBe(403);
  });
});

describe('stock', () => {
  it("a nurse sees low stock on her dashboard and records use; an admin counts with a reason and edits an item's price in dollars", async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/team-chat' });
    const item = await newItem(page, { openingQuantity: 3, expiresOn: '2020-01-01', lot: `L-${uniqueWord()}` });
    const word = item.name.split(' ')[1]!;

    // The nurse's dashboard: the clinic's four cards, and the Low stock strip leading to the Stock tab.
    const nurse = await e2e.newPage();
    await signInAs(nurse, 'nurse');
    const low = nurse.getByTestId('stat-lowStockItems');
    await low.getByTestId('stat-lowStockItems-value').waitFor();
    const { json: summary } = await api<TSuppliesSummary>(nurse, 'GET', '/api/supplies/summary');
    expect(await low.getByTestId('stat-lowStockItems-value').innerText()).toBe(String(summary.lowStockItems));
    for (const card of ['stat-todayAppointments', 'stat-activePatients', 'stat-pendingLabResults', 'stat-unreadMessages'])
      expect(await nurse.getByTestId(card).isVisible(), card).toBe(true);
    // The four cards keep their one row.
    const tops = await Promise.all(['stat-todayAppointments', 'stat-unreadMessages'].map(async (id) => (await nurse.getByTestId(id).boundingBox())!.y));
    expect(tops[0]).toBe(tops[1]);
    expect(await seriousA11yViolations(nurse)).toEqual([]);
    await nurse.screenshot({ path: `${SHOTS}/nurse-dashboard-1280.png`, fullPage: true });
    await low.click();
    await nurse.waitForURL((url) => url.pathname === '/supply-orders' && url.searchParams.get('tab') === 'stock');

    // Low and expired: first in both lists, said in words.
    const lowRow = stockRow(nurse.getByTestId('low-stock'), item.id);
    await lowRow.waitFor();
    expect(await lowRow.getAttribute('data-low')).toBe('true');
    expect(await lowRow.getAttribute('data-expiry')).toBe('expired');
    expect(await lowRow.getByTestId('expires').innerText()).toBe('Expired Jan 1, 2020');
    await stockRow(nurse.getByTestId('expiring'), item.id).waitFor();
    // A nurse records use but does not count or edit.
    expect(await lowRow.getByRole('button', { name: /^Count/ }).count()).toBe(0);
    expect(await lowRow.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    await lowRow.getByRole('button', { name: /^Record use/ }).click();
    const use = nurse.getByRole('dialog', { name: 'Record use' });
    await use.getByLabel(/^Quantity used/).fill('5');
    await use.getByRole('button', { name: 'Record use' }).click();
    expect(await use.getByTestId('quantity-error').innerText()).toBe('Only 3 box on hand');
    await use.getByLabel(/^Quantity used/).fill('2');
    await use.getByLabel('Note').fill('Dressing change');
    await use.getByRole('button', { name: 'Record use' }).click();
    await toastText(nurse, `${item.name}: 1 box left`).waitFor();
    await expect.poll(() => lowRow.getByTestId('on-hand').innerText()).toBe('1 box');

    // The admin counts it: a difference needs its reason.
    await page.goto('/supply-orders?tab=stock');
    await page.getByRole('searchbox', { name: 'Search the stock' }).fill(word);
    const row = stockRow(page.getByTestId('all-items'), item.id);
    await row.getByRole('button', { name: /^Count/ }).click();
    const count = page.getByRole('dialog', { name: 'Count stock' });
    await count.getByLabel(/^Counted/).fill('0');
    expect(await count.getByTestId('count-difference').innerText()).toBe('-1 against the stock on record');
    await count.getByRole('button', { name: 'Record count' }).click();
    expect(await count.getByTestId('reason-error').innerText()).toBe('Say why the count differs from the stock on record');
    await count.getByLabel(/^Reason for the difference/).selectOption('expired');
    await count.getByRole('button', { name: 'Record count' }).click();
    await toastText(page, `${item.name}: 0 box on hand`).waitFor();

    // Its history: opening, use, count, each with who and the balance.
    await row.getByRole('button', { name: /^History/ }).click();
    const history = page.getByRole('dialog', { name: `Stock history: ${item.name}` });
    await expect.poll(() => history.getByTestId('movement').count()).toBe(3);
    expect(await history.getByTestId('movement').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')))).toEqual(['count', 'use', 'opening']);
    expect(await history.getByTestId('movement').first().innerText()).toContain('Counted (expired)');
    await page.screenshot({ path: `${SHOTS}/history-1280.png` });
    await history.getByRole('button', { name: 'Close' }).click();

    // The price is typed in dollars and kept in cents.
    await row.getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Item' });
    expect(await edit.getByLabel(/^Unit price/).inputValue()).toBe('12.99');
    await edit.getByLabel(/^Unit price/).fill('12.5x');
    await edit.getByRole('button', { name: 'Save Item' }).click();
    expect(await edit.getByTestId('unitPriceCents-error').innerText()).toBe('Enter a price in dollars, e.g. 12.50');
    await edit.getByLabel(/^Unit price/).fill('0.29');
    await edit.getByRole('button', { name: 'Save Item' }).click();
    await toastText(page, 'Item saved').waitFor();
    expect((await api<TSupplyItem>(page, 'GET', `/api/supply-items/${item.id}`)).json.unitPriceCents).toBe(29);

    // A new item: its price in dollars, its opening stock its first movement.
    await page.getByRole('button', { name: 'New Item' }).click();
    const create = page.getByRole('dialog', { name: 'New Item' });
    const name = `Swabs ${uniqueWord()}`;
    await create.getByLabel(/^Name/).fill(name);
    await create.getByLabel(/^Unit/, { exact: false }).first().fill('each');
    await create.getByLabel(/^Pack size/).fill('50');
    await create.getByLabel(/^Unit price/).fill('3.5');
    await create.getByLabel(/^Reorder point/).fill('100');
    await create.getByLabel(/^Par level/).fill('50');
    await create.getByLabel('Opening stock').fill('120');
    await create.getByRole('button', { name: 'Add Item' }).click();
    expect(await create.getByTestId('parLevel-error').innerText()).toBe('Must be at least the reorder point');
    await create.getByLabel(/^Par level/).fill('400');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/new-item-1280.png` });
    await create.getByRole('button', { name: 'Add Item' }).click();
    await toastText(page, 'Item added').waitFor();
    const { json: found } = await api<TSupplyItem[]>(page, 'GET', `/api/supply-items?q=${encodeURIComponent(name)}`);
    expect(found.map((i) => [i.name, i.unitPriceCents, i.packSize, i.onHand, i.reorderPoint, i.parLevel])).toEqual([[name, 350, 50, 120, 100, 400]]);
  });
});

describe('cancelling', () => {
  it('the requester cancels an order before the supplier starts on it, with its reason; it moves to the done orders', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/team-chat' });
    const item = await newItem(page);
    const supplierId = (await api<{ id: string }[]>(page, 'GET', '/api/supplies/suppliers')).json[0]!.id;
    const nurse = await e2e.newPage();
    await signInAs(nurse, 'nurse', { landOn: '/team-chat' });
    const { status, json: order } = await api<TSupplyOrder>(nurse, 'POST', '/api/supply-orders', { supplierId, items: [{ itemId: item.id, quantity: 10 }] });
    expect(status).toBe(201);

    await nurse.goto('/supply-orders?mine=1&status=ordered');
    const row = orderRow(nurse, order.orderNumber);
    await row.getByRole('button', { name: /^Cancel Order/ }).click();
    const dialog = nurse.getByRole('dialog', { name: 'Cancel Order' });
    await dialog.getByRole('button', { name: 'Cancel Order' }).click();
    expect(await dialog.getByTestId('statusReason-error').innerText()).toBe('Say why the order is cancelled');
    await dialog.getByLabel(/^Reason/).fill('Found a box in the back room');
    await dialog.getByRole('button', { name: 'Cancel Order' }).click();
    await toastText(nurse, 'Supply order cancelled').waitFor();
    // It leaves the open orders for the done ones, with its reason.
    const done = nurse.getByTestId('done-orders').locator(`[data-order-number="${order.orderNumber}"]`);
    await done.waitFor();
    expect(await done.getAttribute('data-status')).toBe('cancelled');
    expect(await done.innerText()).toContain('Cancelled: Found a box in the back room');
    expect(await orderRow(nurse, order.orderNumber).count()).toBe(1);
    expect(await done.getByRole('button', { name: /Cancel Order|Start Processing|Confirm Pickup/ }).count()).toBe(0);
  });
});

describe('suggestions', () => {
  it('the demo’s suggestions, grouped by supplier: the front desk dismisses one and makes the rest one order in one click', async () => {
    const { page } = e2e;
    await openSupplies(page, 'scheduler', '/supply-orders?tab=suggestions');
    const group = page.getByTestId('suggestion-group').first();
    await page.locator('[data-testid=suggestion-group], [data-testid=suggestions-empty]').first().waitFor();
    const { json: before } = await api<TSupplySuggestion[]>(page, 'GET', '/api/supply-suggestions');
    expect(before.length, 'the demo clinic has reorder suggestions').toBeGreaterThan(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/suggestions-1280.png`, fullPage: true });

    const lines = group.getByTestId('suggestion-line');
    const shown = await lines.count();
    const supplierId = (await group.getAttribute('data-supplier-id')) || null;
    const first = before.find((s) => s.supplierId === supplierId)!;
    await group
      .locator(`[data-testid=suggestion-line][data-item-id="${first.itemId}"]`)
      .getByRole('button', { name: `Dismiss the suggestion for ${first.itemName}` })
      .click();
    await toastText(page, 'Suggestion dismissed').waitFor();
    await expect.poll(() => lines.count()).toBe(shown - 1);

    await group.getByRole('button', { name: /^Create order/ }).click();
    const detail = page.getByTestId('supply-order-detail');
    await detail.getByTestId('supply-order-items').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBeNull();
    expect(await detail.getByTestId('supply-order-item').count()).toBe(shown - 1);
    expect((await api<TSupplySuggestion[]>(page, 'GET', '/api/supply-suggestions')).json.length).toBe(before.length - shown);
  });
});

describe('at 375 px', () => {
  it('nothing scrolls sideways on the Orders, Stock and Suggestions tabs, an order, or the new order form; axe-clean', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openSupplies(page, 'admin');
    await openOrdersShown(page);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/orders-375.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Stock' }).click();
    await page.locator('[data-testid=all-items], [data-testid=all-items-empty]').first().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/stock-375.png`, fullPage: true });

    await page.getByRole('tab', { name: /^Suggestions/ }).click();
    await page.locator('[data-testid=suggestion-groups], [data-testid=suggestions-empty]').first().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/suggestions-375.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Orders' }).click();
    await openOrdersShown(page);
    const { json: orders } = await api<TSupplyOrder[]>(page, 'GET', '/api/supply-orders?view=all&limit=1');
    await page.goto(`/supply-orders?order=${orders[0]!.id}`);
    await page.getByTestId('supply-order-detail').getByTestId('supply-order-items').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/order-detail-375.png` });
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'New Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Supply Order' });
    await dialog.getByTestId('catalogue-item').first().getByRole('button', { name: /^Add/ }).click();
    await dialog.getByTestId('order-line').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/new-order-375.png` });
  });

  it('at 1280 px, each tab as an admin sees it, with its loading, empty and error states', async () => {
    const { page } = e2e;
    // The first read held, then failed: the skeleton, then the error with its retry.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/supply-orders' && url.searchParams.get('view') === 'open',
      async (route) => {
        await held;
        await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Database unavailable', code: 'server.error' }) });
      },
    );
    await openSupplies(page, 'admin');
    await page.getByTestId('supply-skeleton').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/orders-loading-1280.png` });
    release();
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load the open orders' });
    await failed.waitFor();
    expect(await failed.innerText()).toContain('Database unavailable');
    await page.screenshot({ path: `${SHOTS}/orders-error-1280.png` });
    await page.unrouteAll();
    await failed.getByRole('button', { name: 'Try again' }).click();
    await openOrdersShown(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/orders-1280.png`, fullPage: true });

    // The admin placed none herself: 'My requests' says so.
    await page.getByLabel('My requests').check();
    await page.waitForURL((url) => url.searchParams.get('mine') === '1');
    const empty = page.getByTestId('open-orders-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('No open orders among your requests');
    await page.screenshot({ path: `${SHOTS}/orders-empty-1280.png` });
    await page.getByLabel('My requests').uncheck();
    await openOrdersShown(page);
    await page.getByRole('tab', { name: 'Stock' }).click();
    await page.locator('[data-testid=all-items], [data-testid=all-items-empty]').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/stock-1280.png`, fullPage: true });
  });
});
