import type { ComponentProps, KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { Button } from './button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

/** Escape in an open list of matches (a combobox) closes that list, not the whole form. */
function keepFormOnComboboxEscape(event: KeyboardEvent | ReactKeyboardEvent) {
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (target?.getAttribute('role') === 'combobox' && target.getAttribute('aria-expanded') === 'true') event.preventDefault();
}

export interface TFormDialogProps {
  /** Defaults to open: a dialog its parent mounts only while it is wanted. */
  open?: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
  /** The content's width and such (`max-w-2xl`). */
  className?: string;
  testId?: string;
  headerClassName?: string;
  /**
   * A click beside the dialog closes it. Off by default: a stray click must not throw away what
   * was typed; Escape, the close button and 'Cancel' still close it.
   */
  closeOnOutsideClick?: boolean;
  children: ReactNode;
}

/** The shell of every form dialog: its title and description, and the rules above for closing. */
export function FormDialog({
  open = true,
  onClose,
  title,
  description,
  className,
  testId,
  headerClassName = 'pr-6',
  closeOnOutsideClick = false,
  children,
}: TFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        className={className}
        data-testid={testId}
        onInteractOutside={closeOnOutsideClick ? undefined : (event) => event.preventDefault()}
        onEscapeKeyDown={keepFormOnComboboxEscape}
      >
        <DialogHeader className={headerClassName}>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** A long form's buttons, kept in view at the foot of the scrolling dialog, so saving never needs a scroll. */
export function StickyDialogFooter({ className, ...props }: ComponentProps<typeof DialogFooter>) {
  return <DialogFooter className={cn('sticky -bottom-6 z-10 -mx-6 -mb-6 flex-row justify-end border-t bg-background px-6 py-4', className)} {...props} />;
}

/**
 * A form's buttons: Cancel, and its submit, with a spinner and 'Saving…' while it saves. `blocked`
 * holds the submit back (a stale read waiting to be reloaded).
 */
export function FormDialogFooter({
  saving,
  blocked = false,
  submitLabel,
  onCancel,
}: {
  saving: boolean;
  blocked?: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <StickyDialogFooter>
      <Button variant="outline" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" disabled={saving || blocked}>
        {saving && <Spinner className="size-4 text-white" />}
        {saving ? 'Saving…' : submitLabel}
      </Button>
    </StickyDialogFooter>
  );
}

/** A catalogue entry's 'still offered' box: unticked, it is retired (kept for the records that name it, offered no more). */
export function ActiveCheckbox({ id, label, hint, ...input }: { id: string; label: string; hint: string } & ComponentProps<'input'>) {
  return (
    <label className="flex items-start gap-2 text-sm" htmlFor={id}>
      <input id={id} type="checkbox" className="mt-0.5 size-4 shrink-0 accent-blue-700" {...input} />
      <span>
        <span className="font-medium">{label}</span>
        <span className="block text-xs text-slate-600">{hint}</span>
      </span>
    </label>
  );
}
