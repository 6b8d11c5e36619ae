import { LANDING_STATS } from './landing-content.ts';

export function StatsRow() {
  return (
    <section aria-labelledby="stats-heading" className="bg-primary text-white">
      <h2 id="stats-heading" className="sr-only">
        At a glance
      </h2>
      <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        {LANDING_STATS.map((stat) => (
          <div key={stat.label} className="flex flex-col-reverse items-center text-center">
            <dt className="mt-1 text-sm text-blue-100">{stat.label}</dt>
            <dd className="text-3xl font-bold">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
