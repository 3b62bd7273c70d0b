import { formatCredits, hasCoChatAccess, TIER_LABELS } from "@cohort/contracts";
import { Link } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Card } from "../../components/card";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { displayNameOf } from "../shell/display-name";
import { VerifyEmailBanner } from "./verify-email-banner";

const START_LINKS = [
  {
    to: "/chat",
    title: "Cohort Chat",
    text: "Start a session: the coordinator plans, the agents work on it live.",
  },
  { to: "/cochat", title: "CoChat", text: "A conversation with a single model." },
  { to: "/billing", title: "Billing", text: "Your plan, credit packages and usage." },
  { to: "/settings", title: "Settings", text: "Your profile and where you are signed in." },
] as const;

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-ink-500 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-ink-950" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The signed-in home: who you are, what your account holds, where to start. */
export function DashboardPage() {
  useDocumentMeta({ title: "Dashboard" });
  const { user } = useAuth();
  if (!user) return null;
  const memberSince = new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(
    new Date(user.created_at),
  );
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6 lg:px-10 lg:py-10">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">
          Welcome, {displayNameOf(user)}
        </h1>
        <p className="mt-1 text-sm text-ink-600">Here is your account at a glance.</p>
      </div>

      {user.emailVerified ? null : <VerifyEmailBanner email={user.email} />}

      <Card className="p-5 sm:p-6">
        <h2 className="text-sm font-semibold text-ink-900">Your account</h2>
        <dl className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Plan" value={TIER_LABELS[user.subscription_tier]} testId="fact-tier" />
          <Fact
            label="Credits"
            value={formatCredits(user.credits_remaining)}
            testId="fact-credits"
          />
          <Fact
            label="CoChat"
            value={hasCoChatAccess(user.subscription_tier) ? "Unlimited" : "Locked"}
          />
          <Fact label="Member since" value={memberSince} />
        </dl>
      </Card>

      <section aria-labelledby="start-title">
        <h2 id="start-title" className="text-sm font-semibold text-ink-900">
          Where to start
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          {START_LINKS.map((link) => (
            <li key={link.to}>
              <Link
                to={link.to}
                className="block h-full rounded-xl border border-ink-200 bg-white p-4 transition-colors hover:border-brand-300 hover:bg-brand-50"
              >
                <span className="font-semibold text-brand-700">{link.title}</span>
                <span className="mt-1 block text-sm text-ink-600">{link.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
