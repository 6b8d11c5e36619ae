import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Toaster } from '../../../web/src/components/ui/toaster.tsx';
import { createQueryClient } from '../../../web/src/lib/query-client.ts';

/**
 * Renders a piece of the web app as the signed-in app holds it: the app's own query client (no
 * retries, the logged-out handling), the toasts, and a router at `path` whose moves are recorded.
 */
export function renderApp(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const location = memoryLocation({ path, record: true });
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <Router hook={location.hook}>{ui}</Router>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...view, user, history: location.history };
}

/**
 * The toasts on screen. Radix also reads a new toast aloud through a hidden live region outside the
 * list for about a second, so a query over the whole screen finds its words once or twice by timing.
 * (`hidden`: an open modal dialog hides the rest of the page from the accessibility tree.)
 */
export const toasts = () => within(screen.getByRole('region', { name: /^Notifications/, hidden: true }));
