import { Quote } from 'lucide-react';
import { TESTIMONIALS } from './landing-content.ts';

export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-heading" className="bg-slate-50">
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <h2 id="testimonials-heading" className="mb-12 text-center text-3xl font-bold tracking-tight text-slate-900">
          What clinic teams say
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((item) => (
            <li key={item.role} data-testid="testimonial">
              <figure className="flex h-full flex-col rounded-xl border bg-white p-6 shadow-sm">
                <Quote className="mb-4 size-6 text-primary" aria-hidden="true" />
                <blockquote className="flex-1 text-slate-800">“{item.quote}”</blockquote>
                <figcaption className="mt-6 text-sm">
                  <span className="block font-semibold text-slate-900">{item.role}</span>
                  <span className="text-slate-600">{item.clinic}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
