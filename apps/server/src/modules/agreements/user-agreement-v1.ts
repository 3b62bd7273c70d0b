/**
 * Version 1.0 of the Cohort User Agreement, seeded on first start. Later versions are published
 * by an admin (POST /api/admin/agreements); this text is never edited in place, because users
 * accepted it word for word.
 */
export const USER_AGREEMENT_V1 = {
  version: "1.0",
  effectiveDate: "2025-01-01",
  allowDecline: false,
  content: `# Cohort User Agreement

**Version 1.0 — effective 1 January 2025**

Please read this agreement carefully. It is a legally binding contract between you and the operator of Cohort ("Cohort", "we", "us"). It explains what you can expect from us, what we expect from you, and what happens when things go wrong.

## 1. Acceptance of this agreement

By creating an account, ticking the box and selecting **I Agree**, or by using Cohort in any other way, you confirm that you have read, understood and accepted this agreement. If you do not accept it, you may not use Cohort.

If you use Cohort on behalf of an organisation, you confirm that you are authorised to accept this agreement for that organisation, and "you" then means both you and the organisation.

You must be at least 16 years old, or the age of digital consent where you live if that is higher, to use Cohort.

## 2. The service

Cohort is a real-time collaboration platform in which several artificial intelligence ("AI") models work together on your requests. A coordinator model plans the work and hands parts of it to specialised agent roles — such as the Strategist, the Coder, the Designer and the Critic — and then combines their results into one answer. Cohort also offers CoChat, a conversation with a single model, and native models such as CoReason, CoDepth, CoQuick, CoLogic, CoChat and CoVision.

Some models are operated by third-party providers. We choose and change the models, providers, features and limits of Cohort from time to time in order to improve it. We may add, change or remove features, and we will tell you in advance about changes that significantly reduce what a paid plan includes.

We work hard to keep Cohort available, but we do not promise that it will be uninterrupted, error-free or available at any particular time. Maintenance, outages at our providers and events outside our control can interrupt the service.

## 3. Your account

You need an account to use Cohort. You can sign up with an email address and a password, or with Google sign-in.

- Give us accurate information and keep it up to date, in particular your email address, which we use for security messages such as password resets.
- Keep your password secret and do not reuse a password from another service. You are responsible for everything that happens under your account until you tell us it has been compromised.
- Tell us at once if you believe someone else has used your account. You can sign out other devices and reset your password at any time.
- One person, one account. Accounts may not be shared, sold or transferred.

## 4. Acceptable use

You agree to use Cohort lawfully and responsibly. In particular, you will not use Cohort, or help anyone else use it, to:

1. break any law or regulation, or infringe anyone's rights, including intellectual property and privacy rights;
2. create, request or distribute content that sexually exploits or endangers children, promotes terrorism or violent extremism, or incites violence or hatred against people because of who they are;
3. harass, threaten, defame, impersonate or deceive others, including by generating disinformation presented as fact or content that falsely appears to come from a real person;
4. develop malware, plan or carry out attacks on computer systems, or obtain unauthorised access to any system, account or data;
5. obtain instructions for weapons capable of mass casualties, or for other activities likely to cause serious physical harm;
6. make decisions with legal or similarly significant effects on people (for example about credit, employment, housing or medical treatment) based solely on AI output, without meaningful human review;
7. probe, scan or test the security of Cohort, circumvent its limits, credits or safety measures, or access it through automated means other than the documented API;
8. overload Cohort or interfere with other users' use of it;
9. copy, resell or offer Cohort's features as a competing service, or use outputs to train models that compete with Cohort in breach of a provider's terms.

The third-party model providers have their own usage policies, and your requests must comply with them as well. We may review content that is reported to us or flagged by automated systems to enforce this section, and we may refuse, remove or block content that we reasonably believe breaks it.

## 5. AI output — important disclaimer

Cohort generates its answers with AI models. **AI output can be wrong, incomplete, outdated, biased or inappropriate, even when it sounds confident.** Agents may disagree with each other, and the Critic's review does not guarantee correctness.

- Do not rely on output as professional advice. It is not legal, medical, financial, tax, engineering or safety advice, and it is no substitute for a qualified professional.
- Check output before you use it, and especially before you act on it, publish it, or run generated code in production.
- Similar requests can produce similar or identical output for different users. Output given to you is not necessarily unique.
- You are responsible for how you use output and for making sure your use complies with the law and with the rights of others.

## 6. Credits, plans and payments

Use of hosted models is measured in credits. Each request reserves credits for its worst case before it runs and is charged for its actual usage when it finishes; unused reservations are returned. The credits a request costs depend on the models, the length of the request and of the answer, and the features you use. Your current balance is shown in the app.

- **Plans.** Subscription plans (such as Starter, Pro, Pro+ and Enterprise) include a number of credits per billing period and the features described on the pricing page. Plans marked as in beta or coming soon may change before general availability.
- **Billing.** Subscriptions renew automatically at the start of each billing period until you cancel. You can cancel at any time; cancellation takes effect at the end of the current period. Payments are processed by our card payment provider; we never see or store your full card number.
- **Credit packages.** Purchased credit packages are added to your balance once the payment succeeds.
- **Refunds.** Except where the law gives you a right to a refund, payments are non-refundable and unused credits have no cash value, cannot be transferred, and expire when your account is closed.
- **Prices.** We may change prices with at least 30 days' notice. A price change applies from your next billing period after the notice.
- **Your own provider keys.** Requests made with your own provider API key do not use Cohort credits; the provider bills you directly under your agreement with them.

## 7. Your content

"Your content" means what you put into Cohort — messages, documents and files — and the output generated for you.

- **You keep your rights.** As between you and us, you own your content, to the extent the law allows ownership of AI output. We claim no ownership of it.
- **Licence to operate the service.** You give us a worldwide, non-exclusive, royalty-free licence to host, copy, process, transmit and display your content only as needed to provide, secure and support Cohort for you, including sending it to the model providers that process your requests.
- **No training without permission.** We do not use your content to train AI models unless you explicitly opt in.
- **Your responsibility.** You confirm that you have the rights needed to submit your content and that it does not break this agreement.

## 8. Provider API keys

You may add your own API keys for supported model providers. If you do:

- you must be entitled to use the key, and your use through Cohort must comply with the provider's terms;
- we store the key encrypted, use it only to make requests you initiate, and never show it back in full;
- you are responsible for the charges the provider makes for those requests, and for revoking the key at the provider if you no longer want Cohort to use it.

## 9. Privacy

Our Privacy Policy, available at /privacy, explains what personal data we collect, how we use and protect it, which providers process it, and the rights you have over it. By using Cohort you acknowledge that we process your data as described there. Where the law requires your consent for certain processing, we will ask for it separately.

## 10. Suspension and termination

You may stop using Cohort and close your account at any time.

We may suspend or close your account, with notice where reasonably possible, if you seriously or repeatedly break this agreement, if you fail to pay amounts due, if we must do so to comply with the law, or if your use creates a risk of harm to Cohort, other users or third parties. Where we close a paid account for reasons other than your breach, we will refund the unused part of any prepaid period.

After closure we delete or anonymise your content within a reasonable time, except where we must keep it by law. Sections 5, 6 (as to amounts owed), 7, 11 and 13 survive the end of this agreement.

## 11. Liability

Cohort is provided "as is" and "as available". To the fullest extent permitted by law, we disclaim all warranties, express or implied, including warranties of merchantability, fitness for a particular purpose, accuracy and non-infringement.

To the fullest extent permitted by law, we are not liable for indirect, incidental, special, consequential or punitive damages, or for loss of profits, revenue, data or goodwill, arising out of or in connection with Cohort or this agreement. Our total liability for all claims in any twelve-month period is limited to the greater of the amount you paid us in that period and 100 US dollars.

Nothing in this agreement limits liability that cannot be limited by law, such as liability for fraud, for death or personal injury caused by negligence, or your rights as a consumer under mandatory law.

You will compensate us for reasonable costs and losses arising from third-party claims caused by your content or your breach of this agreement.

## 12. Changes to this agreement

We may update this agreement, for example when we add features or when the law changes. We will publish the new version with a new version number and effective date and ask you to review and accept it in the app before you continue. If you do not accept a new version, you may close your account; a pro-rated refund of any prepaid period applies where the change materially reduces your rights. The version you accepted, and when, is kept in your agreement history.

## 13. General terms

This agreement, together with the Privacy Policy and any plan terms shown at purchase, is the entire agreement between you and us about Cohort. If a provision is found unenforceable, the rest remains in effect. Our failure to enforce a provision is not a waiver. You may not transfer this agreement without our consent; we may transfer it to a successor of our business, and we will tell you if we do. Mandatory consumer protection law of the country where you live applies in addition to these terms.

## 14. Contact

Questions about this agreement, notices and complaints can be sent through the contact page at /contact. We aim to answer within five working days.

By selecting **I Agree** you confirm that you have read this agreement to the end and accept it.
`,
} as const;
