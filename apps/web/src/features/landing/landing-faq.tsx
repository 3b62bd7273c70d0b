import { Link } from "react-router";
import { type FaqItem, FaqList } from "../../components/marketing/faq-list";
import { MarketingSection } from "../../components/marketing/marketing-section";
import { SectionHeading } from "../../components/marketing/section-heading";

const ITEMS: readonly FaqItem[] = [
  {
    question: "How is Cohort different from using one chatbot?",
    answer:
      "A chatbot gives you one model's first attempt. In Cohort a coordinator splits your task between a Strategist, a Coder, a Designer and a Critic, each on its own model; the Critic reviews the drafts and the coordinator combines them into one answer. You see the plan, every draft and what each agent cost.",
  },
  {
    question: "Which models can I use?",
    answer:
      "GPT, Claude and Gemini, plus the native Co* models: CoReason, CoDepth, CoQuick, CoLogic, CoChat and CoVision. Today every account can use every model; the plans differ in monthly credits and CoChat. You can pick the model behind each role or keep the defaults.",
  },
  {
    question: "What is a credit?",
    answer:
      "Credits pay for hosted model calls. Each call costs credits according to the model's price and the tokens it uses. Cohort reserves a call's maximum cost before it starts and refunds whatever it didn't use, so your balance never goes below zero.",
  },
  {
    question: "What happens when I run low?",
    answer:
      "Cohort warns you at 20 credits and again at 5. A call that can't be covered doesn't start, and nothing is charged for it. You can top up with a credit package at any time, or switch a role to your own API key.",
  },
  {
    question: "Can I use my own API keys?",
    answer:
      "Yes. Add an OpenAI, Anthropic or Google key in Settings. Calls on your key cost no credits; the provider bills you directly. Keys are encrypted at rest; after you save one, only its last four characters are shown.",
  },
  {
    question: "What is CoChat?",
    answer:
      "CoChat is a straightforward single-model chat with its own model list, for when you want a conversation rather than a team. It is unlimited on Pro, Pro+ and Enterprise, and locked on Free and Starter.",
  },
  {
    question: "Is my data used to train models?",
    answer: (
      <>
        Cohort does not train models on your prompts or outputs. Prompts go to the provider of the
        model that handles them, under that provider's API terms. The{" "}
        <Link to="/privacy" className="font-medium text-brand-700 underline underline-offset-2">
          privacy policy
        </Link>{" "}
        explains what we keep and for how long.
      </>
    ),
  },
  {
    question: "Why do Pro and Pro+ say Coming Soon?",
    answer:
      "They're in early access: once you have an account, you can subscribe to either from Billing or the pricing page, and CoChat unlocks at once. Memory and workspace saving, listed for Pro+, work today: approved facts carry into your next runs, and a session's setup can be saved as a template.",
  },
];

export function LandingFaq() {
  return (
    <MarketingSection id="faq-title" spacing="landing" width="prose">
      <SectionHeading id="faq-title" eyebrow="FAQ" title="Frequently asked questions" />
      <div className="mt-10">
        <FaqList items={ITEMS} />
      </div>
    </MarketingSection>
  );
}
