import type { Deps } from '../../deps.ts';
import { removeStaleObjects } from './uploads.service.ts';
import { removeStaleMultipartUploads } from './multipart.service.ts';

const BATCH = 200;

/** The periodic clean-up: abandoned large uploads' parts, then uploads nobody confirmed in a day. */
export async function removeStaleFiles(deps: Pick<Deps, 'db' | 'config' | 'files'>): Promise<{ objects: number; multipartUploads: number }> {
  const multipartUploads = await removeStaleMultipartUploads(deps, BATCH);
  return { multipartUploads, objects: await removeStaleObjects(deps) };
}
