import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TSupplyOrder } from '#domain/supplies';
import { PickupDialog } from '../../web/src/pages/supply-orders/pickup-dialog.tsx';
import { fakeApi, type TRoutes } from './helpers/fake-api.ts';
import { supplyOrder } from './helpers/supply-fixtures.ts';
import { renderApp, toasts } from './helpers/render.tsx';

// 'Confirm Pickup' as an order's detail opens it, driven by the keyboard and mouse; only fetch is faked.

const ORDER = supplyOrder();
const [GLOVES, GAUZE, SWABS] = ORDER.items as [TSupplyOrder['items'][number], TSupplyOrder['items'][number], TSupplyOrder['items'][number]];

function routes(extra: TRoutes = {}): TRoutes {
  return {
    [`POST /api/supply-orders/${ORDER.id}/pickup`]: (request) => {
      const lines = (request.body as { lines: { itemId: string; receivedQuantity: number }[] }).lines;
      const items = ORDER.items.map((line) => ({ ...line, receivedQuantity: lines.find((l) => l.itemId === line.itemId)?.receivedQuantity ?? line.quantity }));
      return { status: 200, json: supplyOrder({ status: 'completed', items, pickedUpAt: '2026-03-05T09:00:00.000Z', pickedUpByName: 'Nora Bennett' }) };
    },
    ...extra,
  };
}

function openDialog(onClose = vi.fn()) {
  return { ...renderApp(<PickupDialog order={ORDER} onClose={onClose} />), onClose };
}

const lineOf = (name: string) => screen.getAllByTestId('pickup-line').find((el) => el.textContent?.includes(name))!;
const received = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('confirming a pickup', () => {
  it('starts every line at the quantity ordered; a short line is said as it is typed and sent with every line', async () => {
    const api = fakeApi(routes());
    const { user, onClose } = openDialog();
    expect(received(GLOVES.name).value).toBe('10');
    expect(received(GAUZE.name).value).toBe('24');
    expect(received(SWABS.name).value).toBe('5');
    expect(screen.getByTestId('pickup-summary').textContent).toBe('Every line came in full.');

    await user.clear(received(GAUZE.name));
    await user.type(received(GAUZE.name), '20');
    expect(lineOf(GAUZE.name).getAttribute('data-short')).toBe('true');
    expect(within(lineOf(GAUZE.name)).getByTestId('pickup-line-note').textContent).toBe('4 short');
    expect(lineOf(GLOVES.name).getAttribute('data-short')).toBe('false');
    expect(screen.getByTestId('pickup-summary').textContent).toMatch(/^1 line short/);
    // None came of one line: short by all of it.
    await user.clear(received(SWABS.name));
    await user.type(received(SWABS.name), '0');
    expect(screen.getByTestId('pickup-summary').textContent).toMatch(/^2 lines short/);

    await user.click(screen.getByRole('button', { name: 'Confirm Pickup' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'POST', path: `/api/supply-orders/${ORDER.id}/pickup` });
    expect(api.writes()[0]!.body).toEqual({
      lines: [
        { itemId: GLOVES.itemId, receivedQuantity: 10 },
        { itemId: GAUZE.itemId, receivedQuantity: 20 },
        { itemId: SWABS.itemId, receivedQuantity: 0 },
      ],
      updatedAt: ORDER.updatedAt,
    });
    expect(await toasts().findByText('Pickup confirmed')).toBeTruthy();
    expect(toasts().getByText(/2 lines short; the stock is updated/)).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
  });

  it('refuses more than was ordered, a blank and a fraction, under the line, without sending', async () => {
    const api = fakeApi(routes());
    const { user, onClose } = openDialog();
    await user.clear(received(GLOVES.name));
    await user.type(received(GLOVES.name), '12');
    await user.clear(received(GAUZE.name));
    await user.clear(received(SWABS.name));
    await user.type(received(SWABS.name), '2.5');
    await user.click(screen.getByRole('button', { name: 'Confirm Pickup' }));
    expect((await screen.findByTestId('lines.0.received-error')).textContent).toBe('At most the 10 ordered');
    expect(screen.getByTestId('lines.1.received-error').textContent).toBe('Received must be a whole number');
    expect(screen.getByTestId('lines.2.received-error').textContent).toBe('Received must be a whole number');
    expect(received(GLOVES.name).getAttribute('aria-invalid')).toBe('true');
    expect(api.writes()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of a line under that line, and closes when the order moved on meanwhile", async () => {
    fakeApi(
      routes({
        [`POST /api/supply-orders/${ORDER.id}/pickup`]: () => ({
          status: 400,
          json: {
            message: 'Validation failed',
            code: 'validation.failed',
            errors: [{ path: 'lines.2.receivedQuantity', message: 'Received must be at most 100,000' }],
          },
        }),
      }),
    );
    const { user, onClose } = openDialog();
    await user.click(screen.getByRole('button', { name: 'Confirm Pickup' }));
    expect((await screen.findByTestId('lines.2.received-error')).textContent).toBe('Received must be at most 100,000');
    expect(onClose).not.toHaveBeenCalled();

    fakeApi(
      routes({
        [`POST /api/supply-orders/${ORDER.id}/pickup`]: () => ({
          status: 409,
          json: { message: 'This record was changed by someone else. Reload to see their changes, then edit again.', code: 'record.stale' },
        }),
      }),
    );
    await user.clear(received(SWABS.name));
    await user.type(received(SWABS.name), '5');
    await user.click(screen.getByRole('button', { name: 'Confirm Pickup' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findByText('Failed to confirm the pickup')).toBeTruthy();
  });
});
