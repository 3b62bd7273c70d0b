import { Link } from "react-router";
import { Container } from "../../components/container";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { SITE } from "../../lib/site";

const CHANNELS = [
  {
    title: "Product support",
    text: "Problems with sessions, runs, credits or your account. Include the request id from any error message if you have one.",
    email: SITE.emails.support,
    response: "We reply within one business day.",
  },
  {
    title: "Sales and Enterprise",
    text: "The Enterprise plan, larger credit allowances, invoicing and security reviews.",
    email: SITE.emails.sales,
    response: "We reply within one business day.",
  },
  {
    title: "Privacy and data requests",
    text: "Access, correction, export or deletion of your personal data.",
    email: SITE.emails.privacy,
    response: "We answer every request within 30 days.",
  },
  {
    title: "Security",
    text: "Report a vulnerability. Please give us a reasonable time to fix it before you disclose it.",
    email: SITE.emails.security,
    response: "We acknowledge reports within two business days.",
  },
  {
    title: "Press",
    text: "Interviews, product information and brand assets.",
    email: SITE.emails.press,
    response: "We reply within two business days.",
  },
  {
    title: "Everything else",
    text: "Feedback, partnerships, or just to tell us what you built with Cohort.",
    email: SITE.emails.hello,
    response: "A person reads every message.",
  },
] as const;

export function ContactPage() {
  useDocumentMeta({
    title: "Contact",
    description: "Reach Cohort's support, sales, privacy, security and press teams by email.",
  });
  return (
    <>
      <PageHeader
        eyebrow="Contact"
        title="Talk to the people who build Cohort"
        lead="Write to the team that can help, and you'll hear back from a person, not a bot."
      />
      <Container className="py-14 sm:py-20">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {CHANNELS.map((channel) => (
            <li key={channel.title} className="flex flex-col rounded-2xl border border-ink-200 p-6">
              <h2 className="text-lg font-semibold text-ink-950">{channel.title}</h2>
              <p className="mt-2 flex-1 text-sm leading-6 text-ink-600">{channel.text}</p>
              <a
                href={`mailto:${channel.email}`}
                className="mt-5 font-semibold break-all text-brand-700 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-600"
              >
                {channel.email}
              </a>
              <p className="mt-1 text-xs text-ink-500">{channel.response}</p>
            </li>
          ))}
        </ul>
        <p className="mt-12 max-w-2xl text-sm text-ink-600">
          Looking for answers first? The{" "}
          <Link to="/docs" className="font-medium text-brand-700 hover:underline">
            documentation
          </Link>{" "}
          covers setup and how runs and credits work, and the{" "}
          <Link to="/pricing" className="font-medium text-brand-700 hover:underline">
            pricing page
          </Link>{" "}
          answers common billing questions.
        </p>
      </Container>
    </>
  );
}
