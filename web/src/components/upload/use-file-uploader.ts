import type { UppyFile } from '@uppy/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { FILE_TYPES, ALLOWED_TYPES, type TObjectPurpose } from '#domain/files';
import { describeApiError } from '../../lib/api-errors.ts';
import { toast, type TToastInput } from '../../lib/toast.ts';
import { confirmUpload, type TAttachment } from '../../api/files/confirm-upload.ts';
// Types only: Uppy itself loads with import() below.
import type { TBody, TMeta, TUppy } from './uppy-client.ts';

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

const PROCESS_FAILED = 'Failed to process uploaded files';
const LOAD_FAILED = 'The upload widget failed to load: check the connection and pick the files again.';

/** The extensions the widget offers for a purpose, from the types the server accepts. */
export const acceptedExtensions = (purpose: TObjectPurpose): string[] => ALLOWED_TYPES[purpose].flatMap((type) => [...FILE_TYPES[type]]);

function addTo(uppy: TUppy, file: File): void {
  try {
    uppy.addFile({ name: file.name, type: file.type, data: file, source: 'Local' });
  } catch {
    // Refused by a restriction: 'restriction-failed' has set the message.
  }
}

/**
 * What a finished upload says, in the spec's catalogue words (section 8): the note widget's
 * 'Upload Complete' with its count, the chat's 'File uploaded successfully'.
 */
const COMPLETE_TOAST: Record<TObjectPurpose, (done: number) => TToastInput> = {
  'patient-attachment': (done) => ({ title: 'Upload Complete', description: `${done} file(s) uploaded successfully`, variant: 'success' }),
  'chat-attachment': (done) => ({ title: 'File uploaded successfully', ...(done > 1 ? { description: `${done} files` } : {}), variant: 'success' }),
};

/**
 * The one upload widget's state (spec sections 5, 8 and 9), on Uppy: files go to the server's
 * signed links (multipart through the companion calls above 100 MB), each is then confirmed for
 * its purpose, and the widget reports Uppy's own messages for files it refuses. Cancel and retry
 * work per file.
 *
 * Uppy (uppy-client.ts) loads with import() when the hook mounts, so the form holding the widget
 * does not carry it; files picked before it is there wait for it (and hold the form's submit).
 */
export function useFileUploader({ purpose, maxFiles }: TUploaderOptions): TFileUploader {
  const [entries, setEntries] = useState<TUploadEntry[]>([]);
  const [notice, setNotice] = useState<string | null>(null);

  // One Uppy per hook (per purpose and limit), once its module has loaded.
  const key = `${purpose}/${maxFiles}`;
  const [loaded, setLoaded] = useState<{ key: string; uppy: TUppy } | null>(null);
  const uppy = loaded?.key === key ? loaded.uppy : null;
  const [loadAttempt, setLoadAttempt] = useState(0);
  const loadFailed = useRef(false);
  // Files picked before Uppy is there, added once it is.
  const pending = useRef<File[]>([]);
  const [queued, setQueued] = useState(0);

  const update = useCallback((id: string, change: Partial<TUploadEntry>) => {
    setEntries((list) => list.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
  }, []);

  useEffect(() => {
    if (!uppy) return;
    const confirming = new Map<string, Promise<boolean>>();
    const confirm = async (file: UppyFile<TMeta, TBody>, fileURL: string): Promise<boolean> => {
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
    };
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
      if (done > 0) toast(COMPLETE_TOAST[purpose](done));
    };
    uppy.on('file-added', onAdded);
    uppy.on('upload-progress', onProgress);
    uppy.on('upload-success', onSuccess);
    uppy.on('upload-error', onError);
    uppy.on('restriction-failed', onRestricted);
    uppy.on('complete', onComplete);
    // What was picked while Uppy loaded, now that its listeners are on.
    if (pending.current.length > 0) {
      const waiting = pending.current.splice(0);
      setQueued(0);
      for (const file of waiting) addTo(uppy, file);
    }
    return () => {
      uppy.off('file-added', onAdded);
      uppy.off('upload-progress', onProgress);
      uppy.off('upload-success', onSuccess);
      uppy.off('upload-error', onError);
      uppy.off('restriction-failed', onRestricted);
      uppy.off('complete', onComplete);
    };
  }, [uppy, purpose, update]);

  // Loads Uppy on mount; closing the form cancels what is still on its way, and an Uppy whose
  // module arrives after the form closed is never made.
  useEffect(() => {
    let mounted = true;
    let instance: TUppy | null = null;
    loadFailed.current = false;
    import('./uppy-client.ts').then(
      ({ createUppy }) => {
        if (!mounted) return;
        instance = createUppy({ maxFiles, allowedFileTypes: acceptedExtensions(purpose) });
        setLoaded({ key, uppy: instance });
      },
      () => {
        if (!mounted) return;
        // The next pick tries again.
        loadFailed.current = true;
        if (pending.current.length > 0) {
          pending.current = [];
          setQueued(0);
          setNotice(LOAD_FAILED);
        }
      },
    );
    return () => {
      mounted = false;
      if (instance) {
        instance.cancelAll();
        instance.destroy();
      }
    };
  }, [key, purpose, maxFiles, loadAttempt]);

  const addFiles = useCallback(
    (files: File[]) => {
      if (uppy) {
        for (const file of files) addTo(uppy, file);
        return;
      }
      pending.current.push(...files);
      setQueued(pending.current.length);
      if (loadFailed.current) {
        loadFailed.current = false;
        setLoadAttempt((attempt) => attempt + 1);
      }
    },
    [uppy],
  );

  const forget = useCallback(
    (id: string) => {
      if (uppy?.getFile(id)) uppy.removeFile(id);
      setEntries((list) => list.filter((entry) => entry.id !== id));
      // A refusal ('You can only upload 5 files') no longer holds once a file is gone (issue 29).
      setNotice(null);
    },
    [uppy],
  );

  const retry = useCallback(
    (id: string) => {
      if (!uppy?.getFile(id)) return;
      update(id, { status: 'uploading', progress: 0, error: null });
      void uppy.retryUpload(id);
    },
    [uppy, update],
  );

  const reset = useCallback(() => {
    uppy?.cancelAll();
    pending.current = [];
    setQueued(0);
    setEntries([]);
    setNotice(null);
  }, [uppy]);

  const attachments = entries.flatMap((entry) => (entry.attachment ? [entry.attachment] : []));
  const busy = queued > 0 || entries.some((entry) => entry.status === 'uploading' || entry.status === 'processing');
  return { entries, attachments, busy, notice, addFiles, cancel: forget, retry, remove: forget, reset };
}
