import { type FaqItem, FaqList } from "../../components/marketing/faq-list";

const ITEMS: readonly FaqItem[] = [
  {
    question: "How are credits spent?",
    answer:
      "Each hosted model call costs credits according to the model's price and the tokens it uses. Before a call starts, Cohort reserves the most it could cost; when it finishes, you pay for what it actually used and the rest of the reservation is released.",
  },
  {
    question: "Can a run overspend my balance?",
    answer:
      "No. A call only starts once its reservation fits in your balance, and reservations are made one transaction at a time, so parallel agents can't spend the same credits twice. Your balance never goes below zero.",
  },
  {
    question: "Do calls on my own API key use credits?",
    answer:
      "No. Add an OpenAI, Anthropic or Google key in Settings and every call that runs on it is billed by that provider, not by Cohort.",
  },
  {
    question: "What does IN BETA mean for Starter?",
    answer:
      "Starter is open today. While it's in beta we're still tuning model limits and the queue, and we'll tell you by email before anything about your plan changes.",
  },
  {
    question: "When can I buy Pro or Pro+?",
    answer:
      "Both plans are marked Coming Soon and can't be bought yet. Start on Starter; you'll be able to upgrade from Billing the day they open, without losing your sessions.",
  },
  {
    question: "Can I cancel at any time?",
    answer:
      "Yes. Cancel from Billing and your plan stays active until the end of the month you've paid for. Your sessions stay readable after that.",
  },
];

export function PricingFaq() {
  return (
    <section aria-labelledby="pricing-faq-title">
      <h2 id="pricing-faq-title" className="text-2xl font-bold tracking-tight text-ink-950">
        Questions about plans and credits
      </h2>
      <div className="mt-8">
        <FaqList items={ITEMS} />
      </div>
    </section>
  );
}
