import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TSupplyItem } from '#domain/supplies';
import { NewSupplyOrderDialog } from '../../web/src/pages/supply-orders/new-supply-order-dialog.tsx';
import { fakeApi, type TRequest, type TRoutes } from './helpers/fake-api.ts';
import { SUPPLIER_A, SUPPLIER_B, supplyItem, supplyOrder } from './helpers/supply-fixtures.ts';
import { renderApp } from './helpers/render.tsx';

// The new supply order as the Supply Orders screen opens it (its dialog, the suppliers and the
// catalogue read), driven by the keyboard and mouse; only fetch is faked.

const GLOVES = supplyItem();
// Low: 3 on hand and 2 on order against a reorder point of 6 and par 24, in packs of 12: the reorder rule orders 24.
const GAUZE = supplyItem({
  id: '00000000-0000-4000-8000-00000000b002',
  name: 'Gauze pads 4x4',
  unit: 'pack',
  packSize: 12,
  unitPriceCents: 399,
  preferredSupplierId: SUPPLIER_B.id,
  preferredSupplierName: SUPPLIER_B.name,
  onHand: 3,
  onOrder: 2,
  reorderPoint: 6,
  parLevel: 24,
  isLow: true,
});
// One at a time, no preferred supplier, 29 cents: the float trap (0.29 * 3 is 0.8699999…).
const SWABS = supplyItem({
  id: '00000000-0000-4000-8000-00000000b003',
  name: 'Alcohol swabs',
  unit: 'each',
  packSize: 1,
  unitPriceCents: 29,
  preferredSupplierId: null,
  preferredSupplierName: null,
  onHand: 300,
  reorderPoint: 100,
  parLevel: 400,
});
const CATALOGUE = [SWABS, GAUZE, GLOVES];

function routes(extra: TRoutes = {}): TRoutes {
  return {
    'GET /api/supplies/suppliers': () => ({ status: 200, json: [SUPPLIER_A, SUPPLIER_B] }),
    'GET /api/supply-items': (request: TRequest) => {
      const q = request.search.get('q')?.toLowerCase() ?? '';
      return { status: 200, json: CATALOGUE.filter((item: TSupplyItem) => item.name.toLowerCase().includes(q)) };
    },
    'POST /api/supply-orders': () => ({ status: 201, json: supplyOrder({ status: 'ordered' }) }),
    ...extra,
  };
}

function openForm() {
  return renderApp(<NewSupplyOrderDialog open onClose={() => undefined} onCreated={() => undefined} />);
}

const lineOf = (name: string) => screen.getAllByTestId('order-line').find((el) => el.textContent?.includes(name))!;
const quantityOf = (name: string) => within(lineOf(name)).getByTestId('order-line-quantity') as HTMLInputElement;
const preview = () => screen.getByTestId('order-total-preview').textContent;

/** The catalogue's match of that name (its button reads 'Add <name>' to a screen reader). */
const match = async (name: string) => (await screen.findAllByTestId('catalogue-item')).find((el) => el.textContent?.includes(name))!;

async function add(user: ReturnType<typeof openForm>['user'], name: string) {
  await waitFor(async () => expect(await match(name)).toBeTruthy());
  await user.click(within(await match(name)).getByRole('button', { name: /^Add/ }));
  await waitFor(() => expect(lineOf(name)).toBeTruthy());
}

