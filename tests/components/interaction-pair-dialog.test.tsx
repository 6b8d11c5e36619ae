import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TInteractionPair, TInteractionPairs } from '#domain/interaction-pairs';
import { InteractionPairsCard } from '../../web/src/pages/admin/interaction-pairs-card.tsx';
import { fakeApi } from './helpers/fake-api.ts';
import { renderApp } from './helpers/render.tsx';

// The clinic's interaction pairs under the Formulary tab, and their editor, driven as an admin
// drives them; only fetch is faked.

const SHIPPED: TInteractionPairs['shipped'] = [
  {
    nameA: 'warfarin',
    ingredientsA: ['warfarin'],
    nameB: 'NSAIDs',
    ingredientsB: ['ibuprofen', 'naproxen'],
    severity: 'moderate',
    effect: 'Bleeding, gastrointestinal above all.',
    source: 'clinic',
  },
];
const PAIR: TInteractionPair = {
  id: '00000000-0000-4000-8000-0000000000d1',
  nameA: 'SSRIs',
  ingredientsA: ['sertraline', 'fluoxetine'],
  nameB: 'Tramadol',
  ingredientsB: ['tramadol'],
  severity: 'high',
  effect: 'Serotonin syndrome',
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};
const side = (key: 'A' | 'B') => within(screen.getByRole('group', { name: `Side ${key}` }));

describe("the clinic's interaction pairs", () => {
  it('are added from the dialog: the ingredients typed as a list, and an ingredient the formulary lacks shown under its line', async () => {
    const api = fakeApi({
      'GET /api/admin/interaction-pairs': () => ({ status: 200, json: { shipped: SHIPPED, clinic: [] } }),
      'POST /api/admin/interaction-pairs': () => ({
        status: 400,
        json: {
          message: 'Validation failed',
          code: 'request.validation',
          errors: [{ path: 'ingredientsA.1', message: "'fluoxetin' is not an ingredient of the formulary" }],
        },
      }),
    });
    const { user } = renderApp(<InteractionPairsCard />);
    expect(await screen.findByTestId('interaction-pairs-empty')).toBeTruthy();
    expect(within(screen.getByTestId('shipped-pairs')).getByText('warfarin with NSAIDs')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add Pair' }));
    await screen.findByTestId('interaction-pair-dialog');
    await user.type(side('A').getByLabelText(/^Name/), 'SSRIs');
    await user.type(side('A').getByLabelText(/^Ingredients/), 'Sertraline,  fluoxetin, ');
    await user.type(side('B').getByLabelText(/^Name/), 'Tramadol');
    await user.type(side('B').getByLabelText(/^Ingredients/), 'tramadol');
    await user.selectOptions(screen.getByLabelText(/^Severity/), 'high');
    await user.type(screen.getByLabelText(/^Effect/), 'Serotonin syndrome');
    await user.click(screen.getByRole('button', { name: 'Add Pair' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({
      method: 'POST',
      body: {
        nameA: 'SSRIs',
        ingredientsA: ['sertraline', 'fluoxetin'],
        nameB: 'Tramadol',
        ingredientsB: ['tramadol'],
        severity: 'high',
        effect: 'Serotonin syndrome',
        isActive: true,
      },
    });
    expect((await screen.findByTestId('ingredientsA-error')).textContent).toBe("'fluoxetin' is not an ingredient of the formulary");
    expect(
      side('A')
        .getByLabelText(/^Ingredients/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
  });

  it("checks the domain's rules before sending anything", async () => {
    const api = fakeApi({ 'GET /api/admin/interaction-pairs': () => ({ status: 200, json: { shipped: SHIPPED, clinic: [] } }) });
    const { user } = renderApp(<InteractionPairsCard />);
    await user.click(await screen.findByRole('button', { name: 'Add Pair' }));
    await screen.findByTestId('interaction-pair-dialog');
    await user.type(side('A').getByLabelText(/^Ingredients/), ' , ');
    await user.click(within(screen.getByTestId('interaction-pair-dialog')).getByRole('button', { name: 'Add Pair' }));

    expect((await screen.findByTestId('nameA-error')).textContent).toBe('Name is required');
    expect(screen.getByTestId('ingredientsA-error').textContent).toBe('Name at least one ingredient');
    expect(screen.getByTestId('severity-error').textContent).toBe('Severity is high or moderate');
    expect(screen.getByTestId('effect-error').textContent).toBe('Effect is required');
    expect(api.writes()).toEqual([]);
  });

  it('edits a pair with the version read, says so when someone else saved first, and retires one from the list', async () => {
    const api = fakeApi({
      'GET /api/admin/interaction-pairs': () => ({ status: 200, json: { shipped: SHIPPED, clinic: [PAIR] } }),
      [`PUT /api/admin/interaction-pairs/${PAIR.id}`]: (request) =>
        (request.body as { isActive: boolean }).isActive === false && !('effect' in (request.body as object))
          ? { status: 200, json: { ...PAIR, isActive: false, updatedAt: '2026-01-03T00:00:00.000Z' } }
          : { status: 409, json: { message: 'This record was changed by someone else.', code: 'record.stale' } },
    });
    const { user } = renderApp(<InteractionPairsCard />);
    const row = await screen.findByTestId('interaction-pair-row');
    expect(within(row).getByText('SSRIs with Tramadol', { selector: 'span.font-semibold' })).toBeTruthy();
    expect(within(row).getByText('High: a reason to sign')).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: /^Edit/ }));
    await screen.findByTestId('interaction-pair-dialog');
    expect((side('A').getByLabelText(/^Ingredients/) as HTMLInputElement).value).toBe('sertraline, fluoxetine');
    await user.selectOptions(screen.getByLabelText(/^Severity/), 'moderate');
    await user.click(screen.getByRole('button', { name: 'Save Pair' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({
      nameA: 'SSRIs',
      ingredientsA: ['sertraline', 'fluoxetine'],
      nameB: 'Tramadol',
      ingredientsB: ['tramadol'],
      severity: 'moderate',
      effect: 'Serotonin syndrome',
      isActive: true,
      updatedAt: PAIR.updatedAt,
    });
    expect(await screen.findByTestId('interaction-pair-stale')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save Pair' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('interaction-pair-dialog')).toBeNull());

    await user.click(within(await screen.findByTestId('interaction-pair-row')).getByRole('button', { name: /^Retire/ }));
    await waitFor(() => expect(api.writes()).toHaveLength(2));
    expect(api.writes()[1]).toMatchObject({
      method: 'PUT',
      path: `/api/admin/interaction-pairs/${PAIR.id}`,
      body: { isActive: false, updatedAt: PAIR.updatedAt },
    });
  });
});
