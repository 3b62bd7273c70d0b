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
    question: "What do I get for free?",
    answer:
      "A new account starts on the Free plan: welcome credits once you confirm your email address, multi-agent sessions with every model, and your own API keys at no credit cost. Credit packs can be bought at any time; CoChat comes with Pro and above.",
  },
  {
    question: "What does IN BETA mean for Starter?",
    answer:
      "Starter is open today. While it's in beta its contents and price may still change; you'll be told by email before anything about your plan changes.",
  },
  {
    question: "Pro and Pro+ say Coming Soon. Can I have them?",
    answer:
      "They're in early access: once you've created an account and signed in, this page and Billing offer every plan through the same checkout, and CoChat unlocks as soon as the payment goes through.",
  },
  {
    question: "Can I cancel at any time?",
    answer:
      "Yes. Cancel from Billing (Manage subscription) and your plan stays active until the end of the period you've paid for. Your sessions stay readable after that.",
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
