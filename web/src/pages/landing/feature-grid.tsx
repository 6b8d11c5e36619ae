import { LANDING_FEATURES } from './landing-content.ts';

export function FeatureGrid() {
  return (
    <section aria-labelledby="features-heading" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
      <div className="mx-auto mb-12 max-w-2xl text-center">
        <h2 id="features-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          Everything your clinic needs
        </h2>
        <p className="mt-4 text-slate-700">From the front desk to the exam room, the tools your team uses every day.</p>
      </div>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {LANDING_FEATURES.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-xl border bg-white p-6 shadow-sm" data-testid="feature-card">
            <span className="mb-4 flex size-11 items-center justify-center rounded-lg bg-blue-50 text-primary">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
            <p className="mt-2 text-sm text-slate-700">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
