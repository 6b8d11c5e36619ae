import { toast } from './toast.ts';

/**
 * Copies a value shown once (a link, a secret, recovery codes) and says so; where the browser
 * refuses (no permission, no secure context), says what to do instead.
 */
export async function copyWithToast(value: string, copied: string, otherwise: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    toast({ title: copied, variant: 'success' });
  } catch {
    toast({ title: 'Could not copy', description: otherwise, variant: 'destructive' });
  }
}
