/**
 * The id of the signed-in layout's own scroller (the skip link's target): screens that load
 * more as it scrolls observe against it, since the window itself does not scroll.
 */
export const MAIN_CONTENT_ID = 'main-content';
