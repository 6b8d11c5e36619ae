import { CalendarDays, CircleCheck, Clock } from 'lucide-react';
import { PRODUCT_NAME } from '../../lib/brand.ts';

const CLAIMS = ['30-day free trial', 'No setup fees', '5 user roles'];

export function HeroSection() {
  return (
    <section aria-labelledby="hero-heading" className="bg-gradient-to-b from-blue-50 to-white">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2">
        <div>
          <p className="mb-3 text-sm font-semibold uppercase tracking-wider text-primary">{PRODUCT_NAME}</p>
          <h1 id="hero-heading" className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
            Practice management and health records, in one place
          </h1>
          <p className="mt-6 max-w-xl text-lg text-slate-700">
            Schedule visits, document care and keep your whole team in step with real-time updates, built around the way clinics actually work.
          </p>
          <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2" aria-label="Trial terms">
            {CLAIMS.map((claim) => (
              <li key={claim} className="flex items-center gap-2 text-sm font-medium text-slate-800">
                <CircleCheck className="size-5 text-green-700" aria-hidden="true" />
                {claim}
              </li>
            ))}
          </ul>
        </div>
        <SchedulePreview />
      </div>
    </section>
  );
}

/** A decorative glimpse of the product; it carries no information, so it is hidden from screen readers. */
function SchedulePreview() {
  const rows = [
    { time: '9:00 AM', type: 'Consultation', room: 'Room 2', dot: 'bg-green-600' },
    { time: '9:30 AM', type: 'Follow-up', room: 'Room 1', dot: 'bg-yellow-500' },
    { time: '10:15 AM', type: 'Physical exam', room: 'Room 3', dot: 'bg-slate-400' },
  ];
  return (
    <div aria-hidden="true" className="mx-auto w-full max-w-md rounded-2xl border bg-white p-6 shadow-xl">
      <div className="mb-4 flex items-center gap-2 font-semibold text-slate-900">
        <CalendarDays className="size-5 text-primary" />
        Today's Schedule
      </div>
      <ul className="space-y-3">
        {rows.map((row) => (
          <li key={row.time} className="flex items-center gap-3 rounded-lg bg-slate-50 p-3">
            <span className={`size-2.5 rounded-full ${row.dot}`} />
            <div className="flex-1">
              <p className="text-sm font-medium text-slate-900">{row.type}</p>
              <p className="flex items-center gap-1 text-xs text-slate-600">
                <Clock className="size-3" /> {row.time}
              </p>
            </div>
            <span className="text-xs text-slate-600">{row.room}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
