import { useEffect, type RefObject } from 'react';

/** The CSS property the toast viewport's top is read from (components/ui/toast.tsx). */
export const TOAST_TOP_PROPERTY = '--toast-top';

/**
 * Keeps toasts below the page's header: its bottom edge (under the demo banner, when there is
 * one) becomes where the toast viewport starts, measured again whenever the header or the window
 * changes size. A toast then never covers the bell, the user menu or Logout. Set through the
 * CSSOM, which the Content-Security-Policy allows (it forbids style attributes, not this).
 *
 * The first measure is the observer's own first report, which comes once the browser has laid
 * the page out: measuring while React mounts the layout forced that layout inside React's task
 * (issue 56: a tablet's longest task on every signed-in screen).
 */
export function useToastsBelow(header: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = header.current;
    if (!element) return;
    const root = document.documentElement;
    const place = () => {
      const top = `${Math.max(0, Math.ceil(element.getBoundingClientRect().bottom))}px`;
      // An unchanged value is not written again: every write makes the browser restyle the page.
      if (root.style.getPropertyValue(TOAST_TOP_PROPERTY) !== top) root.style.setProperty(TOAST_TOP_PROPERTY, top);
    };
    const observer = new ResizeObserver(place);
    observer.observe(element);
    // The banner above the header wraps to more lines on a narrower window, moving the header down.
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
      root.style.removeProperty(TOAST_TOP_PROPERTY);
    };
  }, [header]);
}
