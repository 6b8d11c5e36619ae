/**
 * Links to a prescription from elsewhere (a notification, a chat message): kept apart from the
 * prescription schemas so the app's shell, which shows notifications everywhere, does not carry them.
 */

/** Where the Prescriptions screen opens one. */
export const prescriptionHref = (prescriptionId: string) => `/prescriptions?rx=${encodeURIComponent(prescriptionId)}`;

/** The notification types about a prescription: their entityId is the prescription's. */
export const PRESCRIPTION_NOTIFICATION_TYPES = ['prescription_to_sign'] as const;
