import { Siren } from 'lucide-react';
import type { TLabFlag } from '#domain/lab-flags';
import { LAB_PRIORITY_LABELS, LAB_STATUS_LABELS, type TLabOrder, type TLabPriority } from '#domain/labs';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/utils.ts';
import { FLAG_WORDS, flagTone, type TFlagTone } from './lab-format.ts';

/** STAT and Urgent stand out; routine stays quiet. The word is always written. */
const PRIORITY_STYLES: Record<TLabPriority, string> = {
  stat: 'border-transparent bg-red-700 text-white',
  urgent: 'border-amber-400 bg-amber-100 text-amber-950',
  routine: 'border-slate-300 bg-white text-slate-700',
};

export function LabPriorityBadge({ priority }: { priority: TLabPriority }) {
  return (
    <Badge data-testid="lab-priority" data-priority={priority} className={PRIORITY_STYLES[priority]}>
      {LAB_PRIORITY_LABELS[priority]}
      {priority !== 'routine' && <span className="sr-only"> priority</span>}
    </Badge>
  );
}

const STATUS_STYLES: Record<TLabOrder['status'], string> = {
  ordered: 'bg-slate-100 text-slate-800',
  pending: 'bg-blue-100 text-blue-800',
  received: 'bg-teal-100 text-teal-900',
  cancelled: 'bg-slate-200 text-slate-700 line-through decoration-slate-500',
};

export function LabStatusBadge({ status }: { status: TLabOrder['status'] }) {
  return (
    <Badge data-testid="lab-status" data-status={status} className={cn('border-transparent', STATUS_STYLES[status])}>
      {LAB_STATUS_LABELS[status]}
    </Badge>
  );
}

export const FLAG_STYLES: Record<TFlagTone, string> = {
  critical: 'border-transparent bg-red-700 text-white',
  abnormal: 'border-amber-400 bg-amber-100 text-amber-950',
  normal: 'border-green-200 bg-green-50 text-green-800',
};

/** A flag: its letters and its words, coloured (critical red, abnormal amber, normal green). */
export function LabFlagBadge({ flag, prefix, className }: { flag: TLabFlag; prefix?: string; className?: string }) {
  return (
    <Badge data-testid="lab-flag" data-flag={flag} className={cn(FLAG_STYLES[flagTone(flag)], className)}>
      {prefix && <span className="mr-1 font-medium">{prefix} </span>}
      <span className="font-bold">{flag}</span> <span className="ml-1 font-medium">{FLAG_WORDS[flag]}</span>
    </Badge>
  );
}

/** An open critical alert: someone must acknowledge it. */
export function CriticalAlertMark() {
  return (
    <span
      data-testid="critical-alert"
      className="inline-flex items-center gap-1 rounded-full border border-red-700 bg-red-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-red-800"
    >
      <Siren className="size-3.5" aria-hidden="true" />
      Critical alert open
    </span>
  );
}
