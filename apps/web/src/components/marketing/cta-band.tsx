import { SIGN_UP_PATH } from "../../lib/site";
import { ButtonLink } from "../button";
import { Container } from "../container";

export interface CtaBandProps {
  title?: string;
  text?: string;
}

/** The closing call to action of public pages. */
export function CtaBand({
  title = "Put a whole team on your next task",
  text = "Start on Starter with 200 credits a month, bring your own keys when you want to, and watch every agent's cost as it works.",
}: CtaBandProps) {
  return (
    <section aria-labelledby="cta-title" className="py-16 sm:py-20">
      <Container>
        <div className="relative overflow-hidden rounded-3xl bg-ink-950 px-6 py-12 sm:px-12 sm:py-16">
          <div
            aria-hidden="true"
            className="absolute -top-24 -right-24 size-72 rounded-full bg-brand-600/40 blur-3xl"
          />
          <div className="relative max-w-2xl">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
              {title}
            </h2>
            <p className="mt-4 text-lg leading-8 text-ink-300">{text}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to={SIGN_UP_PATH} variant="inverse" size="lg">
                Get Started
              </ButtonLink>
              <ButtonLink
                to="/docs"
                size="lg"
                variant="ghost"
                className="text-white hover:bg-white/10 hover:text-white"
              >
                Read the docs
              </ButtonLink>
            </div>
          </div>
        </div>
      </Container>
    </section>
  );
}
