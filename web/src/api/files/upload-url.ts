import { ZUploadURL } from '#domain/files';
import { apiRequest } from '../../lib/api-request.ts';

/** POST /api/objects/upload: a signed link to PUT one file to (spec section 7). */
export async function requestUploadUrl(): Promise<string> {
  const response = await apiRequest('POST', '/api/objects/upload');
  return ZUploadURL.parse(await response.json()).uploadURL;
}
