import { useState, useSyncExternalStore, type ButtonHTMLAttributes, type ComponentProps, type ReactNode } from 'react';
import type { PopoverContent } from './popover.tsx';
import { popoverCode } from './popover-code.ts';

const loadPopover = () => void popoverCode.load().catch(() => undefined);

type TTrigger = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'onFocus' | 'onBlur' | 'type'> & { 'data-testid'?: string; children: ReactNode };
type TContent = Omit<ComponentProps<typeof PopoverContent>, 'children'> & { 'data-testid'?: string };

/**
 * A popover of the frame (the bell, the profile menu) whose code loads after the screen rather
 * than with it (issue 56; popover-code.ts says when). Until then the trigger is a plain button
 * that looks and reads the same, and pressing it opens the panel as soon as the code is here. A
 * stand-in holding the keyboard's focus stays until it is pressed or left, so the code's arrival
 * never takes the focus away. `content` gets what closes the panel.
 */
export function DeferredPopover({ trigger, contentProps, content }: { trigger: TTrigger; contentProps: TContent; content: (close: () => void) => ReactNode }) {
  const code = useSyncExternalStore(popoverCode.subscribe, popoverCode.current);
  const [open, setOpen] = useState(false);
  const [standInFocused, setStandInFocused] = useState(false);

  if (!code || (standInFocused && !open)) {
    return (
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={false}
        data-state="closed"
        {...trigger}
        onPointerEnter={loadPopover}
        onFocus={() => {
          setStandInFocused(true);
          loadPopover();
        }}
        onBlur={() => setStandInFocused(false)}
        onClick={() => {
          setStandInFocused(false);
          setOpen(true);
          loadPopover();
        }}
      />
    );
  }
  const { Popover, PopoverTrigger, PopoverContent: Content } = code;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger {...trigger} />
      <Content {...contentProps}>{content(() => setOpen(false))}</Content>
    </Popover>
  );
}
