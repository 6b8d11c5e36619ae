import { z } from 'zod';

/**
 * The one table of errors: every refusal the API makes has a stable code, its HTTP status and a
 * default message. The server throws by code; the web branches on codes, never on bare statuses.
 * The contract fixes some texts exactly (outside checks compare them), so they are written here.
 */
export const ERRORS = {
  'auth.unauthenticated': { status: 401, message: 'Unauthorized' },
  'auth.forbidden': { status: 403, message: 'Forbidden' },
  /** The clinic requires a second factor of the user's role and her grace has passed: only enrolment is open. */
  'auth.secondFactorEnrolment': { status: 403, message: 'Your clinic requires a second factor. Set one up to continue.' },
  'signIn.invalidCredentials': { status: 401, message: 'Invalid email or password' },
  'signIn.deactivated': { status: 403, message: 'This account has been deactivated. Ask your clinic administrator to restore it.' },
  'signIn.throttled': { status: 429, message: 'Too many failed sign-in attempts. Try again later.' },
  // More requests in a minute than RATE_LIMIT_USER_PER_MINUTE (a user) or RATE_LIMIT_PUBLIC_PER_MINUTE (an address, signed out) allow (issue 36).
  'rate.limited': { status: 429, message: 'Too many requests. Wait a moment and try again.' },
  'signIn.expired': { status: 400, message: 'Sign-in expired; start again' },
  'signIn.providerFailed': { status: 400, message: 'Sign-in with the identity provider failed' },
  /** A second factor code (or passkey) that does not check, or a TOTP code already used. */
  'signIn.badCode': { status: 401, message: 'That code is not valid. Check it and try again.' },
  'signIn.noChallenge': { status: 401, message: 'Your sign-in has expired. Enter your password again.' },
  /** A sensitive action asked for a fresh second factor and the user has none to give. */
  'secondFactor.noneEnrolled': { status: 409, message: 'Set up a second factor of your own first (your profile menu → Security).' },
  /** Removing the last factor while the policy of the user's role requires one. */
  'secondFactor.lastRequired': { status: 409, message: 'Your clinic requires a second factor: add another before removing this one.' },
  'signIn.noAccount': { status: 403, message: 'No active account for this email. Ask your clinic administrator.' },
  'request.validation': { status: 400, message: 'Validation failed' },
  'request.malformedJson': { status: 400, message: 'Request body is not valid JSON' },
  'request.emptyJson': { status: 400, message: 'Request body is empty but declared as JSON' },
  'request.tooDeep': { status: 400, message: 'Request body is nested too deeply' },
  'request.invalid': { status: 400, message: 'Bad request' },
  'request.tooLarge': { status: 413, message: 'Request body is too large' },
  'request.unsupportedMediaType': { status: 415, message: 'Unsupported content type; send JSON' },
  'request.crossSite': { status: 403, message: 'Cross-site request refused' },
  'route.notFound': { status: 404, message: 'Not found' },
  /** A method the path does not serve (the FHIR API's writes): sent with Allow. */
  'route.methodNotAllowed': { status: 405, message: 'This method is not served here' },
  /** The client accepts no format the server answers in (the FHIR API answers JSON only). */
  'request.notAcceptable': { status: 406, message: 'This server answers in JSON only (application/fhir+json)' },
  'record.notFound': { status: 404, message: 'Not found' },
  /** A restricted patient outside the caller's care team (issue 33): she may ask for emergency access. */
  'record.restricted': { status: 403, message: "This patient's record is restricted to the care team. In an emergency, ask for emergency access." },
  'record.stale': { status: 409, message: 'This record was changed by someone else. Reload to see their changes, then edit again.' },
  'record.conflict': { status: 409, message: 'This conflicts with an existing record' },
  /** Break-glass reviews (issue 47, domain/restricted-records.ts breakGlassReviewHold). */
  'breakGlass.ownUse': { status: 403, message: 'Your own emergency access is reviewed by another admin.' },
  'breakGlass.running': { status: 409, message: 'This emergency access is still running: review it once it has ended.' },
  'patient.duplicate': { status: 409, message: 'A patient with the same name and date of birth already exists' },
  'workflow.illegalMove': { status: 409, message: 'This move is not allowed from the current status' },
  /** The body also lists each clash (domain/appointments.ts ZAppointmentConflictBody). */
  'appointment.conflict': { status: 409, message: 'This time overlaps another appointment of the same patient, room, nurse or scribe' },
  /** A visit's move outside its time (domain/visit-timing.ts); the message says when it may be made. */
  'appointment.notNow': { status: 409, message: 'This visit cannot be moved to that status at this time' },
  /** A use of more than is on hand (issue 31): the stock on record is wrong, and a count puts it right. */
  'supply.notEnoughStock': { status: 409, message: 'Not that many on hand. Record a count if the stock on record is wrong.' },
  /** Issue 52: only a user an admin granted prescribing rights signs; a controlled substance needs her DEA number and a fresh second factor. */
  'prescription.noRights': { status: 403, message: 'Only a prescriber with prescribing rights signs a prescription' },
  'prescription.noDea': { status: 403, message: 'A controlled substance is signed by a prescriber with a DEA number on her prescribing rights' },
  'prescription.proofRequired': { status: 403, message: 'A controlled substance is signed with a fresh second factor: give a code or use your passkey' },
  'upload.expired': { status: 403, message: 'Request has expired' },
  'upload.invalid': { status: 403, message: 'This upload link is not valid' },
  'upload.used': { status: 403, message: 'This upload link has already been used' },
  'upload.tooLarge': { status: 413, message: 'File exceeds maximum allowed size of 10 MB' },
  'upload.badType': { status: 400, message: 'Only JPG, PNG, PDF, DOC and DOCX files are accepted' },
  'upload.mismatch': { status: 400, message: 'The file does not match its name or size' },
  'upload.cannotSign': { status: 400, message: 'Cannot sign without a key, an uploadId, and a partNumber' },
  'upload.badParts': { status: 400, message: 'The parts listed are not the parts received' },
  'upload.closed': { status: 410, message: 'This upload is already complete or cancelled' },
  'upload.noCredentials': { status: 501, message: 'Temporary storage credentials are not offered: files are uploaded through this server' },
  /** Sent with Retry-After: the user stored UPLOAD_BYTES_PER_HOUR in the last hour (docs/decisions/files.md). */
  'quota.uploadBytes': { status: 429, message: 'Hourly upload limit reached. Try again later.' },
  /** MULTIPART_UPLOADS_PER_USER large uploads are still open: one must finish or be cancelled first. */
  'quota.multipartOpen': { status: 429, message: 'Too many large uploads in progress. Finish or cancel one before starting another.' },
  'user.emailTaken': { status: 409, message: 'An account with this email already exists' },
  'user.lastAdmin': { status: 409, message: 'The clinic must keep at least one active admin' },
  'user.self': { status: 409, message: 'You cannot deactivate your own account' },
  'user.notSetUp': { status: 409, message: 'This user has not set a password yet. Send them a new invite link instead.' },
  'chat.noPatientAccess': {
    status: 409,
    message: "This person's role cannot open patient records, so they cannot join a patient's chat room. An admin can allow it in Admin Panel → Settings.",
  },
  'user.demoAccount': { status: 409, message: 'Demo accounts stay deactivated outside demo mode: their password is published.' },
  'link.invalid': { status: 404, message: 'This link is not valid. Ask your administrator for a new one.' },
  'link.expired': { status: 410, message: 'This link has expired. Ask your administrator for a new one.' },
  'link.used': { status: 410, message: 'This link has already been used. Ask your administrator for a new one.' },
  'live.invalidMessage': { status: 400, message: 'Not a message this socket understands' },
  'live.notYourUser': { status: 403, message: 'This socket is signed in as another user' },
  'live.notYourRoom': { status: 403, message: 'You are not a member of this room' },
  /** Sent before the socket is closed with 1008: LIVE_SOCKETS_PER_SESSION or LIVE_SOCKETS_PER_USER are open already. */
  'live.tooManySockets': { status: 429, message: 'Too many live connections are open; close another tab or window' },
  /** Sent with Retry-After; the search was stopped, nothing was written. */
  'search.timeout': { status: 503, message: 'Search is taking too long right now. Try again in a moment, or type more of the name.' },
  /** Sent with Retry-After; the report's query was stopped (too long, or the client left), nothing was written. */
  'report.timeout': { status: 503, message: 'This report is taking too long right now. Try again in a moment, or choose fewer days.' },
  'audit.nothingSealed': { status: 409, message: 'No audit row is sealed yet, so there is no head to sign. Try again in a moment.' },
  /** The FHIR API's token endpoint (OAuth 2.0 client credentials): the body also carries OAuth's `error`. */
  'bulk.busy': { status: 429, message: 'An export you asked for is still running: wait for it (or cancel it) before asking for another' },
  'bulk.failed': { status: 500, message: 'The export could not be completed: ask for it again' },
  'oauth.invalidClient': { status: 401, message: 'Unknown client, wrong secret, or a revoked client' },
  'oauth.invalidRequest': {
    status: 400,
    message: 'Send grant_type=client_credentials with client_id and client_secret, or with a client_assertion signed by the client',
  },
  'oauth.invalidScope': { status: 400, message: 'A scope asked for is not one this client holds' },
  'oauth.unsupportedGrantType': { status: 400, message: 'This server issues tokens for grant_type=client_credentials only' },
  /** Accepting a client that an admin or its acting account has already revoked (issue 47). */
  'apiClient.revoked': { status: 409, message: 'This API client was revoked. Ask your administrator for a new one.' },
  /** A bearer token's scopes do not open this resource type. */
  'oauth.insufficientScope': { status: 403, message: "This client's scopes do not include this resource type" },
  // The app backs itself up only on the embedded engine with files on its own disk (issue 36).
  'backup.notHere': { status: 409, message: 'This server is backed up with the database’s and the bucket’s own tools' },
  'backup.notScheduled': { status: 409, message: 'No backup directory is set (BACKUP_DIR): there is nowhere to write a backup' },
  // The server could not write it (a full or missing disk): recorded, and the admins are told.
  'backup.failed': { status: 503, message: 'The backup failed' },
  'server.internal': { status: 500, message: 'Internal server error' },
  'server.unavailable': { status: 503, message: 'Database unavailable' },
  /** A transaction aborted for one running beside it (a deadlock), after its retries: nothing was saved. */
  'server.busy': { status: 503, message: 'The server was busy with a clashing change and saved nothing; try again' },
  /** The data directory's disk is full or cannot be written (issue 48): nothing is asked of the database until it can. */
  'server.storage': {
    status: 503,
    message: 'The server cannot save anything right now: its disk is full or cannot be written. Your administrator has been told.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type TErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as [TErrorCode, ...TErrorCode[]];

export const ZFieldError = z.object({ path: z.string(), message: z.string() });
export type TFieldError = z.infer<typeof ZFieldError>;

/**
 * The body of every error response: the contract's `{"message": "..."}`, the stable `code`,
 * and on a 400 one entry per field at fault.
 */
export const ZErrorBody = z.object({ message: z.string(), code: z.enum(ERROR_CODES), errors: z.array(ZFieldError).optional() });
export type TErrorBody = z.infer<typeof ZErrorBody>;

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The code of an error body, read defensively (a proxy may answer with anything). */
export function errorCodeOf(body: unknown): TErrorCode | null {
  const parsed = ZErrorBody.pick({ code: true }).safeParse(body);
  return parsed.success ? parsed.data.code : null;
}
