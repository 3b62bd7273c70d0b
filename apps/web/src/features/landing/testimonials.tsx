import { MarketingSection } from "../../components/marketing/marketing-section";
import { SectionHeading } from "../../components/marketing/section-heading";

/**
 * The route table asks for three testimonials. Cohort has no published customer quotes yet, so these
 * are illustrative: written by the team, each about something the product really does, and
 * said to be so on the page — never a made-up person or company (decision 030).
 */
const TESTIMONIALS = [
  {
    quote:
      "I used to ask three chatbots the same question and merge the answers by hand. In Cohort the coordinator splits the task, the Critic reviews the drafts, and I get one combined answer.",
    role: "An engineer comparing models",
    initials: "EN",
  },
  {
    quote:
      "Seeing what each agent cost, while it works, shows me where the credits go. A call that can't be covered doesn't start, so the balance never surprises me.",
    role: "A product lead on a budget",
    initials: "PL",
  },
  {
    quote:
      "I added my own Anthropic key in Settings. Calls on it cost no credits, and the hosted keys cover the other models in the same session.",
    role: "A founder with their own keys",
    initials: "FO",
  },
] as const;

export function Testimonials() {
  return (
    <MarketingSection id="testimonials-title" tone="dark" spacing="landing">
      <SectionHeading
        id="testimonials-title"
        eyebrow="In practice"
        title="What working with a team of models is like"
        lead="Illustrative quotes written by the Cohort team, each describing something the product does today. They are not endorsements by named customers."
        inverse
      />
      <ul className="mt-14 grid gap-6 lg:grid-cols-3">
        {TESTIMONIALS.map((item) => (
          <li key={item.role}>
            <figure
              data-testid="testimonial"
              className="flex h-full flex-col rounded-2xl border border-white/10 bg-white/5 p-6"
            >
              <blockquote className="flex-1 text-base leading-7 text-ink-100">
                <p>“{item.quote}”</p>
              </blockquote>
              <figcaption className="mt-6 flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className="flex size-10 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white"
                >
                  {item.initials}
                </span>
                <span className="block font-semibold text-white">{item.role}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </MarketingSection>
  );
}
