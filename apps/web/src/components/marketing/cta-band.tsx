import { Container } from "../container";
import { GetStartedButtons } from "./get-started-buttons";

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
            <GetStartedButtons to="/docs" dark className="mt-8">
              Read the docs
            </GetStartedButtons>
          </div>
        </div>
      </Container>
    </section>
  );
}
