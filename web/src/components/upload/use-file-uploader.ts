import AwsS3 from '@uppy/aws-s3';
import Uppy, { type UppyFile } from '@uppy/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { FILE_TYPES, MAX_UPLOAD_BYTES, MULTIPART_THRESHOLD_BYTES, ALLOWED_TYPES, type TObjectPurpose } from '#domain/files';
import { describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { confirmUpload, type TAttachment } from '../../api/files/confirm-upload.ts';
import { requestUploadUrl } from '../../api/files/upload-url.ts';

export type TUploadStatus = 'uploading' | 'processing' | 'done' | 'failed';

/** One file in the widget, as the user sees it. */
export interface TUploadEntry {
  id: string;
  name: string;
  size: number;
  type: string;
  /** 0 to 100. */
  progress: number;
  status: TUploadStatus;
  error: string | null;
  /** A failed send can be tried again; a file the server refused cannot. */
  retryable: boolean;
  attachment: TAttachment | null;
}

export interface TUploaderOptions {
  purpose: TObjectPurpose;
  /** Spec section 9: 5 for a note, 1 for a chat message. */
  maxFiles: number;
}

export interface TFileUploader {
  entries: TUploadEntry[];
  /** The files confirmed so far, in the order they were added: what the form sends. */
  attachments: TAttachment[];
  /** True while any file is uploading or being confirmed: the form's submit waits. */
  busy: boolean;
  /** The widget's last message (a restriction: too many, too large, a duplicate, a wrong type). */
  notice: string | null;
  addFiles(files: File[]): void;
  cancel(id: string): void;
  retry(id: string): void;
  remove(id: string): void;
  /** Empties the widget (after the form was sent). */
  reset(): void;
}

type TMeta = Record<string, never>;
type TBody = Record<string, never>;

const GET_URL_FAILED = 'Failed to get upload URL';
const PROCESS_FAILED = 'Failed to process uploaded files';

/** The extensions the widget offers for a purpose, from the types the server accepts. */
export const acceptedExtensions = (purpose: TObjectPurpose): string[] => ALLOWED_TYPES[purpose].flatMap((type) => [...FILE_TYPES[type]]);

/**
 * The one upload widget's state (spec sections 5, 8 and 9), on Uppy: files go to the server's
 * signed links (multipart through the companion calls above 100 MB), each is then confirmed for
 * its purpose, and the widget reports Uppy's own messages for files it refuses. Cancel and retry
 * work per file.
 */
export function useFileUploader({ purpose, maxFiles }: TUploaderOptions): TFileUploader {
  const [entries, setEntries] = useState<TUploadEntry[]>([]);
  const [notice, setNotice] = useState<string | null>(null);

  const uppy = useMemo(
    () =>
      new Uppy<TMeta, TBody>({
        autoProceed: true,
        restrictions: { maxNumberOfFiles: maxFiles, maxFileSize: MAX_UPLOAD_BYTES, allowedFileTypes: acceptedExtensions(purpose) },
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
      }),
    [purpose, maxFiles],
  );

  const update = useCallback((id: string, change: Partial<TUploadEntry>) => {
    setEntries((list) => list.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
  }, []);

  const confirm = useCallback(
    async (file: UppyFile<TMeta, TBody>, fileURL: string): Promise<boolean> => {
      update(file.id, { status: 'processing', progress: 100, error: null });
      const name = file.name ?? 'file';
      const size = file.size ?? 0;
      try {
        const objectPath = await confirmUpload(purpose, { fileURL, name, size });
        update(file.id, { status: 'done', attachment: { name, size, type: file.type, objectPath } });
        return true;
      } catch (error) {
        update(file.id, { status: 'failed', error: describeApiError(error).message, retryable: false });
        // The file went nowhere: it may be picked again.
        uppy.removeFile(file.id);
        return false;
      }
    },
    [purpose, update, uppy],
  );

  useEffect(() => {
    const confirming = new Map<string, Promise<boolean>>();
    const onAdded = (file: UppyFile<TMeta, TBody>) => {
      setNotice(null);
      setEntries((list) => [
        ...list.filter((entry) => entry.id !== file.id),
        {
          id: file.id,
          name: file.name ?? 'file',
          size: file.size ?? 0,
          type: file.type,
          progress: 0,
          status: 'uploading',
          error: null,
          retryable: false,
          attachment: null,
        },
      ]);
    };
    const onProgress = (file: UppyFile<TMeta, TBody> | undefined, progress: { bytesUploaded: number; bytesTotal: number | null }) => {
      if (!file || !progress.bytesTotal) return;
      // The bytes are sent; confirming is the last step, shown as processing.
      update(file.id, { progress: Math.min(99, Math.round((progress.bytesUploaded / progress.bytesTotal) * 100)) });
    };
    const onSuccess = (file: UppyFile<TMeta, TBody> | undefined, response: { uploadURL?: string }) => {
      if (!file || !response.uploadURL) return;
      confirming.set(file.id, confirm(file, response.uploadURL));
    };
    const onError = (file: UppyFile<TMeta, TBody> | undefined, error: { message?: string }) => {
      if (file) update(file.id, { status: 'failed', error: error.message || 'Upload failed', retryable: true });
    };
    const onRestricted = (_file: UppyFile<TMeta, TBody> | undefined, error: Error) => setNotice(error.message);
    const onComplete = async (result: { successful?: UppyFile<TMeta, TBody>[] }) => {
      const settled = await Promise.all((result.successful ?? []).map((file) => confirming.get(file.id) ?? Promise.resolve(false)));
      const done = settled.filter(Boolean).length;
      if (settled.length > done) toast({ title: 'Upload Error', description: PROCESS_FAILED, variant: 'destructive' });
      if (done > 0) toast({ title: 'Upload Complete', description: `${done} file(s) uploaded successfully`, variant: 'success' });
    };
    uppy.on('file-added', onAdded);
    uppy.on('upload-progress', onProgress);
    uppy.on('upload-success', onSuccess);
    uppy.on('upload-error', onError);
    uppy.on('restriction-failed', onRestricted);
    uppy.on('complete', onComplete);
    return () => {
      uppy.off('file-added', onAdded);
      uppy.off('upload-progress', onProgress);
      uppy.off('upload-success', onSuccess);
      uppy.off('upload-error', onError);
      uppy.off('restriction-failed', onRestricted);
      uppy.off('complete', onComplete);
    };
  }, [uppy, update, confirm]);

  // Closing the form cancels what is still on its way.
  useEffect(
    () => () => {
      uppy.cancelAll();
      uppy.destroy();
    },
    [uppy],
  );

  const addFiles = useCallback(
    (files: File[]) => {
      for (const file of files) {
        try {
          uppy.addFile({ name: file.name, type: file.type, data: file, source: 'Local' });
        } catch {
          // Refused by a restriction: 'restriction-failed' has set the message.
        }
      }
    },
    [uppy],
  );

  const forget = useCallback(
    (id: string) => {
      if (uppy.getFile(id)) uppy.removeFile(id);
      setEntries((list) => list.filter((entry) => entry.id !== id));
    },
    [uppy],
  );

  const retry = useCallback(
    (id: string) => {
      if (!uppy.getFile(id)) return;
      update(id, { status: 'uploading', progress: 0, error: null });
      void uppy.retryUpload(id);
    },
    [uppy, update],
  );

  const reset = useCallback(() => {
    uppy.cancelAll();
    setEntries([]);
    setNotice(null);
  }, [uppy]);

  const attachments = entries.flatMap((entry) => (entry.attachment ? [entry.attachment] : []));
  const busy = entries.some((entry) => entry.status === 'uploading' || entry.status === 'processing');
  return { entries, attachments, busy, notice, addFiles, cancel: forget, retry, remove: forget, reset };
}
