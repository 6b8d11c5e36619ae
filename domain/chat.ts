export const CHAT_MESSAGE_TYPES = [
  'message', 'note_update', 'appointment_update', 'lab_result',
  'prescription_update', 'supply_request', 'system_notification',
] as const;
export type TChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];
