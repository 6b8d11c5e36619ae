import { CallToAction } from './call-to-action.tsx';
import { FeatureGrid } from './feature-grid.tsx';
import { HeroSection } from './hero-section.tsx';
import { LandingFooter } from './landing-footer.tsx';
import { LandingHeader } from './landing-header.tsx';
import { StatsRow } from './stats-row.tsx';
import { Testimonials } from './testimonials.tsx';
import { WhyChooseUs } from './why-choose-us.tsx';

/** What visitors who are not signed in see at '/' (spec section 2). */
export function LandingPage() {
  return (
    <div className="min-h-full bg-white">
      <LandingHeader />
      <main>
        <HeroSection />
        <StatsRow />
        <FeatureGrid />
        <WhyChooseUs />
        <Testimonials />
        <CallToAction />
      </main>
      <LandingFooter />
    </div>
  );
}
