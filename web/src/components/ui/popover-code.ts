import { preloadable } from '../../lib/preloadable.ts';

/**
 * Radix's popover and its positioning library: about a tenth of the signed-in frame's code, so
 * it is not part of it (deferred-popover.tsx). Loaded ahead with the screens' code, once the
 * first screen has its data (screens.ts), or as soon as a trigger is pointed at or focused.
 */
export const popoverCode = preloadable(() => import('./popover.tsx'));
