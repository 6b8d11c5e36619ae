import type { QueryClient } from '@tanstack/react-query';
import type { TServerMessage } from '#domain/live-events';
import { invalidateOpenCharts, invalidatePatientChart } from '../api/chart/chart.ts';
import { invalidateChatMembers } from '../api/chat/chat-members.ts';
import { invalidateChatRoom } from '../api/chat/messages.ts';
import { invalidateAllChat, invalidateChatRooms } from '../api/chat/rooms.ts';
import { invalidateDashboardStats } from '../api/dashboard/dashboard-stats.ts';
import { invalidateLabOrders } from '../api/labs/lab-orders.ts';
import { invalidateNotifications } from '../api/notifications/notifications.ts';
import { invalidatePrescriptions } from '../api/prescriptions/prescription-keys.ts';
import { invalidateBreakGlassQueue } from '../api/restricted/break-glass-queue.ts';
import { invalidateSupplies } from '../api/supplies/supply-keys.ts';
import { toast } from '../lib/toast.ts';

/** Spec section 4: the toast's texts when the server sends none. */
export const LIVE_NOTIFICATION_DEFAULTS = { title: 'New Notification', message: 'You have a new notification' } as const;

type TLiveNotification = Extract<TServerMessage, { type: 'notification' }>;

/**
 * A notification arrived: the bell, the dashboard panel and the figures re-read, and a list the
 * notice is about (an emergency access for an admin's review queue; only a list on screen is
 * read again); a toast says so.
 */
export function onLiveNotification(client: QueryClient, message: TLiveNotification): void {
  void invalidateNotifications(client);
  void invalidateDashboardStats(client);
  void invalidateBreakGlassQueue(client);
  toast({ title: message.title?.trim() || LIVE_NOTIFICATION_DEFAULTS.title, description: message.message?.trim() || LIVE_NOTIFICATION_DEFAULTS.message });
}

/** Some of the user's notifications were resolved by someone's action: the bell and the panel drop them, quietly. */
export function onLiveNotificationsResolved(client: QueryClient): void {
  void invalidateNotifications(client);
  void invalidateDashboardStats(client);
}

type TLiveChatMessage = Extract<TServerMessage, { type: 'new_message' }>;

/**
 * A message in one of the user's rooms was posted, edited, deleted or reacted to: that room's
 * history, the room list and the Team Chat badge are read again, on whatever screen is open.
 */
export function onLiveChatMessage(client: QueryClient, message: TLiveChatMessage): void {
  void invalidateChatRoom(client, message.roomId);
}

/**
 * A supply order or the stock changed (supply_changed, ids only): the supply lists, the open
 * order and the dashboard's supply figures are read again, on whatever screen is open, so a
 * supplier sees a new order and a nurse its pickup without a reload.
 */
export function onLiveSupplyChanged(client: QueryClient): void {
  void invalidateSupplies(client);
  void invalidateOpenCharts(client);
}

/** chart_changed (issue 51): her chart, record and banner are read again wherever they are open. */
export function onLiveChartChanged(client: QueryClient, message: Extract<TServerMessage, { type: 'chart_changed' }>): void {
  void invalidatePatientChart(client, message.patientId);
}

/** prescription_changed (issue 52): the lists and any open prescription, on the Prescriptions screen and under a chart's medications, are read again. */
export function onLivePrescriptionChanged(client: QueryClient): void {
  void invalidatePrescriptions(client);
}

type TLiveRoomChange = Extract<TServerMessage, { type: 'room_changed' }>;

/** A room's members changed: the room list (counts, rooms joined or left) and its member list. */
export function onLiveRoomChanged(client: QueryClient, message: TLiveRoomChange): void {
  void invalidateChatRooms(client);
  void invalidateChatMembers(client, message.roomId);
}

/**
 * After a reconnect: the server replays what it still holds since the last event seen, but a
 * page that had seen none yet, or a gap longer than the server keeps, is only covered by
 * reading the lists again.
 */
export function refreshAfterGap(client: QueryClient): void {
  void invalidateNotifications(client);
  void invalidateDashboardStats(client);
  void invalidateAllChat(client);
  void invalidateLabOrders(client);
  void invalidatePrescriptions(client);
  void invalidateSupplies(client);
  void invalidateOpenCharts(client);
}
