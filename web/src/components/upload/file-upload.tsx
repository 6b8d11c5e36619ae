import { FileText, Paperclip, RotateCcw, X } from 'lucide-react';
import { useId, useRef } from 'react';
import { Button } from '../ui/button.tsx';
import { sizeInKb } from '../../lib/file-size.ts';
import { cn } from '../../lib/utils.ts';
import { acceptedExtensions, type TFileUploader, type TUploadEntry } from './use-file-uploader.ts';
import type { TObjectPurpose } from '#domain/files';

const STATUS_TEXT: Record<TUploadEntry['status'], (entry: TUploadEntry) => string> = {
  uploading: (entry) => `Uploading ${entry.progress}%`,
  processing: () => 'Processing...',
  done: () => 'Uploaded',
  failed: (entry) => entry.error ?? 'Upload failed',
};

export interface TFileUploadProps {
  uploader: TFileUploader;
  purpose: TObjectPurpose;
  /** The line under the button, e.g. 'Supports: JPG, PNG, PDF, DOC (Max 10MB each)'. */
  hint?: string;
  label?: string;
  multiple?: boolean;
  disabled?: boolean;
}

/**
 * The one upload widget (notes and chat): a button that opens the file picker, the widget's
 * message when it refuses a file, and each file with its progress, then Cancel, Retry or Remove.
 * The state lives in useFileUploader, so the form reads its attachments and busy flag.
 */
export function FileUpload({ uploader, purpose, hint, label = 'Attach files', multiple = true, disabled }: TFileUploadProps) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  return (
    <div className="space-y-2" data-testid="file-upload">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" size="sm" disabled={disabled} onClick={() => input.current?.click()} aria-describedby={hint ? hintId : undefined}>
          <Paperclip aria-hidden="true" className="size-4" />
          {label}
        </Button>
        {hint && (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )}
        <input
          ref={input}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="file-upload-input"
          multiple={multiple}
          accept={acceptedExtensions(purpose).join(',')}
          onChange={(event) => {
            uploader.addFiles([...(event.target.files ?? [])]);
            // The same file may be picked again after a removal.
            event.target.value = '';
          }}
        />
      </div>
      {uploader.notice && (
        <p role="alert" data-testid="file-upload-notice" className="text-sm text-red-700">
          {uploader.notice}
        </p>
      )}
      {uploader.entries.length > 0 && (
        <ul className="space-y-2" aria-label="Attachments">
          {uploader.entries.map((entry) => (
            <UploadRow key={entry.id} entry={entry} uploader={uploader} />
          ))}
        </ul>
      )}
    </div>
  );
}

function UploadRow({ entry, uploader }: { entry: TUploadEntry; uploader: TFileUploader }) {
  const failed = entry.status === 'failed';
  const moving = entry.status === 'uploading' || entry.status === 'processing';
  return (
    <li data-testid="file-upload-entry" data-status={entry.status} className={cn('rounded-md border p-2 text-sm', failed && 'border-red-300 bg-red-50')}>
      <div className="flex items-center gap-2">
        <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
        <span className="min-w-0 flex-1 truncate font-medium" title={entry.name}>
          {entry.name}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground">{sizeInKb(entry.size)}</span>
        {failed && entry.retryable && (
          <Button variant="ghost" size="sm" onClick={() => uploader.retry(entry.id)} aria-label={`Retry ${entry.name}`}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Retry
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          onClick={() => (moving ? uploader.cancel(entry.id) : uploader.remove(entry.id))}
          aria-label={`${moving ? 'Cancel' : 'Remove'} ${entry.name}`}
        >
          <X aria-hidden="true" className="size-4" />
          <span className="sr-only sm:not-sr-only">{moving ? 'Cancel' : 'Remove'}</span>
        </Button>
      </div>
      {moving && (
        <div
          role="progressbar"
          aria-label={`${entry.name} upload progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={entry.progress}
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary transition-[width]" style={{ width: `${entry.progress}%` }} />
        </div>
      )}
      <p className={cn('mt-1 text-xs', failed ? 'text-red-700' : 'text-muted-foreground')} data-testid="file-upload-status">
        {STATUS_TEXT[entry.status](entry)}
      </p>
    </li>
  );
}
