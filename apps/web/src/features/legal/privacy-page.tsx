import { Link } from "react-router";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { SITE } from "../../lib/site";
import { LegalDocument, type LegalSection } from "./legal-document";

const mail = (address: string) => <a href={`mailto:${address}`}>{address}</a>;

const SECTIONS: readonly LegalSection[] = [
  {
    id: "who-we-are",
    title: "Who we are",
    body: (
      <>
        <p>
          {SITE.legalName} (“Cohort”, “we”, “us”) runs the Cohort multi-agent AI platform, its
          CoChat feature, its API and this website. We are the controller of the personal data
          described here. Where your organisation gives you access to Cohort and decides what you
          use it for, your organisation is the controller of the content you enter and we process it
          on its behalf.
        </p>
        <p>
          Questions about this policy go to {mail(SITE.emails.privacy)}. We answer every request
          within 30 days.
        </p>
      </>
    ),
  },
  {
    id: "what-we-collect",
    title: "What we collect",
    body: (
      <>
        <h3>Account data</h3>
        <p>
          Your email address, first and last name, and a hash of your password (argon2id — we never
          store or see the password itself). If you sign in with Google, we receive your Google
          account identifier, display name, email address and profile photo address from the
          identity provider. We also record your subscription tier, your credit balance and the
          ledger of credits added, reserved, spent and released.
        </p>
        <h3>Your content</h3>
        <p>
          The sessions you create, the messages you send and everything the agents produce in
          response: the coordinator's plan, each agent's drafts, the Critic's scores and the final
          answer. Each run is stored as a sequence of events so you can reconnect and replay it.
        </p>
        <h3>Provider API keys</h3>
        <p>
          If you add your own OpenAI, Anthropic or Google key, we encrypt it at rest with
          AES-256-GCM and use it only to make the model calls you start. A saved key is never sent
          back to your browser and never appears in logs.
        </p>
        <h3>Usage and diagnostics</h3>
        <p>
          Cohort measures itself with its own code only: no third-party analytics or advertising
          scripts run on its pages. Exactly this is sent to our servers:
        </p>
        <ul>
          <li>
            <strong>Page views</strong> — the page's path (never its query string, which can carry a
            sign-in link's token), its title, the address of the page you came from, campaign
            parameters (UTM source, medium, campaign, term and content), your browser's user agent,
            platform and language, whether the screen is a phone, tablet or desktop size, and the
            screen and window size.
          </li>
          <li>
            <strong>Events</strong> — named steps such as signing up, starting a run or buying
            credits, and page-speed events (first and largest contentful paint, in whole
            milliseconds).
          </li>
          <li>
            <strong>Performance</strong> — per page load: largest contentful paint, first input
            delay or, in browsers that no longer report it, interaction to next paint, layout shift,
            time to first byte, and DOM and page load times.
          </li>
          <li>
            <strong>Visit length</strong> — how long a visit lasted, in seconds. A visit is a random
            identifier kept in this browser, replaced after 30 minutes without activity.
          </li>
          <li>
            <strong>Error and warning logs</strong>, while you are signed in — the message, the page
            address, your browser's user agent, your user id, the chat session open at the time and
            the request id of a failed call, so we can match it with our server's record of that
            call. Before any log entry leaves your browser, and again on our server, values under
            keys such as password, token, secret, api_key, apiKey and authorization are replaced
            with “[REDACTED]”.
          </li>
        </ul>
        <p>
          With page views, events and logs we store the network your connection came from, never
          your full IP address: the first three parts of an IPv4 address (a /24 network) or the
          first three groups of an IPv6 address (a /48 network). Signed-in activity is linked to
          your user id; visits before you sign in are not linked to you.
        </p>
        <p>
          <strong>Your choices.</strong> If your browser sends Do Not Track or Global Privacy
          Control, Cohort sends no page views, events, performance data or visit lengths from it,
          and our server discards any that arrive. You can also turn analytics off for your account
          under Settings → Privacy; the choice follows your account to every browser. Error and
          warning logs of signed-in use are kept either way, because we need them to answer support
          requests and keep the service running.
        </p>
        <h3>Agreement records</h3>
        <p>
          Which version of the user agreement you accepted, when, and from where (for example the
          web app).
        </p>
        <h3>Payment data</h3>
        <p>
          Payments are taken on Stripe's hosted checkout. We receive the plan or credit package you
          bought, the amount, the currency and a payment reference. We never receive or store your
          full card number or security code.
        </p>
      </>
    ),
  },
  {
    id: "how-we-use-it",
    title: "How we use it",
    body: (
      <>
        <ul>
          <li>
            <strong>To provide Cohort</strong> — running your sessions, routing each part of a task
            to the model you chose, streaming results, and keeping your history (performance of our
            contract with you).
          </li>
          <li>
            <strong>To charge fairly</strong> — reserving and settling credits, applying your plan
            and processing payments (contract; legal obligations for tax records).
          </li>
          <li>
            <strong>To keep Cohort secure</strong> — sign-ins, CSRF protection, rate limits, fraud
            prevention and the audit log of administrative actions (legitimate interests).
          </li>
          <li>
            <strong>To improve Cohort</strong> — aggregated usage and performance measurements tell
            us which pages are slow and which features are used (legitimate interests). We don't
            build advertising profiles.
          </li>
          <li>
            <strong>To talk to you</strong> — account emails such as verification, password reset,
            receipts and changes to these terms (contract), and product news only if you opt in
            (consent).
          </li>
        </ul>
        <p>
          We do not sell your personal data, and we do not use your prompts or outputs to train AI
          models.
        </p>
      </>
    ),
  },
  {
    id: "model-providers",
    title: "Model providers",
    body: (
      <>
        <p>
          To answer a message, Cohort sends the relevant part of your session to the provider of
          each model involved: OpenAI for GPT models, Anthropic for Claude models, Google for Gemini
          models, or a model server your organisation configured. Native Co* models run on
          infrastructure we operate or contract. Each provider processes that content under its own
          API terms, and we choose API offerings whose terms don't allow training on that content.
        </p>
        <p>
          When a call runs on your own API key, your own agreement with that provider governs it,
          and the provider bills you directly.
        </p>
      </>
    ),
  },
  {
    id: "cookies",
    title: "Cookies and browser storage",
    body: (
      <>
        <p>
          Cohort uses only what it needs to work. There are no advertising or third-party tracking
          cookies.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Name or key</th>
              <th scope="col">Where</th>
              <th scope="col">Purpose</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Sign-in cookie (cohort_session)</td>
              <td>Cookie (httpOnly)</td>
              <td>Keeps you signed in; unreadable to page scripts; ends when you sign out.</td>
            </tr>
            <tr>
              <td>CSRF token</td>
              <td>sessionStorage (csrfToken)</td>
              <td>
                Proves that a change request came from Cohort's own pages; tied to your sign-in.
              </td>
            </tr>
            <tr>
              <td>authToken, userProfile</td>
              <td>localStorage</td>
              <td>
                Remembers that this browser is signed in and shows your name and plan quickly.
              </td>
            </tr>
            <tr>
              <td>cohortAnalyticsSession, cohortAnalyticsOptOut</td>
              <td>localStorage</td>
              <td>
                The random visit identifier with the time of your last activity, and whether you
                turned analytics off. The visit identifier is never set under Do Not Track or Global
                Privacy Control.
              </td>
            </tr>
            <tr>
              <td>Profile, recent navigation, redirect counters</td>
              <td>sessionStorage</td>
              <td>
                Your profile for this tab, and the last 20 pages visited in it, used only to detect
                and stop redirect loops. Cleared when the tab closes.
              </td>
            </tr>
          </tbody>
        </table>
      </>
    ),
  },
  {
    id: "sharing",
    title: "Who we share data with",
    body: (
      <ul>
        <li>
          <strong>Model providers</strong> (OpenAI, Anthropic, Google, or those you configure) — the
          content needed for the calls you start.
        </li>
        <li>
          <strong>Stripe</strong> — payment processing and fraud checks for purchases.
        </li>
        <li>
          <strong>Google</strong> — only if you choose Google sign-in.
        </li>
        <li>
          <strong>Infrastructure providers</strong> — hosting, database, email delivery and error
          monitoring, bound by contracts that limit them to processing on our instructions.
        </li>
        <li>
          <strong>Authorities</strong> — when the law requires it; we push back on requests that are
          overbroad and tell you unless we are legally prevented.
        </li>
      </ul>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    body: (
      <ul>
        <li>
          Account data: while your account is open. Deleting your account erases it at once (see
          “Download or delete your data”); copies in backups are gone within a further 35 days.
        </li>
        <li>
          Sessions, messages and run events: until you delete them or your account; removed from
          backups within a further 35 days.
        </li>
        <li>Provider API keys: until you remove them or close your account.</li>
        <li>
          Page views, events, performance data, visit lengths and error logs: 30 days, then deleted
          automatically.
        </li>
        <li>
          Credit ledger, invoices and payment records: as long as tax and accounting law requires,
          usually seven years. When you delete your account, the ledger and usage records stay
          without anything that names you.
        </li>
        <li>
          Agreement acceptance records: for as long as the agreement applies to you, plus six years.
        </li>
      </ul>
    ),
  },
  {
    id: "your-data",
    title: "Download or delete your data",
    body: (
      <>
        <h3>Download my data</h3>
        <p>
          Settings → Your data → Download my data gives you one zip file (a few downloads an hour)
          with: a README explaining each file; your profile, how you sign in, the agreements you
          accepted and your settings (provider keys and API access tokens by their visible hints
          only, never the secrets); the workspaces you belong to and your role in each; every
          session you created, in any workspace, as a complete JSON export with its messages, plan,
          steps, models, costs and critic scores; your CoChat conversations; the documents you
          uploaded, with the original files; your memories; and your personal credit ledger and the
          model usage it paid for.
        </p>
        <h3>Delete my account</h3>
        <p>
          Settings → Your data → Delete account asks for your password (or, if you only sign in with
          Google, your email address) and for the word DELETE. Then, at once:
        </p>
        <ul>
          <li>every sign-in ends and open connections are closed;</li>
          <li>
            your profile, sign-in methods, provider keys, access tokens, agreement records and
            settings are erased;
          </li>
          <li>
            the sessions you created (in team workspaces too) with their runs, your CoChat
            conversations, your memories and your documents with their stored files are erased;
          </li>
          <li>
            your personal workspace, and any team workspace where you are the only member, are
            deleted with their credits: a remaining balance is forfeited, not refunded;
          </li>
          <li>
            your error logs are deleted and your analytics records lose your user id and network;
          </li>
          <li>
            the credit ledger and usage records are kept, as accounting law requires, but nothing in
            them names you any more; an audit entry records that an account was deleted, without
            your email address.
          </li>
        </ul>
        <p>
          While you are the only owner of a team that has other members, make someone else an owner
          or delete the team first. A paid plan must be cancelled in Billing first.
        </p>
      </>
    ),
  },
  {
    id: "security",
    title: "How we protect it",
    body: (
      <p>
        Traffic is encrypted in transit. Passwords are hashed with argon2id; sign-ins are random
        tokens stored only as hashes and can be revoked; provider keys are encrypted at rest. Every
        change request needs a CSRF token, request bodies are validated, sensitive fields are
        redacted from logs, and administrative actions are written to an audit log. Report a
        security issue to {mail(SITE.emails.security)}.
      </p>
    ),
  },
  {
    id: "your-rights",
    title: "Your rights",
    body: (
      <>
        <p>Depending on where you live, you can ask us to:</p>
        <ul>
          <li>
            give you a copy of your personal data, in a portable format (Settings → Your data →
            Download my data does it at once);
          </li>
          <li>correct data that is wrong;</li>
          <li>delete your data or your account (Settings → Your data → Delete account);</li>
          <li>restrict or object to processing based on our legitimate interests;</li>
          <li>withdraw consent you gave, such as for product emails.</li>
        </ul>
        <p>
          Write to {mail(SITE.emails.privacy)} from the address on your account. You can also
          complain to your local data protection authority. California residents have the rights
          described in the CCPA; we do not sell or share personal information for cross-context
          advertising.
        </p>
      </>
    ),
  },
  {
    id: "transfers",
    title: "International transfers",
    body: (
      <p>
        Model providers and our infrastructure may process data outside your country, including in
        the United States. Where the law requires it, transfers rely on the European Commission's
        standard contractual clauses or an equivalent safeguard.
      </p>
    ),
  },
  {
    id: "children",
    title: "Children",
    body: (
      <p>
        Cohort is not meant for anyone under 16, and we don't knowingly collect their data. If you
        believe a child has an account, tell us and we'll delete it.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to this policy",
    body: (
      <p>
        When we change this policy in a way that matters, we update the date above and tell you by
        email or in the app before the change takes effect. The policy works together with our{" "}
        <Link to="/terms">terms of service</Link>.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <p>
        Privacy questions and requests: {mail(SITE.emails.privacy)}. Everything else: see the{" "}
        <Link to="/contact">contact page</Link>.
      </p>
    ),
  },
];

export function PrivacyPage() {
  useDocumentMeta({
    title: "Privacy policy",
    description:
      "What Cohort collects, why, who it is shared with, how long it is kept and how to use your rights.",
  });
  return (
    <LegalDocument
      title="Privacy policy"
      lead="What Cohort collects when you use it, why, who else sees it, how long we keep it, and how you stay in control."
      sections={SECTIONS}
    />
  );
}
