import { useLiveStatus } from '../live/live-provider.tsx';
import { cn } from '../lib/utils.ts';

/**
 * The live connection's dot: green while the socket is open, grey otherwise (spec section 2).
 * With `showText` a word beside it says the same, so colour is not the only sign.
 */
export function LiveStatusDot({ showText = false, className }: { showText?: boolean; className?: string }) {
  const live = useLiveStatus() === 'live';
  const label = live ? 'Live updates connected' : 'Live updates disconnected';
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-testid="live-status"
      data-state={live ? 'live' : 'offline'}
      className={cn('inline-flex items-center gap-1.5 text-xs font-medium text-slate-600', className)}
    >
      <span className={cn('size-2.5 shrink-0 rounded-full', live ? 'bg-green-600' : 'bg-slate-400')} />
      {showText && <span>{live ? 'Live' : 'Offline'}</span>}
    </span>
  );
}
