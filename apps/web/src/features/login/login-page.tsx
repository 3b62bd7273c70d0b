import {
  AGREEMENT_MESSAGES,
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT_MESSAGE,
  SIGN_IN_PROVIDER_LABELS,
  type TAgreement,
  type TSignInProvider,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { failureMessage, logIn, signUp } from "../../auth/account-api";
import { type AuthSnapshot, applyAuthResponse } from "../../auth/auth-store";
import { mayRedirectToDashboard } from "../../auth/dashboard-redirect";
import { FullScreenSpinner } from "../../auth/full-screen-spinner";
import {
  announceGoogleFailure,
  fetchAuthProviders,
  startGoogleSignIn,
} from "../../auth/google-sign-in";
import { returnPathFrom } from "../../auth/return-path";
import { useAuth } from "../../auth/use-auth";
import { Button } from "../../components/button";
import { Field, FormMessage, PasswordField } from "../../components/form";
import { Logo } from "../../components/logo";
import { ProviderIcon } from "../../components/provider-icon";
import { dismissToast, type ToastOptions, toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { logger } from "../../lib/telemetry/logger";
import { trackFunnelStep } from "../../lib/telemetry/telemetry";
import { fetchCurrentAgreement } from "../agreement/agreement-api";
import { fetchEmailStatus } from "./email-status-api";
import { InvitationNotice, invitationTokenFrom, useInvitationPreview } from "./invitation-notice";
import { ModelsPanel } from "./models-panel";

const AgreementModal = lazy(() =>
  import("../agreement/agreement-modal").then((m) => ({ default: m.AgreementModal })),
);
const RedirectLoopAlert = lazy(() =>
  import("./redirect-loop-alert").then((m) => ({ default: m.RedirectLoopAlert })),
);

/** The exact error texts of this screen, word for word. */
export const LOGIN_TEXTS = {
  welcomeBack: "Welcome back!",
  loginFailed: "Login failed. Please try again.",
  accountCreated: "Account created successfully!",
  registrationFailed: "Registration failed. Please try again.",
  createFailedAfterAgreement: "Failed to create account. Please try again.",
  passwordHint: "Password must be at least 6 characters long.",
  signInInstead: "Sign in instead",
} as const;

type Mode = "signin" | "signup";

const PASSWORD_INPUT_ID = "login-password";

interface FormValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

const EMPTY: FormValues = { firstName: "", lastName: "", email: "", password: "" };

interface HeldSignup {
  values: FormValues;
  agreement: TAgreement;
}

/** The route table Login screen: sign in or create an account, by password or with Google. */
export function LoginPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [mode, setMode] = useState<Mode>(
    searchParams.get("mode") === "signup" ? "signup" : "signin",
  );
  // A "Get Started" followed while this screen is already open still switches it to sign-up.
  const askedForSignUp = searchParams.get("mode") === "signup";
  useEffect(() => {
    if (askedForSignUp) setMode("signup");
  }, [askedForSignUp]);
  useDocumentMeta({
    title: mode === "signin" ? "Sign in" : "Create your account",
    description: "Sign in to Cohort or create your account.",
  });
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [submitting, setSubmitting] = useState(false);
  const [providerBusy, setProviderBusy] = useState(false);
  const providers = useQuery({
    queryKey: ["auth-providers"],
    queryFn: fetchAuthProviders,
    staleTime: Number.POSITIVE_INFINITY,
  });
  // The route table always has Continue with Google; Firebase may add GitHub, Facebook and X.
  const signInProviders: readonly TSignInProvider[] = [
    "google",
    ...(providers.data?.firebase?.providers ?? []).filter((provider) => provider !== "google"),
  ];
  /** A notice in the form (a declined agreement); failures of a call are toasts (the error texts). */
  const [formNotice, setFormNotice] = useState<string | null>(null);
  /** The address sign-up found taken: the form offers to sign in with it instead. */
  const [takenEmail, setTakenEmail] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const failureToast = useRef<string | null>(null);
  const [held, setHeld] = useState<HeldSignup | null>(null);
  const [registering, setRegistering] = useState(false);
  /** Set once the redirect-loop guard stopped a redirect; the form stays up from then on. */
  const [loopStopped, setLoopStopped] = useState(false);
  const [loopAlertOpen, setLoopAlertOpen] = useState(false);
  const handledAuth = useRef<AuthSnapshot | null>(null);
  const handledGoogleError = useRef(false);
  // An invitation link opened signed out: the form says who invited whom, to what, and is
  // ready to create the invited address's account (decision 057).
  const invitation = useInvitationPreview(invitationTokenFrom(location.state)).data ?? null;
  const invitedEmail = invitation?.email ?? null;
  useEffect(() => {
    if (!invitedEmail) return;
    setMode("signup");
    setValues((previous) => (previous.email ? previous : { ...previous, email: invitedEmail }));
  }, [invitedEmail]);

  // The server-side Google flow comes back here with ?error=google when it fails.
  useEffect(() => {
    if (searchParams.get("error") !== "google" || handledGoogleError.current) return;
    handledGoogleError.current = true;
    announceGoogleFailure();
    setSearchParams(
      (params) => {
        params.delete("error");
        return params;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams]);

  // A signed-in user goes to the dashboard, through the redirect-loop guard (the UI states).
  useEffect(() => {
    if (auth.status !== "authenticated" || handledAuth.current === auth) return;
    handledAuth.current = auth;
    if (mayRedirectToDashboard()) navigate(returnPathFrom(location.state), { replace: true });
    else {
      setLoopStopped(true);
      setLoopAlertOpen(true);
    }
  }, [auth, navigate, location.state]);

  /** A form field's name, value and change handler, held in `values`. */
  const bind = (field: keyof FormValues) => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((previous) => ({ ...previous, [field]: value }));
      if (field === "password") setPasswordError(null);
      if (field === "email") setTakenEmail(null);
    },
  });

  const switchMode = (next: Mode) => {
    setMode(next);
    setFormNotice(null);
    setTakenEmail(null);
    setPasswordError(null);
  };

  /** The address has an account: to the sign-in form with the address kept. */
  const signInInstead = () => {
    switchMode("signin");
    setValues((previous) => ({ ...EMPTY, email: previous.email }));
    requestAnimationFrame(() => document.getElementById(PASSWORD_INPUT_ID)?.focus());
  };

  /** One failure toast at a time: a newer failure replaces it, a success removes it. */
  const showFailure = (options: Omit<ToastOptions, "variant">) => {
    clearFailure();
    failureToast.current = toast({ ...options, variant: "error" });
  };
  const clearFailure = () => {
    if (failureToast.current) dismissToast(failureToast.current);
    failureToast.current = null;
  };

  const showTaken = (email: string) => {
    clearFailure();
    setTakenEmail(email);
  };

  async function signIn() {
    setSubmitting(true);
    try {
      const response = await logIn({ email: values.email, password: values.password });
      clearFailure();
      toast({ title: LOGIN_TEXTS.welcomeBack, variant: "success" });
      applyAuthResponse(response);
    } catch (error) {
      // The error texts: login errors are only logged (not reported as application errors).
      logger.info("Login failed", { code: isApiError(error) ? error.code : undefined });
      showFailure({ title: failureMessage(error, LOGIN_TEXTS.loginFailed) });
    } finally {
      setSubmitting(false);
    }
  }

  async function register(form: FormValues, agreement: TAgreement | null) {
    const response = await signUp({ ...form, ...(agreement ? { agreementId: agreement.id } : {}) });
    clearFailure();
    toast({ title: LOGIN_TEXTS.accountCreated, variant: "success" });
    trackFunnelStep("sign_up");
    applyAuthResponse(response);
  }

  async function startSignUp() {
    if (values.password.length < PASSWORD_MIN_LENGTH) {
      setPasswordError(PASSWORD_TOO_SHORT_MESSAGE);
      return;
    }
    setSubmitting(true);
    try {
      // Before the agreement: someone who already has an account is told so now, not after
      // reading and accepting it (decision 030).
      if (!(await emailIsFree(values.email))) {
        showTaken(values.email);
        return;
      }
      const agreement = await fetchCurrentAgreement();
      if (agreement) {
        // The UI states: hold the form back while the agreement is read and accepted.
        clearFailure();
        setHeld({ values: { ...values }, agreement });
        return;
      }
      await register(values, null);
    } catch (error) {
      logger.info("Registration failed", { code: isApiError(error) ? error.code : undefined });
      if (isEmailTaken(error)) showTaken(values.email);
      else showFailure({ title: failureMessage(error, LOGIN_TEXTS.registrationFailed) });
    } finally {
      setSubmitting(false);
    }
  }

  async function acceptAndRegister() {
    if (!held) return;
    setRegistering(true);
    try {
      await register(held.values, held.agreement);
      setHeld(null);
    } catch (error) {
      logger.info("Registration after accepting the agreement failed", {
        code: isApiError(error) ? error.code : undefined,
      });
      setHeld(null);
      if (isEmailTaken(error)) {
        // Taken between the check and the sign-up: the same offer to sign in instead.
        showTaken(held.values.email);
        return;
      }
      const detail = failureMessage(error, "");
      showFailure({
        title: LOGIN_TEXTS.createFailedAfterAgreement,
        ...(detail ? { description: detail } : {}),
      });
    } finally {
      setRegistering(false);
    }
  }

  const discardHeld = () => {
    setHeld(null);
    setFormNotice(AGREEMENT_MESSAGES.declineNotAllowed);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setFormNotice(null);
    setTakenEmail(null);
    void (mode === "signin" ? signIn() : startSignUp());
  };

  const onProvider = async (provider: TSignInProvider) => {
    setProviderBusy(true);
    try {
      await startGoogleSignIn(provider);
    } finally {
      setProviderBusy(false);
    }
  };

  const redirecting = auth.status === "authenticated" && !loopStopped;
  if (auth.status === "loading" || redirecting) return <FullScreenSpinner />;

  const signingUp = mode === "signup";
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
      <div className="flex items-center justify-center bg-white px-4 py-10 sm:px-8 lg:order-2">
        <div className="w-full max-w-md">
          <Link to="/" aria-label="Cohort home" className="mb-8 inline-block rounded-lg lg:hidden">
            <Logo />
          </Link>
          <h1 className="text-3xl font-bold tracking-tight text-ink-950">
            {signingUp ? "Create your account" : "Sign in"}
          </h1>
          <p className="mt-2 text-sm text-ink-600">
            {signingUp ? (
              <>
                Already have an account?{" "}
                <button
                  type="button"
                  onClick={() => switchMode("signin")}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  Sign in
                </button>
              </>
            ) : (
              <>
                New to Cohort?{" "}
                <button
                  type="button"
                  onClick={() => switchMode("signup")}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  Create your account
                </button>
              </>
            )}
          </p>

          {invitation ? <InvitationNotice preview={invitation} /> : null}

          <div className="mt-8 grid gap-3">
            {signInProviders.map((provider) => (
              <Button
                key={provider}
                variant="outline"
                size="lg"
                className="w-full"
                onClick={() => onProvider(provider)}
                disabled={providerBusy}
              >
                <ProviderIcon provider={provider} />
                Continue with {SIGN_IN_PROVIDER_LABELS[provider]}
              </Button>
            ))}
          </div>

          <div className="my-6 flex items-center gap-3 text-xs text-ink-500" aria-hidden="true">
            <span className="h-px flex-1 bg-ink-200" />
            or with your email
            <span className="h-px flex-1 bg-ink-200" />
          </div>

          <form onSubmit={onSubmit} className="grid gap-4" noValidate={false}>
            {signingUp ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label="First Name"
                  autoComplete="given-name"
                  required
                  {...bind("firstName")}
                />
                <Field
                  label="Last Name"
                  autoComplete="family-name"
                  required
                  {...bind("lastName")}
                />
              </div>
            ) : null}
            <Field
              label="Email address"
              type="email"
              autoComplete="email"
              required
              {...bind("email")}
              aria-describedby={takenEmail ? "email-taken" : undefined}
            />
            <div aria-live="polite">
              {takenEmail ? (
                <div
                  id="email-taken"
                  data-testid="email-taken"
                  className="-mt-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-2 rounded-lg border border-brand-200 bg-brand-50 px-3 py-2.5 text-sm text-brand-900"
                >
                  <p>{AUTH_MESSAGES.emailTaken}</p>
                  <Button type="button" size="sm" variant="secondary" onClick={signInInstead}>
                    {LOGIN_TEXTS.signInInstead}
                  </Button>
                </div>
              ) : null}
            </div>
            <PasswordField
              id={PASSWORD_INPUT_ID}
              label="Password"
              autoComplete={signingUp ? "new-password" : "current-password"}
              required
              {...bind("password")}
              hint={LOGIN_TEXTS.passwordHint}
              error={passwordError}
            />
            {signingUp ? null : (
              <div className="-mt-1 text-right">
                <Link
                  to="/forgot-password"
                  className="text-sm font-medium text-brand-700 hover:underline"
                >
                  Forgot your password?
                </Link>
              </div>
            )}
            <FormMessage>{formNotice}</FormMessage>
            <Button type="submit" size="lg" className="w-full" disabled={submitting}>
              {submitting ? "Loading..." : signingUp ? "Create account" : "Sign in"}
            </Button>
          </form>

          <p className="mt-8 text-center text-xs leading-5 text-ink-500">
            By continuing you agree to the{" "}
            <Link to="/terms" className="underline hover:text-ink-800">
              Terms
            </Link>{" "}
            and the{" "}
            <Link to="/privacy" className="underline hover:text-ink-800">
              Privacy Policy
            </Link>
            .
          </p>
        </div>
      </div>
      <ModelsPanel />

      {held ? (
        <Suspense fallback={null}>
          <AgreementModal
            agreement={held.agreement}
            open
            busy={registering}
            onClose={discardHeld}
            askBeforeDiscarding
            onAccept={acceptAndRegister}
            onDecline={held.agreement.allowDecline ? discardHeld : undefined}
          />
        </Suspense>
      ) : null}
      {loopStopped ? (
        <Suspense fallback={null}>
          <RedirectLoopAlert open={loopAlertOpen} onClose={() => setLoopAlertOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}

function isEmailTaken(error: unknown): boolean {
  return isApiError(error) && error.code === AUTH_ERROR_CODES.emailTaken;
}

/**
 * Whether sign-up may go on with this address. A failed check (offline, throttled) does not
 * stop it: sign-up itself still refuses a taken address.
 */
async function emailIsFree(email: string): Promise<boolean> {
  try {
    return (await fetchEmailStatus(email)).available;
  } catch (error) {
    logger.info("Could not check the address before sign-up", {
      code: isApiError(error) ? error.code : undefined,
    });
    return true;
  }
}