describe('the new supply order', () => {
  it('defaults the supplier to the first item’s, starts each line at the reorder rule’s quantity, steps by whole packs and previews the total to the cent', async () => {
    fakeApi(routes());
    const { user } = openForm();
    await screen.findByRole('option', { name: SUPPLIER_B.name });
    const supplier = screen.getByLabelText(/^Supplier/) as HTMLSelectElement;
    expect(supplier.value).toBe('');
    expect(preview()).toContain('$0.00');

    // The stock is in view as the item is added.
    await add(user, GAUZE.name);
    expect(supplier.value).toBe(SUPPLIER_B.id);
    expect(within(lineOf(GAUZE.name)).getByTestId('order-line-stock').textContent).toMatch(/On hand3 pack.*On order2.*Reorder at6.*Par24/);
    // Up to par from 5 projected is 19, rounded up to whole packs of 12.
    expect(quantityOf(GAUZE.name).value).toBe('24');
    expect(within(lineOf(GAUZE.name)).getByTestId('pack-hint').textContent).toBe('2 packs of 12');
    expect(preview()).toContain('$95.76');

    // One pack more, one pack fewer: by 12.
    await user.click(screen.getByRole('button', { name: `One pack more of ${GAUZE.name}` }));
    expect(quantityOf(GAUZE.name).value).toBe('36');
    expect(preview()).toContain('$143.64');
    await user.click(screen.getByRole('button', { name: `One pack fewer of ${GAUZE.name}` }));
    await user.click(screen.getByRole('button', { name: `One pack fewer of ${GAUZE.name}` }));
    expect(quantityOf(GAUZE.name).value).toBe('12');
    expect((screen.getByRole('button', { name: `One pack fewer of ${GAUZE.name}` }) as HTMLButtonElement).disabled).toBe(true);

    // A quantity typed off the packs is said, and a step goes back to whole packs.
    await user.clear(quantityOf(GAUZE.name));
    await user.type(quantityOf(GAUZE.name), '30');
    expect(within(lineOf(GAUZE.name)).getByTestId('pack-hint').textContent).toBe('Not whole packs: it comes in packs of 12');
    await user.click(screen.getByRole('button', { name: `One pack more of ${GAUZE.name}` }));
    expect(quantityOf(GAUZE.name).value).toBe('36');
    await user.click(screen.getByRole('button', { name: `One pack fewer of ${GAUZE.name}` }));
    expect(quantityOf(GAUZE.name).value).toBe('24');

    // A second item keeps the supplier chosen, and says whom it usually comes from.
    await user.type(screen.getByRole('searchbox', { name: 'Search the catalogue' }), 'swab');
    await waitFor(() => expect(screen.getAllByTestId('catalogue-item')).toHaveLength(1));
    await add(user, SWABS.name);
    expect(supplier.value).toBe(SUPPLIER_B.id);
    // Swabs: not low, so one unit; set it to 3 (29 cents each: 87 cents, never 86.99…).
    expect(quantityOf(SWABS.name).value).toBe('1');
    await user.clear(quantityOf(SWABS.name));
    await user.type(quantityOf(SWABS.name), '3');
    expect(within(lineOf(SWABS.name)).getByTestId('order-line-total').textContent).toBe('$0.87');
    expect(preview()).toContain('$96.63');
    const added = within(await match(SWABS.name)).getByRole('button', { name: /^Added/ }) as HTMLButtonElement;
    expect(added.disabled).toBe(true);
  });

  it('sends only the supplier, the items and their quantities, and the notes: the server prices it', async () => {
    const api = fakeApi(routes());
    const { user } = openForm();
    await add(user, GLOVES.name);
    await add(user, GAUZE.name);
    await user.selectOptions(screen.getByLabelText(/^Supplier/), SUPPLIER_A.id);
    expect(within(lineOf(GAUZE.name)).getByText(`Usually ordered from ${SUPPLIER_B.name}`)).toBeTruthy();
    await user.type(screen.getByLabelText('Notes'), 'Pick up Friday');
    await user.click(screen.getByRole('button', { name: 'Place Order' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'POST', path: '/api/supply-orders' });
    expect(api.writes()[0]!.body).toEqual({
      supplierId: SUPPLIER_A.id,
      items: [
        { itemId: GLOVES.id, quantity: 10 },
        { itemId: GAUZE.id, quantity: 24 },
      ],
      notes: 'Pick up Friday',
    });
    expect(await screen.findByText('Order SO-2026-000123 placed')).toBeTruthy();
  });

  it('checks what the server would before sending: a supplier, at least one item, whole quantities of at least 1', async () => {
    const api = fakeApi(routes());
    const { user } = openForm();
    await screen.findAllByTestId('catalogue-item');
    await user.click(screen.getByRole('button', { name: 'Place Order' }));
    expect((await screen.findByTestId('supplierId-error')).textContent).toBe('Choose a supplier');
    expect(screen.getByTestId('items-error').textContent).toBe('Add at least one item');

    await add(user, SWABS.name);
    await user.selectOptions(screen.getByLabelText(/^Supplier/), SUPPLIER_A.id);
    await user.clear(quantityOf(SWABS.name));
    await user.type(quantityOf(SWABS.name), '0');
    await user.click(screen.getByRole('button', { name: 'Place Order' }));
    expect((await screen.findByTestId('items.0.quantity-error')).textContent).toBe('Quantity must be at least 1');
    expect(quantityOf(SWABS.name).getAttribute('aria-invalid')).toBe('true');
    await user.clear(quantityOf(SWABS.name));
    await user.click(screen.getByRole('button', { name: 'Place Order' }));
    expect((await screen.findByTestId('items.0.quantity-error')).textContent).toBe('Quantity must be a whole number');
    expect(api.writes()).toEqual([]);
  });

  it("shows the server's refusals under the fields they name", async () => {
    const api = fakeApi(
      routes({
        'POST /api/supply-orders': () => ({
          status: 400,
          json: {
            message: 'Validation failed',
            code: 'validation.failed',
            errors: [
              { path: 'items.1.itemId', message: 'This item is retired' },
              { path: 'items.0.quantity', message: 'Quantity must be at most 100,000' },
              { path: 'supplierId', message: 'Choose an active supplier' },
            ],
          },
        }),
      }),
    );
    const { user } = openForm();
    await add(user, GLOVES.name);
    await add(user, GAUZE.name);
    await user.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect((await screen.findByTestId('items.0.quantity-error')).textContent).toBe('Quantity must be at most 100,000');
    expect(within(lineOf(GLOVES.name)).getByTestId('items.0.quantity-error')).toBeTruthy();
    expect(within(lineOf(GAUZE.name)).getByTestId('items.1.itemId-error').textContent).toBe('This item is retired');
    expect(screen.getByTestId('supplierId-error').textContent).toBe('Choose an active supplier');
    expect(screen.getByLabelText(/^Supplier/).getAttribute('aria-invalid')).toBe('true');
    // Every refusal found its field: no alert repeats them.
    expect(screen.queryByTestId('new-supply-order-error')).toBeNull();
  });

  it('says so when the catalogue is empty, or has nothing matching the search', async () => {
    fakeApi(routes({ 'GET /api/supply-items': () => ({ status: 200, json: [] }) }));
    const { user } = openForm();
    await screen.findByText(/The catalogue is empty/);
    await user.type(screen.getByRole('searchbox', { name: 'Search the catalogue' }), 'bandage');
    await waitFor(() => expect(screen.getByTestId('catalogue-empty').textContent).toBe('Nothing in the catalogue matches “bandage”.'));
  });
});
