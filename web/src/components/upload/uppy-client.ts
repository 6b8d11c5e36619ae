import AwsS3 from '@uppy/aws-s3';
import Uppy from '@uppy/core';
import { MAX_UPLOAD_BYTES, MULTIPART_THRESHOLD_BYTES } from '#domain/files';
import { describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { requestUploadUrl } from '../../api/files/upload-url.ts';

export type TMeta = Record<string, never>;
export type TBody = Record<string, never>;
export type TUppy = Uppy<TMeta, TBody>;

const GET_URL_FAILED = 'Failed to get upload URL';

/**
 * The upload widget's Uppy (about 26 KB gzip with its S3 plugin), in a module of its own so that
 * useFileUploader loads it with import() when the widget mounts rather than with the form that
 * holds it (the lazy-part budget, tests/build/budgets.ts). Files go to the server's signed links,
 * multipart through the companion calls above MULTIPART_THRESHOLD_BYTES.
 */
export function createUppy(options: { maxFiles: number; allowedFileTypes: string[] }): TUppy {
  return new Uppy<TMeta, TBody>({
    autoProceed: true,
    restrictions: { maxNumberOfFiles: options.maxFiles, maxFileSize: MAX_UPLOAD_BYTES, allowedFileTypes: options.allowedFileTypes },
  }).use(AwsS3<TMeta, TBody>, {
    // The large-file companion calls (server/modules/files/multipart.routes.ts).
    endpoint: '/api/uploads',
    shouldUseMultipart: (file) => (file.size ?? 0) > MULTIPART_THRESHOLD_BYTES,
    // A single file goes to the link POST /api/objects/upload hands out, as spec section 7 says.
    async getUploadParameters(file) {
      let url: string;
      try {
        url = await requestUploadUrl();
      } catch (error) {
        toast({ title: 'Upload Error', description: GET_URL_FAILED, variant: 'destructive' });
        throw new Error(describeApiError(error).message || GET_URL_FAILED, { cause: error });
      }
      return { method: 'PUT', url, headers: { 'content-type': file.type || 'application/octet-stream' } };
    },
  });
}
