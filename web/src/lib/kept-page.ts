/** The attribute that hides a kept page (index.css). */
const KEPT = 'kept';

/**
 * Going Back to a signed-in screen is instant: the browser keeps the page it left (its
 * back/forward cache; the live socket closes as the page is left, so nothing stops it). But a page
 * kept as its user signed out (Logout leaves it that way) still holds the screen she had open:
 * shown on Back, her patient list would be in front of the next person at a shared computer. So
 * a page is hidden as the browser keeps it, and shown again on its return only once the server
 * says the same user is still signed in. Otherwise it is loaded afresh, which leads to the
 * sign-in page (docs/decisions/front-end-delivery.md). Returns what removes the listeners.
 */
export function hideWhileKept(userId: string): () => void {
  const root = document.documentElement;
  const onPageHide = (event: PageTransitionEvent) => {
    if (event.persisted) root.dataset[KEPT] = '';
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (!event.persisted) return;
    void stillSignedIn(userId).then((same) => {
      if (same) delete root.dataset[KEPT];
      else window.location.reload();
    });
  };
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  return () => {
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
  };
}

/**
 * Asks the server itself, not the page's session state, which keeps the user through a network
 * failure: here a failure must not show the page.
 */
async function stillSignedIn(userId: string): Promise<boolean> {
  try {
    const response = await fetch('/api/auth/user', { credentials: 'same-origin', cache: 'no-store' });
    return response.ok && ((await response.json()) as { id?: unknown }).id === userId;
  } catch {
    return false;
  }
}
