import type { ComponentProps, KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog.tsx';

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
