import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { TServerMessage } from '#domain/live-events';
import { createLiveConnection, liveUrl, type TLiveConnection, type TLiveStatus } from './live-connection.ts';
import {
  onLiveChartChanged,
  onLiveChatMessage,
  onLiveNotification,
  onLiveNotificationsResolved,
  onLivePrescriptionChanged,
  onLiveRoomChanged,
  onLiveSupplyChanged,
  refreshAfterGap,
} from './live-notifications.ts';
import { checkSession, signedInUserId } from '../lib/session.ts';

const LiveContext = createContext<TLiveConnection | null>(null);

/**
 * Holds the signed-in user's one live socket (spec section 4): opened when a user is known,
 * closed when the user goes away (this unmounts) or the page is left, and reopened if the page
 * comes back from the back-forward cache.
 */
export function LiveConnectionProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<TLiveConnection | null>(null);

  useEffect(() => {
    const live = createLiveConnection({
      userId,
      url: liveUrl(),
      checkSession: async () => {
        await checkSession();
        // Gone (null) lets the app's logged-out handling run; another user means another
        // provider, and this one is about to unmount.
        return signedInUserId() === userId;
      },
      onReopen: () => refreshAfterGap(queryClient),
    });
    const unsubscribe = live.subscribe((message) => {
      if (message.type === 'notification') onLiveNotification(queryClient, message);
      if (message.type === 'notifications_resolved') onLiveNotificationsResolved(queryClient);
      if (message.type === 'new_message') onLiveChatMessage(queryClient, message);
      if (message.type === 'room_changed') onLiveRoomChanged(queryClient, message);
      if (message.type === 'supply_changed') onLiveSupplyChanged(queryClient);
      if (message.type === 'chart_changed') onLiveChartChanged(queryClient, message);
      if (message.type === 'prescription_changed') onLivePrescriptionChanged(queryClient);
      // The missed events are no longer kept: the lists are read afresh instead.
      if (message.type === 'resync') refreshAfterGap(queryClient);
    });
    const onPageHide = () => live.stop();
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) live.start();
    };
    const onOnline = () => live.retryNow();
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    window.addEventListener('online', onOnline);
    live.start();
    setConnection(live);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('online', onOnline);
      unsubscribe();
      live.stop();
      setConnection(null);
    };
  }, [userId, queryClient]);

  return <LiveContext value={connection}>{children}</LiveContext>;
}

const noSubscription = () => () => {};

/** 'live' while the socket is open; 'offline' otherwise, and outside a provider. */
export function useLiveStatus(): TLiveStatus {
  const connection = use(LiveContext);
  return useSyncExternalStore(
    connection ? connection.subscribeStatus : noSubscription,
    () => connection?.getStatus() ?? 'offline',
    () => 'offline',
  );
}

/**
 * Calls `onMessage` for every live message while the calling component is mounted: the hook
 * point for the chat screen's `new_message`. Pass a stable function (useCallback).
 */
export function useLiveMessages(onMessage: (message: TServerMessage) => void): void {
  const connection = use(LiveContext);
  useEffect(() => connection?.subscribe(onMessage), [connection, onMessage]);
}
