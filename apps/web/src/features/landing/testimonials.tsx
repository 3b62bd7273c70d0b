import { Container } from "../../components/container";
import { SectionHeading } from "../../components/marketing/section-heading";

const TESTIMONIALS = [
  {
    quote:
      "We used to run the same prompt through three chatbots and merge the answers by hand. Cohort does the merge for us, and the Critic catches the gaps we used to find in review.",
    name: "Priya Raman",
    role: "Staff Engineer, Fernhill Analytics",
    initials: "PR",
  },
  {
    quote:
      "Seeing cost per agent changed how my team writes prompts. When the Designer spends two credits and the Coder spends nine, you learn quickly where the budget goes.",
    name: "Marcus Oyelaran",
    role: "Head of Product, Tidewater Labs",
    initials: "MO",
  },
  {
    quote:
      "I run heavy work on my own Anthropic key and keep credits for everything else. Setting it up took a minute, and the way I work didn't change at all.",
    name: "Lena Hoffmann",
    role: "Founder, Quillmark Studio",
    initials: "LH",
  },
] as const;

export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-title" className="bg-ink-950 py-20 sm:py-24">
      <Container>
        <SectionHeading
          id="testimonials-title"
          eyebrow="From early teams"
          title="What people say after their first week"
          inverse
        />
        <ul className="mt-14 grid gap-6 lg:grid-cols-3">
          {TESTIMONIALS.map((item) => (
            <li key={item.name}>
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
                  <span>
                    <span className="block font-semibold text-white">{item.name}</span>
                    <span className="block text-sm text-ink-300">{item.role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
