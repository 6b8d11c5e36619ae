import { Activity, CalendarDays, FileText, Lock, MessageSquare, ShieldCheck, type LucideIcon } from 'lucide-react';

/*
 * Marketing copy for the landing page. The spec fixes the claims (HIPAA compliance, real-time
 * updates, smart notes, scheduling with staff assignment and conflict detection, role-based
 * access, team chat, 30-day free trial, no setup fees, 5 user roles) and leaves statistics
 * and testimonials open; those below are neutral placeholders (docs/decisions/web-shell.md).
 */

export const LANDING_STATS: { value: string; label: string }[] = [
  { value: '5', label: 'User roles' },
  { value: '30-day', label: 'Free trial' },
  { value: '$0', label: 'Setup fees' },
  { value: 'Live', label: 'Real-time updates' },
];

export const LANDING_FEATURES: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: ShieldCheck,
    title: 'HIPAA Compliant',
    text: 'Patient data stays private: encrypted sessions, audit trails and access limited to what each role needs.',
  },
  { icon: Activity, title: 'Real-time Updates', text: 'Check-ins, notes and messages reach the whole care team the moment they happen.' },
  {
    icon: FileText,
    title: 'Smart Patient Notes',
    text: 'Nurses draft, scribes review and administrators finalize, with every note’s status visible at a glance.',
  },
  { icon: CalendarDays, title: 'Appointment Scheduling', text: 'Book visits, assign nurses and scribes, and catch double bookings before they happen.' },
  { icon: Lock, title: 'Role-Based Access', text: 'Admins, schedulers, nurses, scribes and suppliers each see exactly the tools their work requires.' },
  { icon: MessageSquare, title: 'HIPAA-Compliant Team Chat', text: 'Secure patient-specific communication channels for healthcare teams.' },
];

export const WHY_CHOOSE_US: { title: string; text: string }[] = [
  { title: 'Built for the whole care team', text: 'One workspace for front desk, clinical staff, scribes and suppliers.' },
  { title: 'Less time on paperwork', text: 'A clear note review flow means fewer notes lost between draft and sign-off.' },
  { title: 'Up and running quickly', text: 'No setup fees and a 30-day free trial with a ready-made demo clinic.' },
  { title: 'Your data, protected', text: 'Access follows each person’s role, and every sign-in is checked on the server.' },
];

export const TESTIMONIALS: { quote: string; role: string; clinic: string }[] = [
  {
    quote: 'Our morning huddle now takes five minutes. Everyone can see the day’s schedule and who is assigned to each visit.',
    role: 'Practice manager',
    clinic: 'Family medicine clinic',
  },
  {
    quote: 'Notes move from draft to review to final without the email chains we used to rely on.',
    role: 'Registered nurse',
    clinic: 'Outpatient care centre',
  },
  {
    quote: 'Patient-specific chat rooms keep conversations about a patient in one place, instead of scattered across phones.',
    role: 'Medical director',
    clinic: 'Community health practice',
  },
];
