import { Slot } from '@radix-ui/react-slot';
import type { VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { buttonClass, buttonVariants } from './button-variants.ts';

export type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    /** Render the child element (e.g. an <a>) with button styling instead of a <button>. */
    asChild?: boolean;
  };

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return (
    <Component
      // A plain <button> inside a form would submit it; default to type=button unless asked.
      type={asChild ? type : (type ?? 'button')}
      className={buttonClass({ variant, size, className })}
      {...props}
    />
  );
}
