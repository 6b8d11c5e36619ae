import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '../../lib/utils.ts';

// Apart from the Button component so that a page styling a plain link as a button (the landing
// page) does not load the component's Slot with it.
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground hover:bg-primary-hover',
        destructive: 'bg-destructive text-destructive-foreground hover:bg-red-800',
        outline: 'border border-input bg-background hover:bg-muted',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-slate-200',
        ghost: 'hover:bg-muted',
        link: 'text-primary underline-offset-4 hover:underline',
        inverse: 'bg-white text-primary hover:bg-blue-50',
        'outline-inverse': 'border border-white text-white hover:bg-white/10',
      },
      size: { default: 'h-10 px-4 py-2', sm: 'h-9 px-3', lg: 'h-11 px-6 text-base', icon: 'size-10' },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

/**
 * A button's classes for an element that is not a Button: a plain link on the landing page,
 * which then needs no Slot (the first page a visitor loads stays light).
 */
export function buttonClass({ variant, size, className }: VariantProps<typeof buttonVariants> & { className?: string }): string {
  return cn(buttonVariants({ variant, size }), className);
}
