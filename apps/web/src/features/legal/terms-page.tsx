import { Link } from "react-router";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { SITE } from "../../lib/site";
import { LegalDocument, type LegalSection } from "./legal-document";

const SECTIONS: readonly LegalSection[] = [
  {
    id: "agreement",
    title: "Agreeing to these terms",
    body: (
      <>
        <p>
          These terms govern your use of Cohort — the web app, CoChat, the API and this website —
          provided by {SITE.legalName} (“Cohort”, “we”, “us”). Before you first use the app, it
          shows you the current user agreement with its version and effective date; you accept it by
          ticking the box and choosing I Agree. When we publish a new version, the app asks you to
          review and accept it before you continue.
        </p>
        <p>
          If you use Cohort for an organisation, you confirm that you may accept these terms for it,
          and “you” includes that organisation.
        </p>
      </>
    ),
  },
  {
    id: "accounts",
    title: "Your account",
    body: (
      <ul>
        <li>You must be at least 16 and give accurate sign-up details.</li>
        <li>
          Keep your password and API tokens to yourself. You're responsible for what happens under
          your account until you tell us it has been compromised.
        </li>
        <li>One person per account: do not share your sign-in with others.</li>
      </ul>
    ),
  },
  {
    id: "credits-and-billing",
    title: "Plans, credits and payment",
    body: (
      <>
        <p>
          Plans are billed monthly in advance, in US dollars, through Stripe's hosted checkout, and
          renew until you cancel. Each plan includes a monthly credit allowance; credit packages can
          be bought in addition.
        </p>
        <ul>
          <li>
            Hosted model calls consume credits according to the model's published price and the
            tokens used. Before each call we reserve its maximum cost and then charge what it
            actually used; the rest is released. A call that your balance can't cover does not
            start.
          </li>
          <li>Calls made with your own provider API key consume no credits.</li>
          <li>
            Plans marked IN BETA are offered while we are still tuning them; limits may change, and
            we will tell you in advance by email. Plans marked Coming Soon cannot be bought yet.
          </li>
          <li>
            You can cancel at any time from Billing; your plan runs to the end of the paid month.
            Payments are non-refundable except where the law says otherwise or where we failed to
            provide the service.
          </li>
          <li>Credits have no cash value and can't be transferred or resold.</li>
        </ul>
      </>
    ),
  },
  {
    id: "your-content",
    title: "Your content",
    body: (
      <>
        <p>
          You keep all rights to what you put into Cohort and, as between you and us, to what the
          agents produce for you. You give us permission to store, process and transmit that content
          only as needed to run Cohort for you — including sending it to the model providers that
          handle your requests — and for no other purpose.
        </p>
        <p>
          We don't use your content to train AI models. How we handle personal data is described in
          the <Link to="/privacy">privacy policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: "acceptable-use",
    title: "Acceptable use",
    body: (
      <>
        <p>You agree not to use Cohort to:</p>
        <ul>
          <li>
            break the law or infringe anyone's rights, including intellectual property and privacy;
          </li>
          <li>create malware, attack systems, or get around security controls, ours included;</li>
          <li>generate content that sexualises minors, incites violence or harasses people;</li>
          <li>
            break the usage policies of the model providers whose models you use through Cohort;
          </li>
          <li>
            overload the service, scrape it, or resell access to it without a written agreement with
            us.
          </li>
        </ul>
        <p>
          We may suspend an account that puts the service or other users at risk. Unless the risk is
          urgent, we'll tell you first and give you a chance to fix it.
        </p>
      </>
    ),
  },
  {
    id: "ai-output",
    title: "AI output",
    body: (
      <p>
        Agents can be wrong, incomplete or out of date, even after the Critic's review, and
        different models can disagree. Check output before you rely on it. Cohort does not provide
        legal, medical, financial or other professional advice, and output is not a substitute for a
        qualified professional.
      </p>
    ),
  },
  {
    id: "api-keys",
    title: "Your provider API keys",
    body: (
      <p>
        When you add your own key, you authorise us to make calls with it on your behalf. Your
        agreement with that provider, including its prices and policies, applies to those calls. You
        can remove the key at any time.
      </p>
    ),
  },
  {
    id: "third-parties",
    title: "Third-party services",
    body: (
      <p>
        Cohort relies on model providers, Stripe and Google sign-in. Their availability and terms
        are outside our control; if a provider is unavailable, calls to its models may fail, and
        their reserved credits are released.
      </p>
    ),
  },
  {
    id: "changes-to-service",
    title: "Changes to Cohort",
    body: (
      <p>
        We improve Cohort continually and may add, change or retire features and models. If we
        retire something you pay for, we'll give you at least 30 days' notice and a pro-rata refund
        if you no longer want your plan.
      </p>
    ),
  },
  {
    id: "termination",
    title: "Ending the agreement",
    body: (
      <p>
        You can close your account at any time from Settings or by writing to{" "}
        <a href={`mailto:${SITE.emails.support}`}>{SITE.emails.support}</a>. We may end these terms
        if you seriously or repeatedly break them. Either way, we then delete your data as the
        privacy policy describes.
      </p>
    ),
  },
  {
    id: "disclaimers",
    title: "Disclaimers and liability",
    body: (
      <>
        <p>
          Cohort is provided “as is” and “as available”. To the extent the law allows, we disclaim
          implied warranties of merchantability, fitness for a particular purpose and
          non-infringement.
        </p>
        <p>
          To the extent the law allows, neither party is liable for indirect or consequential
          losses, and our total liability in any 12 months is limited to what you paid us in those
          12 months. Nothing in these terms limits liability that cannot be limited by law,
          including for fraud or for death or personal injury caused by negligence.
        </p>
      </>
    ),
  },
  {
    id: "changes-to-terms",
    title: "Changes to these terms",
    body: (
      <p>
        We will tell you about material changes at least 14 days in advance by email and in the app,
        where you'll be asked to accept the new version. If you don't agree, you can close your
        account before the change takes effect.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <p>
        Questions about these terms: <a href={`mailto:${SITE.emails.hello}`}>{SITE.emails.hello}</a>
        . Support: <a href={`mailto:${SITE.emails.support}`}>{SITE.emails.support}</a>.
      </p>
    ),
  },
];

export function TermsPage() {
  useDocumentMeta({
    title: "Terms of service",
    description:
      "The terms that apply when you use Cohort: accounts, plans and credits, your content, acceptable use and AI output.",
  });
  return (
    <LegalDocument
      title="Terms of service"
      lead="The agreement between you and Cohort: how plans and credits work, who owns what, what's off limits, and what to expect from AI output."
      sections={SECTIONS}
    />
  );
}
