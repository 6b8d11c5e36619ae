import { CircleCheck } from 'lucide-react';
import { PRODUCT_NAME } from '../../lib/brand.ts';
import { WHY_CHOOSE_US } from './landing-content.ts';

export function WhyChooseUs() {
  return (
    <section aria-labelledby="why-heading" className="bg-slate-900 text-white">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-20 sm:px-6 lg:grid-cols-3">
        <div>
          <h2 id="why-heading" className="text-3xl font-bold tracking-tight">
            Why choose {PRODUCT_NAME}?
          </h2>
          <p className="mt-4 text-slate-300">Designed with clinic staff for the realities of a busy practice: many hands, one patient record.</p>
        </div>
        <ul className="grid gap-6 sm:grid-cols-2 lg:col-span-2">
          {WHY_CHOOSE_US.map((point) => (
            <li key={point.title} className="flex gap-3">
              <CircleCheck className="mt-0.5 size-6 shrink-0 text-green-400" aria-hidden="true" />
              <div>
                <h3 className="font-semibold">{point.title}</h3>
                <p className="mt-1 text-sm text-slate-300">{point.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
