import { ZErrorBody } from '#domain/errors';

/** Response schemas for the error statuses most routes can return; routes add their own (409, 429). */
export const errorResponses = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody } as const;
